import AUCore
#if canImport(Glibc)
import Glibc
#endif

/// The life cycle: open, initialize, update, start, stop, uninitialize, close, dispose
/// (`AUGraphOpen` … `DisposeAUGraph`), and the disposal of removed nodes' units once no
/// plan in use refers to them.
extension AudioGraph {
    /// Instantiates every node's unit (`AUGraphOpen`).
    /// - Thread: [control]
    public func open() throws(AudioUnitError) {
        try requireNotDisposed()
        if isOpen { return }
        for node in model.order where model.nodes[node]?.unit == nil {
            let entry = model.nodes[node]!
            guard let registry, let component = registry.firstComponent(matching: entry.description) else {
                throw AudioUnitError(.extensionNotFound, "cannot open \(model.label(node)): no unit matches \(entry.description)")
            }
            model.nodes[node]!.unit = try component.instantiate()
        }
        isOpen = true
    }

    /// Propagates stream formats along the connections, checks them, initializes every unit,
    /// compiles the render plan and publishes it (`AUGraphInitialize`; opens first if needed).
    /// Fails with an error naming the nodes and buses of a bad connection or a cycle.
    /// - Thread: [control]
    public func initialize() throws(AudioUnitError) {
        try requireNotDisposed()
        if isInitialized { return }
        try open()
        try publishPlan()
        renderer.enable()
        isInitialized = true
    }

    /// Applies the edits made since the last plan while the graph runs (`AUGraphUpdate`):
    /// new units are initialized, formats checked, a new plan compiled and published. The
    /// render thread switches at the top of its next cycle; paths that were not edited keep
    /// their state (delay lines included). Before ``initialize()`` edits need no update.
    /// - Thread: [control]
    public func update() throws(AudioUnitError) {
        try requireNotDisposed()
        defer { reapGraveyard() }
        guard isInitialized, hasPendingEdits else { return }
        try publishPlan()
    }

    /// Waits until the render thread adopted the last published plan and the units it no
    /// longer uses are disposed (`AUGraphUpdate`'s synchronous mode); false after `timeout`.
    /// Only useful while another thread renders.
    /// - Thread: [control]
    public func waitUntilUpdated(timeout: Double = 2) -> Bool {
        let deadline = MonotonicClock.nanoseconds() + UInt64(timeout * 1e9)
        while renderer.adoptedGeneration.load(ordering: .acquiring) < generation {
            if MonotonicClock.nanoseconds() > deadline { return false }
            var spec = timespec(tv_sec: 0, tv_nsec: 500_000)
            nanosleep(&spec, nil)
        }
        reapGraveyard()
        return true
    }

    /// Disposes the units of removed nodes that no plan in use refers to any more.
    func reapGraveyard() {
        let adopted = renderer.adoptedGeneration.load(ordering: .acquiring)
        renderer.collectRetiredPlans()
        guard !graveyard.isEmpty else { return }
        var kept: [(unit: AudioUnit, generation: Int)] = []
        for entry in graveyard {
            if entry.generation <= adopted { entry.unit.dispose() } else { kept.append(entry) }
        }
        graveyard = kept
    }

    /// Starts the graph (`AUGraphStart`): when its output node is an ``AudioOutputUnit`` (the
    /// JACK I/O unit), starts that unit, which renders the graph every period from then on;
    /// else marks the graph running for the application that renders it.
    /// - Thread: [control]
    public func start() throws(AudioUnitError) {
        try requireNotDisposed()
        guard isInitialized else { throw AudioUnitError(.uninitialized, "start: the graph is not initialized") }
        try outputDevice?.start()
        isRunning = true
    }

    /// Stops the graph (`AUGraphStop`): stops its output node when that is an
    /// ``AudioOutputUnit`` (the JACK I/O unit fades out and deactivates its client); when it
    /// returns, the device renders the graph no more.
    /// - Thread: [control]
    public func stop() {
        outputDevice?.stop()
        isRunning = false
    }

    /// The output node's unit when it drives a device.
    private var outputDevice: AudioOutputUnit? {
        guard let output = model.outputNode else { return nil }
        return model.nodes[output]?.unit as? AudioOutputUnit
    }

    /// Stops the graph (its output device first: see ``stop()``), stops rendering (waits for
    /// a render in progress), frees the plans and uninitializes every unit
    /// (`AUGraphUninitialize`); so no unit is freed while a device renders the graph. Edits
    /// are kept; ``initialize()`` compiles again.
    /// - Thread: [control]
    public func uninitialize() {
        RenderThread.assertNotCurrent("AudioGraph.uninitialize")
        guard isInitialized else { return }
        stop()
        parameterTargets.publish(nil)
        renderer.disable()
        for entry in graveyard { entry.unit.dispose() }
        graveyard.removeAll()
        for node in model.order { model.nodes[node]?.unit?.uninitialize() }
        reuse = PlanCompiler.Reuse()
        workerPool = nil
        pipelineDelay = nil
        payoffBaseline = nil
        isInitialized = false
        hasPendingEdits = true
    }

    /// Uninitializes and disposes every unit (`AUGraphClose`); the nodes stay and ``open()``
    /// makes new units for them (from the registry).
    /// - Thread: [control]
    public func close() {
        uninitialize()
        for node in model.order {
            model.nodes[node]?.unit?.dispose()
            model.nodes[node]?.unit = nil
        }
        isOpen = false
    }

    /// Closes the graph and forgets every node (`DisposeAUGraph`); every later call fails.
    /// - Thread: [control]
    public func dispose() {
        guard !isDisposed else { return }
        close()
        model = GraphModel()
        runtimes.removeAll()
        isDisposed = true
    }
}
