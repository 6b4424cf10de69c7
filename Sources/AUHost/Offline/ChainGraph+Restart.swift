import AUCore
import AUEngine
import AUNative
import AUPresets

extension ChainGraph {
    /// Whether resetting every unit (`AudioUnitReset`) starts this chain over as building it
    /// anew would, so that a long-lived ``ChainProcessor`` renders file after file on one
    /// graph: a series of native effects (`aufx`, `aumf` units of auhost_plugin.h, whose
    /// reset clears delay lines, envelopes and voices; each node fed by one connection and
    /// feeding one, so the graph holds no compensation delay), no MIDI connection, not
    /// pipelined (no slices in flight between stages) and no node muted by a fault.
    /// Anything else is built anew: a generator's, instrument's or MIDI processor's reset
    /// keeps what `Initialize` set up (a noise generator's seed, an arpeggiator's position),
    /// and an LV2 plugin's deactivate and activate do not always start it over (x42 fil4
    /// keeps its filters' state, swh sc4 its envelope, measured).
    /// - Thread: [control]
    var restartsByReset: Bool {
        guard loaded.midiConnections.isEmpty, graph.parallelDecision?.isPipelined != true else { return false }
        guard nodes.allSatisfy({ $0.unit is NativeUnit && [ComponentType.effect, ComponentType.musicEffect].contains($0.unit.componentDescription.type) }) else {
            return false
        }
        guard !nodes.contains(where: { graph.isFaulted($0.node) }) else { return false }
        var sources = Set<Int>(), destinations = Set<Int>()
        for connection in loaded.connections {
            if case .node(let index, _) = connection.source, !sources.insert(index).inserted { return false }
            if case .node(let index, _) = connection.destination, !destinations.insert(index).inserted { return false }
        }
        return true
    }

    /// Resets every unit of the graph, the format converters it put in included: delay
    /// lines, envelopes and ramps cleared, parameters kept.
    /// - Thread: [control]
    func resetUnits() throws(AudioUnitError) {
        for node in nodes { try node.unit.reset() }
        for converter in convertersInserted { try graph.unit(of: converter).reset() }
    }
}
