import AUCore

/// MIDI between units (AVAudioEngine's `connectMIDI`): MIDI connections between nodes and
/// the graph's own MIDI input and output, made and broken like audio connections (also
/// while the graph runs, through ``update()``), and taking part in the render order.
extension AudioGraph {
    /// Sends what `source` sends to `destination`, through `channels`. Either end may be the
    /// graph's MIDI input or output. A source may feed several destinations and a
    /// destination take several sources. Whether the units send and take MIDI, and that
    /// MIDI connections make no cycle, is checked by ``initialize()`` / ``update()``.
    /// - Thread: [control]
    public func connectMIDI(_ source: MIDIEndpoint, to destination: MIDIEndpoint, channels: MIDIChannelMap = .all) throws(AudioUnitError) {
        try requireNotDisposed()
        guard source != .graphOutput else { throw AudioUnitError(.invalidPropertyValue, "the graph's MIDI output cannot be a MIDI source") }
        guard destination != .graphInput else { throw AudioUnitError(.invalidPropertyValue, "the graph's MIDI input cannot be a MIDI destination") }
        if let node = source.node { _ = try model.node(node) }
        if let node = destination.node { _ = try model.node(node) }
        if let node = source.node, source == destination {
            throw AudioUnitError(.invalidPropertyValue, "cannot send the MIDI of \(model.label(node)) to itself: that is a cycle")
        }
        if let target = channels.target, !(1...16).contains(target) {
            throw AudioUnitError(.invalidPropertyValue, "MIDI channel \(target) is not in 1...16")
        }
        guard !model.midiConnections.contains(where: { $0.source == source && $0.destination == destination }) else {
            throw AudioUnitError(.invalidPropertyValue, "\(PlanCompiler.describe(source, in: model)) already sends MIDI to \(PlanCompiler.describe(destination, in: model))")
        }
        model.midiConnections.append(MIDIConnection(source: source, destination: destination, channels: channels))
        markEdited()
    }

    /// Removes the MIDI connection from `source` to `destination`.
    /// - Thread: [control]
    public func disconnectMIDI(_ source: MIDIEndpoint, from destination: MIDIEndpoint) throws(AudioUnitError) {
        try requireNotDisposed()
        guard Self.removeAll(from: &model.midiConnections, where: { $0.source == source && $0.destination == destination }) else {
            throw AudioUnitError(.noConnection, "\(PlanCompiler.describe(source, in: model)) sends no MIDI to \(PlanCompiler.describe(destination, in: model))")
        }
        markEdited()
    }

    /// The MIDI connections made, in order.
    /// - Thread: [control]
    public var midiConnections: [MIDIConnection] { model.midiConnections }

    /// The MIDI connections the current plan routes: those made, plus the graph's MIDI
    /// input to each node that takes MIDI and has no source, when no connection starts at
    /// the graph's input. Empty before ``initialize()``.
    /// - Thread: [control]
    public var routedMIDIConnections: [MIDIConnection] { report.midiConnections }

    /// Whether anything reaches the graph's MIDI input (a driver then opens a MIDI input).
    /// - Thread: [control]
    public var takesMIDIInput: Bool {
        if model.midiScheduler?.readsGraphInput == true { return true }
        guard let routes = try? PlanCompiler.midiRoutes(model, order: model.order) else { return false }
        return routes.contains { $0.source == .graphInput }
    }

    /// Whether something feeds the graph's MIDI output (a driver then opens a MIDI output).
    /// - Thread: [control]
    public var sendsMIDIOutput: Bool {
        model.midiConnections.contains { $0.destination == .graphOutput } || model.midiScheduler?.sendsToGraphOutput == true
    }

    /// Attaches `scheduler` (nil detaches it): from the next plan on (``initialize()`` or
    /// ``update()``), it sends MIDI to the nodes at the top of every cycle, as a MusicPlayer
    /// given this graph (`MusicSequenceSetAUGraph`) does. Every node that takes MIDI can then
    /// be sent some, whatever its MIDI connections.
    /// - Thread: [control]
    public func setMIDIScheduler(_ scheduler: MIDIScheduler?) throws(AudioUnitError) {
        try requireNotDisposed()
        model.midiScheduler = scheduler
        markEdited()
    }

    /// The attached ``MIDIScheduler``, if any.
    /// - Thread: [control]
    public var midiScheduler: MIDIScheduler? { model.midiScheduler }

    /// Queues `event` for the graph's MIDI input in the next cycle, at its offset in that
    /// cycle (`MusicDeviceMIDIEvent` sent to the graph); false when the queue is full.
    /// - Thread: [control] (any thread but the render thread).
    @discardableResult
    public func sendMIDIEvent(_ event: MIDIEvent) -> Bool { renderer.controlMIDI.push(event) }

    /// What reached the graph's MIDI output in the last cycle, offsets within it.
    /// - Thread: [render], right after ``render(frameCount:timestamp:input:output:midi:)``.
    public var midiOutputFromRender: UnsafeBufferPointer<MIDIEvent> { renderer.midiOutputFromRender }
}
