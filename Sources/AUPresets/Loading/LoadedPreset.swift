import AUCore
import Foundation

/// A preset checked against the registry, with one configured instance per node, ready
/// for the graph builder: add ``LoadedNode/unit`` for each node, then make each of
/// ``connections``. Nothing has rendered yet.
///
/// The instances belong to whoever builds the graph with them; call ``dispose()`` when
/// they are not used. For another graph of the same chain (`--jobs N`), ``makeUnits()``
/// makes fresh instances set up the same way.
/// - Thread: [control]
public struct LoadedPreset: Sendable {
    /// The file as the user named it.
    public let file: String
    /// The preset as loaded, with the `--set` overrides merged into its nodes' parameters.
    public let preset: ChainPreset
    /// In file order.
    public let nodes: [LoadedNode]
    /// Every connection, the `chain` form expanded; in file order.
    public let connections: [LoadedConnection]
    /// Every MIDI connection: those a `chain` implies, then the `midi` list's.
    public let midiConnections: [LoadedMIDIConnection]
    /// Where a MIDI file's tracks play (the `tracks` object): track number from 1 to a node
    /// (bus 0) or the graph's MIDI output.
    public let trackDestinations: [Int: LoadedEndpoint]
    /// The `midiMap`, checked against the nodes' units.
    public var midiMap: [LoadedMIDIMapping] = []
    /// The `snapshots`, checked against the nodes' units, in file order.
    public var snapshots: [LoadedSnapshot] = []

    /// The node with this id, if any.
    /// - Thread: [control]
    public func node(id: String) -> LoadedNode? { nodes.first { $0.id == id } }

    /// The node index of an id, if any (``LoadedEndpoint/node(_:bus:)`` uses indexes).
    /// - Thread: [control]
    public func index(of id: String) -> Int? { nodes.firstIndex { $0.id == id } }

    /// Fresh instances of every node, set up as the loaded ones were, in node order.
    /// - Thread: [control]
    public func makeUnits() throws(PresetError) -> [AudioUnit] {
        var units: [AudioUnit] = []
        for (index, node) in nodes.enumerated() {
            do {
                units.append(try node.makeUnit())
            } catch {
                units.forEach { $0.dispose() }
                throw PresetError([PresetProblem(
                    .unitUnavailable, file: file, path: JSONPath.root.key("nodes").index(index).description,
                    message: "'\(node.component.name)' could not be made again: \(error.message)")])
            }
        }
        return units
    }

    /// Disposes every node's instance (when no graph took them).
    /// - Thread: [control]
    public func dispose() {
        for node in nodes { node.unit.dispose() }
    }
}
