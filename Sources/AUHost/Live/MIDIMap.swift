import AUCore
import AUEngine
import AUPresets
import Synchronization

/// MIDI control of a running chain's parameters (mod-host's `midi_map`, Carla's CC
/// mapping): each mapping moves one node's parameter when its CC, pitch bend or note
/// arrives at the graph's MIDI input, at that event's frame, along its curve; program
/// change N recalls the preset's Nth snapshot (``recall(_:)`` by name), ramped. Attaching a
/// map gives the graph a MIDI input (a JACK chain then has `midi_in` even with effects
/// only). ``learn(_:)`` maps the next control change that moves; ``unlearn(_:)`` removes.
///
/// ```swift
/// let map = try MIDIMap(chain: chain, mappings: loaded.midiMap)   // attaches it
/// try map.learn("amp.drive")           // … a CC moves …
/// if let learnt = map.takeLearned() { print(learnt.mapping.source) }
/// ```
/// - Thread: [control]
public final class MIDIMap: @unchecked Sendable {
    /// The chain it moves.
    public let chain: ChainGraph
    /// The mappings in force, in the order they were made.
    public private(set) var mappings: [LoadedMIDIMapping] = []
    /// The `NODE.PARAM` a learn waits for a control change to map, if any.
    public private(set) var learning: String?
    private let scheduler: MIDIMapScheduler
    /// Parallel to ``mappings``: each one's slot in the render table.
    private var slots: [Int] = []
    /// The snapshots, in preset order (program change N recalls the Nth, from 0).
    public let snapshots: [PresetSnapshot]
    /// The render table's slots the snapshots' values take (the top of the table).
    private let usedBySnapshots: Set<Int>

    /// Attaches a map with `mappings` to `chain`'s graph (as its MIDI scheduler, wrapping
    /// one attached before, such as a song's player) and brings the plan up to date.
    /// - Thread: [control]
    public init(chain: ChainGraph, mappings: [LoadedMIDIMapping], snapshots: [LoadedSnapshot] = []) throws(AudioUnitError) {
        self.chain = chain
        self.snapshots = snapshots.map(\.snapshot)
        scheduler = MIDIMapScheduler(wrapping: chain.graph.midiScheduler)
        // The snapshots' values take the top of the table, mappings the rest.
        var entries: [MIDIMapEntry] = []
        for (index, snapshot) in snapshots.enumerated() {
            for value in snapshot.values {
                entries.append(MIDIMapEntry(
                    snapshot: index, value: value.parameter, unit: chain.nodes[value.nodeIndex].unit,
                    ramp: snapshot.snapshot.ramp ?? PresetSnapshot.defaultRamp, sampleRate: chain.sampleRate))
            }
        }
        guard entries.count <= MIDIMapScheduler.capacity / 2 else {
            throw AudioUnitError(.invalidPropertyValue, "snapshots hold at most \(MIDIMapScheduler.capacity / 2) values in all, not \(entries.count)")
        }
        usedBySnapshots = Set((MIDIMapScheduler.capacity - entries.count)..<MIDIMapScheduler.capacity)
        for (offset, entry) in entries.enumerated() { try send(MIDIMapScheduler.capacity - 1 - offset, entry) }
        for mapping in mappings { try add(mapping) }
        try chain.graph.setMIDIScheduler(scheduler)
        try chain.graph.update()
    }

    /// Detaches the map, putting back the scheduler it wrapped.
    /// - Thread: [control]
    public func detach() {
        guard chain.graph.midiScheduler === scheduler else { return }
        try? chain.graph.setMIDIScheduler(scheduler.wrapped)
        try? chain.graph.update()
    }

    /// The mappings as a preset's `midiMap` writes them.
    /// - Thread: [control]
    public var presetMappings: [PresetMIDIMapping] { mappings.map(\.mapping) }

    /// Checks `mapping` against the chain's units (``LoadedMIDIMapping``), or says why not.
    /// - Thread: [control]
    public func resolve(_ mapping: PresetMIDIMapping) throws(ParameterIssue) -> LoadedMIDIMapping {
        try LoadedMIDIMapping(mapping, nodes: chain.nodes.map { (id: $0.id, unit: $0.unit) })
    }

    /// Adds a mapping, in force from the next cycle. A mapping of the same control and
    /// channel to the same parameter replaces it.
    /// - Thread: [control]
    public func add(_ mapping: LoadedMIDIMapping) throws(AudioUnitError) {
        if let index = mappings.firstIndex(where: { $0.mapping.source == mapping.mapping.source && $0.mapping.channel == mapping.mapping.channel && $0.mapping.parameter == mapping.mapping.parameter }) {
            try remove(at: index)
        }
        guard let slot = (0..<MIDIMapScheduler.capacity).first(where: { !slots.contains($0) && !usedBySnapshots.contains($0) }) else {
            throw AudioUnitError(.invalidPropertyValue, "a chain has at most \(MIDIMapScheduler.capacity - usedBySnapshots.count) MIDI mappings")
        }
        guard let node = chain.nodes.first(where: { $0.id == mapping.mapping.node }) else {
            throw AudioUnitError(.invalidElement, "the chain has no node '\(mapping.mapping.node)'")
        }
        try send(slot, MIDIMapEntry(mapping, unit: node.unit, sampleRate: chain.sampleRate))
        mappings.append(mapping)
        slots.append(slot)
    }

    /// Removes every mapping of `parameter` (`NODE.PARAM`, as mapped); returns how many.
    /// - Thread: [control]
    @discardableResult
    public func remove(parameter: String) throws(AudioUnitError) -> Int {
        var removed = 0
        while let index = mappings.firstIndex(where: { Self.same($0, parameter) }) {
            try remove(at: index)
            removed += 1
        }
        return removed
    }

    /// Arms learning: the next control change the graph's MIDI input takes is mapped to
    /// `parameter` (`NODE.PARAM`) over its whole range (``takeLearned()`` makes the mapping).
    /// - Thread: [control]
    public func learn(_ parameter: String) throws(ParameterIssue) {
        _ = try resolve(PresetMIDIMapping(source: .controlChange(0), parameter: parameter))
        learning = parameter
        scheduler.learned.store(0, ordering: .relaxed)
        scheduler.isLearning.store(true, ordering: .releasing)
    }

    /// Stops a learn that no control change answered.
    /// - Thread: [control]
    public func cancelLearning() {
        scheduler.isLearning.store(false, ordering: .relaxed)
        learning = nil
    }

    /// The mapping a learn made, once a control change answered it (then in force), else nil.
    /// - Thread: [control]
    public func takeLearned() -> LoadedMIDIMapping? {
        guard let parameter = learning else { return nil }
        let learned = scheduler.learned.exchange(0, ordering: .acquiring)
        guard learned != 0 else { return nil }
        learning = nil
        let mapping = PresetMIDIMapping(source: .controlChange(learned & 0x7F), channel: (learned >> 8 & 0x0F) + 1, parameter: parameter)
        guard let resolved = try? resolve(mapping), (try? add(resolved)) != nil else { return nil }
        return resolved
    }

    /// Recalls the snapshot named `name` (ramped, from the next cycle), as program change N
    /// does for the Nth; its index, or nil when the preset has none of that name.
    /// - Thread: [control]
    @discardableResult
    public func recall(_ name: String) -> Int? {
        guard let index = snapshots.firstIndex(where: { $0.name == name }) else { return nil }
        scheduler.requestedSnapshot.store(index, ordering: .releasing)
        return index
    }

    /// The snapshot recalled last (by a program change or ``recall(_:)``), if any.
    /// - Thread: [control]
    public var recalledSnapshot: PresetSnapshot? {
        let index = scheduler.recalledSnapshot.load(ordering: .relaxed)
        return snapshots.indices.contains(index) ? snapshots[index] : nil
    }

    /// Whether a program change asks for a preset of a bank (``takeProgramChange()``)
    /// instead of recalling the Nth snapshot (`auhost run --bank`); snapshots are then
    /// recalled by name only.
    /// - Thread: [control]
    public var programChangesOpenPresets: Bool {
        get { scheduler.programChangesOpenPresets.load(ordering: .relaxed) }
        set { scheduler.programChangesOpenPresets.store(newValue, ordering: .relaxed) }
    }

    /// The program the last program change asked for while ``programChangesOpenPresets``,
    /// once; nil when none came since the last call.
    /// - Thread: [control]
    public func takeProgramChange() -> Int? {
        let program = scheduler.requestedProgram.exchange(-1, ordering: .acquiring)
        return program >= 0 ? program : nil
    }

    /// How many parameter moves MIDI made since the map was attached.
    /// - Thread: [control]
    public var moveCount: Int { scheduler.moveCount.load(ordering: .relaxed) }

    private func remove(at index: Int) throws(AudioUnitError) {
        try send(slots[index], MIDIMapEntry())
        mappings.remove(at: index)
        slots.remove(at: index)
    }

    private func send(_ slot: Int, _ entry: MIDIMapEntry) throws(AudioUnitError) {
        guard scheduler.edits.push(MIDIMapScheduler.Edit(slot: Int32(slot), entry: entry)) else {
            throw AudioUnitError(.cannotDoInCurrentContext, "the render thread has not taken the last MIDI map changes yet; try again")
        }
    }

    /// Whether `loaded` maps `parameter` (its node and key as written, or the parameter's identifier).
    private static func same(_ loaded: LoadedMIDIMapping, _ parameter: String) -> Bool {
        let probe = PresetMIDIMapping(source: .pitchBend, parameter: parameter)
        return loaded.mapping.parameter == parameter
            || (loaded.mapping.node == probe.node && (loaded.info.identifier == probe.parameterKey || loaded.mapping.parameterKey == probe.parameterKey))
    }
}
