import AUCore
import CAUSupport
import Foundation
import Glibc
import Synchronization

/// An isolated node's unit as the graph sees it: an ``AudioUnit`` with the real unit's
/// description, buses, parameters, properties and presets, whose render hands each cycle
/// to the unit in a child process (``UnitHostProcess``) through shared memory and waits for
/// it until a deadline (``BridgeRenderState``). Properties, state and presets go over the
/// child's socket on the control thread. When the child crashes, exits or hangs, the node
/// is silent and ``fault`` says what happened; ``reload()`` starts a new child and restores
/// the unit's last state and parameter values.
/// - Thread: [control], but ``process(_:)`` (render).
public final class BridgedUnit: AudioUnit, RunReportedLatency, @unchecked Sendable {
    /// The node's id, named in fault messages.
    public let node: String
    /// The unit as the preset names it (the child resolves it the same way).
    public let reference: String
    /// The child hosting the unit now (a new one after ``reload()``).
    /// - Thread: [control]
    public var host: UnitHostProcess { link.withLock { $0.host } }
    /// Whether the child renders its unit in offline mode (an LV2 worker runs at once), told at initialize.
    public var rendersOffline = false
    /// The block length the driver usually renders, told to an LV2 plugin in the child.
    public var nominalBlockLength: Int?
    /// The longest a cycle waits for the child, in seconds (live: half the period); nil: the
    /// child's ``UnitHostProcess/timeout`` (offline: a slow unit is waited for). Takes effect
    /// from the next cycle.
    /// - Thread: [control]
    public var cycleDeadline: Double? {
        didSet { current.withLock { $0.map(applyDeadline) } }
    }
    /// The SCHED_FIFO priority of the child's render thread (live: the JACK thread's); nil:
    /// the child's default scheduling. Takes effect at once when the unit renders.
    /// - Thread: [control]
    public var realtimePriority: Int32? {
        didSet { if state == .initialized, let realtimePriority { _ = try? send(.schedule) { $0.priority = realtimePriority } } }
    }
    /// Whether the unit's latency is known only once it has run (an LV2 plugin's latency
    /// port): the offline driver primes the chain with one silent cycle first.
    /// - Thread: [control]
    public var reportsLatencyWhenRun: Bool { latencySlot != nil }
    /// The latency its child's unit reported with its last cycle (its LV2 latency output,
    /// carried back with every reply), nil when it reports none that way.
    /// - Thread: [control]
    public var reportedLatency: Float? { latencySlot.map { parameters.value(at: $0) } }
    /// Seeds the latency output in this process's table, which the graph compiles with; the
    /// child's unit writes it back with its first cycle.
    /// - Thread: [control]
    public func seedReportedLatency(_ frames: Float) {
        guard let slot = latencySlot else { return }
        parameters.storeValue(frames, at: slot)
    }
    /// The output parameter that carries the latency back, nil when none does.
    private var latencySlot: Int? {
        if case .parameter(let slot) = shape.latencyReport { return slot }
        return nil
    }
    /// Whether the unit needs what the bridge does not carry yet (it sends MIDI):
    /// ``BridgeIsolator`` then runs it in the host's process.
    /// - Thread: [control]
    public var needsHostProcess: Bool { shape.producesMIDIOutput }

    private let shape: BridgeUnitShape
    private let hostMaker: @Sendable () throws(AudioUnitError) -> UnitHostProcess
    private let onFault: @Sendable (IsolationFault) -> Void
    private let link: Mutex<Link>
    /// The render state published now (control side's view), and the replaced ones, kept
    /// until uninitialize (a render may still hold one).
    private let current = Mutex<BridgeRenderState?>(nil)
    private var retired: [BridgeRenderState] = []
    /// The custom state last restored or saved and the property parameters set since: what
    /// ``reload()`` gives a new child.
    private var lastCustomState: Data?
    private var lastProperties: [(String, PropertyParameterValue)] = []
    private let faults = Mutex<(last: IsolationFault?, count: Int)>((nil, 0))
    /// The unit's factory presets, once asked for (``factoryPresets``).
    private let presets = Mutex<[UnitPreset]?>(nil)

    private struct Link {
        var host: UnitHostProcess
        var index: Int
    }

    /// Makes the unit `reference` (`component` in the host's registry) in the child `host`
    /// for node `node`; `hostMaker` starts a child for ``reload()``.
    /// - Thread: [control]
    public static func make(
        _ component: Component, node: String, reference: String, host: UnitHostProcess,
        hostMaker: @escaping @Sendable () throws(AudioUnitError) -> UnitHostProcess,
        onFault: @escaping @Sendable (IsolationFault) -> Void
    ) throws(AudioUnitError) -> BridgedUnit {
        let (index, shape) = try instantiate(reference, in: host, component: component)
        let unit = BridgedUnit(component.description, node: node, reference: reference, shape: shape, host: host, index: index, hostMaker: hostMaker, onFault: onFault)
        host.attach(unit, at: index)
        return unit
    }

    private static func instantiate(_ reference: String, in host: UnitHostProcess, component: Component) throws(AudioUnitError) -> (Int, BridgeUnitShape) {
        let index = host.reserveUnit()
        var request = BridgeRequest(.instantiate, unit: index)
        request.reference = reference
        do throws(AudioUnitError) {
            guard let shape = try host.send(request).unit else { throw AudioUnitError(.failedInitialization, "its unit host described no unit") }
            return (index, shape)
        } catch {
            host.abandonUnit()
            throw AudioUnitError(error.code, "'\(component.name)' in its own process: \(error.message)")
        }
    }

    private init(
        _ description: ComponentDescription, node: String, reference: String, shape: BridgeUnitShape, host: UnitHostProcess, index: Int,
        hostMaker: @escaping @Sendable () throws(AudioUnitError) -> UnitHostProcess, onFault: @escaping @Sendable (IsolationFault) -> Void
    ) {
        self.node = node
        self.reference = reference
        self.shape = shape
        self.hostMaker = hostMaker
        self.onFault = onFault
        link = Mutex(Link(host: host, index: index))
        super.init(
            description: description, name: shape.name,
            inputs: shape.inputs.enumerated().map { .canonical(channels: $1, sampleRate: shape.sampleRate, name: "in \($0)") },
            outputs: shape.outputs.enumerated().map { .canonical(channels: $1, sampleRate: shape.sampleRate, name: "out \($0)") },
            parameters: shape.parameters.map(\.info))
    }

    deinit { link.withLock { $0.host.detach($0.index) } }

    // MARK: - Faults and counts

    /// The last fault (crash, exit, hang), nil while there was none (or since ``reload()``).
    /// - Thread: [any]
    public var fault: IsolationFault? { faults.withLock { $0.last } }

    /// How many times the node's child ended by itself or was killed.
    /// - Thread: [any]
    public var faultCount: Int { faults.withLock { $0.count } }

    /// The node's cycles through the child so far: how many, how many were late (silent),
    /// the round trip's mean and longest time in microseconds (in a run, from the reply of
    /// the unit before it), and how many it rendered in a run (one hand-over for the run).
    /// - Thread: [any]
    public var renderStatistics: IsolatedRenderStatistics {
        current.withLock { state in
            guard let state else { return IsolatedRenderStatistics() }
            let cycles = state.cycles.load(ordering: .relaxed)
            return IsolatedRenderStatistics(
                cycles: Int(cycles), lateCycles: Int(state.lateCycles.load(ordering: .relaxed)),
                meanMicroseconds: cycles == 0 ? 0 : Double(state.totalNanos.load(ordering: .relaxed)) / Double(cycles) / 1000,
                maximumMicroseconds: Double(state.maximumNanos.load(ordering: .relaxed)) / 1000,
                runCycles: Int(state.runCycles.load(ordering: .relaxed)))
        }
    }

    /// The monitor: the child ended (crashed, exited, killed); the node goes silent.
    func childEnded(_ reason: String) {
        let fault = IsolationFault(node: node, unitName: name, what: reason)
        faults.withLock { $0 = (fault, $0.count + 1) }
        current.withLock { state in
            guard let state else { return }
            state.ended.store(true, ordering: .relaxed)
            au_bridge_abort(state.region.header)
        }
        onFault(fault)
    }

    /// When the node's unanswered cycle was posted (0: none), for the monitor.
    var outstandingRequestNanos: UInt64 { current.withLock { $0?.outstandingRequestNanos ?? 0 } }

    /// Starts a new child for the unit and gives it the last custom state and the current
    /// parameter values (the host's table holds them); an initialized node renders through
    /// it from the next cycle. The old child, if still running, is ended.
    /// - Thread: [control]
    public func reload() throws(AudioUnitError) {
        let fresh = try hostMaker()
        let (index, _) = try Self.instantiate(reference, in: fresh, component: component)
        let old = link.withLock { link -> Link in
            defer { link = Link(host: fresh, index: index) }
            return link
        }
        // The old render state stays published (silent) until the new one replaces it, but
        // is no longer this unit's: the new child's monitor must not time its old cycle.
        current.withLock { state in
            if let state { retired.append(state) }
            state = nil
        }
        fresh.attach(self, at: index)
        old.host.detach(old.index)
        // The host's table holds the parameters' last values: they win over the state's.
        let values = parameters.currentValues
        if let lastCustomState { try restoreCustomState(lastCustomState) }
        for (identifier, value) in lastProperties { try setPropertyParameter(identifier, to: value) }
        for (index, value) in values.enumerated() where !parameters.infos[index].isOutput { parameters.storeValue(value, at: index) }
        if state == .initialized { try startRendering() }
        faults.withLock { $0.last = nil }
    }

    private var component: Component {
        Component(description: componentDescription, name: name, manufacturerName: "", version: "", format: .builtin, identifier: reference) { () throws(AudioUnitError) -> AudioUnit in
            throw AudioUnitError(.unsupportedType, "a bridge's own description")
        }
    }

    // MARK: - Control requests

    /// Sends `operation` to the unit's child without waiting for the reply
    /// (``UnitHostProcess/post(_:)``): for what the host cannot act on if it fails.
    private func post(_ operation: BridgeRequest.Operation) {
        let (host, index) = link.withLock { ($0.host, $0.index) }
        host.post(BridgeRequest(operation, unit: index))
    }

    private func send(_ operation: BridgeRequest.Operation, _ fill: (inout BridgeRequest) -> Void = { _ in }) throws(AudioUnitError) -> BridgeReply {
        let (host, index) = link.withLock { ($0.host, $0.index) }
        var request = BridgeRequest(operation, unit: index)
        fill(&request)
        do throws(AudioUnitError) {
            let reply = try host.send(request)
            if let values = reply.values {
                for (index, value) in values.enumerated() where index < parameters.count { parameters.storeValue(value, at: index) }
            }
            return reply
        } catch {
            throw AudioUnitError(error.code, "'\(node)' (\(name)): \(error.message)")
        }
    }

    /// - Thread: [control]
    public override var acceptsMIDIInput: Bool { shape.acceptsMIDIInput }
    /// - Thread: [control]
    public override var rendersWholeCycles: Bool { shape.rendersWholeCycles }
    /// - Thread: [control]
    public override var parametersHoldCustomState: Bool { shape.parametersHoldCustomState }
    /// - Thread: [control]
    public override var latency: Double {
        switch shape.latencyReport {
        case .fixed: return shape.latency
        case .parameter(let index): return Double(parameters.value(at: index)) / ((try? value(of: .sampleRate)) ?? shape.sampleRate)
        case .asked: return (try? send(.timing).latency) ?? shape.latency
        }
    }
    /// - Thread: [control]
    public override var tailTime: Double { (try? send(.timing).tail) ?? shape.tail }
    /// - Thread: [control]
    public override var factoryPresets: [UnitPreset] {
        if let listed = presets.withLock({ $0 }) { return listed }
        guard let listed = try? send(.factoryPresets).presets?.map({ UnitPreset(number: $0.number, name: $0.name) }) else { return [] }
        presets.withLock { $0 = listed }
        return listed
    }
    /// - Thread: [control]
    public override var propertyParameters: [PropertyParameterInfo] { shape.properties.compactMap(\.info) }

    /// - Thread: [control]
    public override func applyFactoryPreset(_ preset: UnitPreset) throws(AudioUnitError) {
        _ = try send(.applyFactoryPreset) { $0.preset = preset.number }
    }

    /// - Thread: [control]
    public override func saveCustomState() throws(AudioUnitError) -> Data? {
        let data = try send(.saveCustomState) { $0.stateFolder = stateFolder?.path }.data
        if let data {
            lastCustomState = data
            lastProperties.removeAll()
        }
        return data
    }

    /// - Thread: [control]
    public override func restoreCustomState(_ data: Data) throws(AudioUnitError) {
        _ = try send(.restoreCustomState) { $0.data = data; $0.stateFolder = stateFolder?.path }
        lastCustomState = data
        lastProperties.removeAll()
    }

    /// - Thread: [control]
    public override func setPropertyParameter(_ identifier: String, to value: PropertyParameterValue) throws(AudioUnitError) {
        _ = try send(.setPropertyParameter) { $0.property = identifier; $0.value = BridgeValue(value) }
        lastProperties.removeAll { $0.0 == identifier }
        lastProperties.append((identifier, value))
    }

    /// - Thread: [control]
    public override func propertyParameterValue(_ identifier: String) -> PropertyParameterValue? {
        (try? send(.propertyParameterValue) { $0.property = identifier })?.value?.value
    }

    /// - Thread: [control]
    public override func resetState() {
        _ = try? send(.reset)
    }

    // MARK: - Life cycle

    /// - Thread: [control]
    public override func allocateRenderResources() throws(AudioUnitError) {
        try startRendering()
    }

    /// Maps new shared memory for the unit's shape and has the child initialize its unit
    /// over it and start its render thread; publishes the render state.
    private func startRendering() throws(AudioUnitError) {
        let inputs = try (0..<elementCount(.input)).map { (bus: Int) throws(AudioUnitError) -> Int in try busConfiguration(scope: .input, element: bus).format.channelsPerFrame }
        let outputs = try (0..<elementCount(.output)).map { (bus: Int) throws(AudioUnitError) -> Int in try busConfiguration(scope: .output, element: bus).format.channelsPerFrame }
        let frames = try value(of: .maximumFramesPerSlice)
        let rate = outputs.isEmpty ? try value(of: .sampleRate) : try busConfiguration(scope: .output, element: 0).format.sampleRate
        let size = BridgeRegion.size(parameterCount: parameters.count, inputChannels: inputs, outputChannels: outputs, maximumFrames: frames)
        let descriptor = au_bridge_memfd("auhost-bridge", size)
        guard descriptor >= 0 else { throw AudioUnitError(.failedInitialization, "'\(node)': cannot make shared memory: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard let region = BridgeRegion(descriptor: descriptor, parameterCount: parameters.count, inputChannels: inputs, outputChannels: outputs, maximumFrames: frames) else {
            throw AudioUnitError(.failedInitialization, "'\(node)': cannot map shared memory: \(String(cString: strerror(errno)))")
        }
        _ = try send(.initialize) { request in
            request.sampleRate = rate
            request.maximumFrames = frames
            request.nominalFrames = nominalBlockLength
            request.offline = rendersOffline
            request.inputChannels = inputs
            request.outputChannels = outputs
            request.memoryFD = descriptor
            request.memorySize = size
            request.values = parameters.currentValues
        }
        let state = BridgeRenderState(region: region, doorbell: host.doorbell, parameters: parameters, unitIndex: link.withLock { $0.index })
        applyDeadline(state)
        if let realtimePriority { _ = try? send(.schedule) { $0.priority = realtimePriority } }
        current.withLock { current in
            if let current { retired.append(current) }
            current = state
        }
        backendRenderState.publish(state)
    }

    /// The host spins for a reply this long before it sleeps, and on while the child renders
    /// the request up to ``longestHostSpin`` (each a quarter of the deadline if shorter).
    public static let hostSpin = 60e-6
    public static let longestHostSpin = 2e-3

    /// Gives `state` the deadline and the spins of ``cycleDeadline`` (nil: the timeout).
    private func applyDeadline(_ state: BridgeRenderState) {
        let deadline = cycleDeadline ?? host.timeout
        state.deadlineNanos.store(UInt64(deadline * 1e9), ordering: .relaxed)
        state.spinNanos.store(UInt64(min(deadline / 4, Self.hostSpin) * 1e9), ordering: .relaxed)
        state.longestSpinNanos.store(UInt64(min(deadline / 4, Self.longestHostSpin) * 1e9), ordering: .relaxed)
        host.doorbell.spin = host.childSpin
    }

    /// - Thread: [control]
    public override func deallocateRenderResources() {
        backendRenderState.publish(nil)
        // A child that left a cycle unanswered may still be stuck in it: it takes no new unit.
        if current.withLock({ ($0?.lateCycles.load(ordering: .relaxed) ?? 0) > 0 }) { host.refuseUnits() }
        post(.uninitialize)
        current.withLock { current in current = nil }
        retired.removeAll()
    }

    /// - Thread: [control]
    public override func disposeResources() {
        post(.dispose)
        link.withLock { $0.host.detach($0.index) }
    }

    /// - Thread: [render] No allocation, no lock: one wake of the child and one wait for it.
    public override func process(_ context: ProcessContext) -> AudioUnitStatus {
        guard let published = publishedRenderState else { return AudioUnitErrorCode.uninitialized.rawValue }
        return published._withUnsafeGuaranteedRef { $0.render(context, of: self) }
    }

    /// The render state published to the render thread, unretained (nil: not initialized).
    /// - Thread: [render]
    var publishedRenderState: Unmanaged<BridgeRenderState>? { backendRenderState.reference(as: BridgeRenderState.self) }

    /// Whether `next` is an isolated unit of this unit's child, one input and one output bus
    /// each, whose input has as many channels as this unit's output.
    /// - Thread: [control]
    public override func rendersInRun(with next: AudioUnit) -> Bool {
        guard let next = next as? BridgedUnit, next.host === host, elementCount(.input) == 1, elementCount(.output) == 1,
              next.elementCount(.input) == 1, next.elementCount(.output) == 1,
              let produced = try? busConfiguration(scope: .output, element: 0).format.channelsPerFrame,
              let read = try? next.busConfiguration(scope: .input, element: 0).format.channelsPerFrame else { return false }
        return produced == read
    }

    /// - Thread: [control]
    public override func makeRun(followedBy followers: [AudioUnit]) -> UnitRun? {
        let units = [self] + followers.compactMap { $0 as? BridgedUnit }
        guard units.count == followers.count + 1, units.count > 1 else { return nil }
        return BridgeRun(units)
    }
}

/// An isolated node's cycles through its child (live `status`).
/// - Thread: [any]
public struct IsolatedRenderStatistics: Sendable, Equatable {
    public var cycles = 0
    public var lateCycles = 0
    public var meanMicroseconds = 0.0
    public var maximumMicroseconds = 0.0
    /// Cycles rendered in a run with the isolated nodes beside it in its child.
    public var runCycles = 0
}

/// What became of an isolated node's child: the node, its unit, what happened.
/// - Thread: [any]
public struct IsolationFault: Sendable, Equatable, CustomStringConvertible {
    public var node: String
    public var unitName: String
    /// `crashed in render (SIGSEGV)`, `exited with status 0 in render`, `hung in render (…; killed)`.
    public var what: String

    /// `'amp' (Guitarix Amp) crashed in render (SIGSEGV); silenced`.
    /// - Thread: [any]
    public var description: String { "'\(node)' (\(unitName)) \(what); silenced" }

    /// The live line: the description and how to bring the node back.
    /// - Thread: [any]
    public var liveLine: String { description + "; 'reload \(node)' brings it back" }
}
