import AUCore
import Foundation

/// A preset checked against the registry, with one configured instance per node, ready
/// for the graph builder: add ``LoadedNode/unit`` for each node, then make each of
/// ``connections``. Nothing has rendered yet.
///
/// The instances belong to whoever builds the graph with them; call ``dispose()`` when
/// they are not used. For another graph of the same chain (`--jobs N`), ``makeUnits()``
/// makes fresh instances set up the same way.
/// - Thread: control.
public struct LoadedPreset: Sendable {
    /// The file as the user named it.
    public let file: String
    /// The preset as loaded, with the `--set` overrides merged into its nodes' parameters.
    public let preset: ChainPreset
    /// In file order.
    public let nodes: [LoadedNode]
    /// Every connection, the `chain` form expanded; in file order.
    public let connections: [LoadedConnection]

    /// The node with this id, if any.
    public func node(id: String) -> LoadedNode? { nodes.first { $0.id == id } }

    /// The node index of an id, if any (``LoadedEndpoint/node(_:bus:)`` uses indexes).
    public func index(of id: String) -> Int? { nodes.firstIndex { $0.id == id } }

    /// Fresh instances of every node, set up as the loaded ones were, in node order.
    /// - Thread: control.
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
    /// - Thread: control.
    public func dispose() {
        for node in nodes { node.unit.dispose() }
    }
}

/// One node of a loaded preset: its id, the component it resolved to, the configured
/// instance, and the settings that configured it.
/// - Thread: control.
public struct LoadedNode: Sendable {
    public let id: String
    /// The reference the file used (`aufx:ipeq:AUHs`, `lv2:…`, a name).
    public let reference: String
    public let component: Component
    /// Uninitialized, with ``settings`` applied.
    public let unit: AudioUnit
    public let settings: NodeSettings

    /// A fresh instance of the component with ``settings`` applied.
    /// - Thread: control.
    public func makeUnit() throws(AudioUnitError) -> AudioUnit {
        let unit = try component.instantiate()
        do {
            try settings.apply(to: unit)
        } catch {
            unit.dispose()
            throw error
        }
        return unit
    }
}

/// The checked settings of a node, in the order they are applied: bus counts, the saved
/// state, the factory preset, the parameters, bypass.
/// - Thread: control.
public struct NodeSettings: Sendable {
    /// Bus counts changed so the connections fit (a mixer's inputs, a splitter's outputs).
    public var elementCounts: [Scope: Int] = [:]
    public var factoryPreset: UnitPreset?
    /// `ClassInfo` to restore.
    public var state: Data?
    /// The file's parameters, then the overrides, each checked against the unit.
    public var parameters: [ResolvedParameter] = []
    public var isBypassed = false

    public init() {}

    /// Applies the settings to an uninitialized unit of the same component.
    /// - Thread: control.
    public func apply(to unit: AudioUnit) throws(AudioUnitError) {
        for scope in [Scope.input, .output] {
            if let count = elementCounts[scope] { try unit.setValue(count, for: .elementCount, scope: scope) }
        }
        if let state { try unit.setValue(state, for: .classInfo) }
        if let factoryPreset { try unit.setValue(factoryPreset, for: .presentPreset) }
        for parameter in parameters { try parameter.apply(to: unit) }
        if isBypassed { try unit.setValue(true, for: .bypassEffect) }
    }
}

/// A parameter value checked against the unit's ``ParameterInfo``.
/// - Thread: any (a plain value).
public struct ResolvedParameter: Hashable, Sendable {
    /// The key as written (LV2 symbol or native identifier).
    public var key: String
    public var info: ParameterInfo
    public var value: Float

    public init(key: String, info: ParameterInfo, value: Float) {
        self.key = key
        self.info = info
        self.value = value
    }

    /// Sets the value on a unit (at once, listeners told).
    /// - Thread: control.
    public func apply(to unit: AudioUnit) throws(AudioUnitError) {
        try unit.setParameter(info.id, value: value, scope: info.address.scope, element: info.address.element)
    }
}

/// One end of a loaded connection.
/// - Thread: any (a plain value).
public enum LoadedEndpoint: Hashable, Sendable {
    /// Where audio enters the graph (the input file, the JACK inputs).
    case graphInput(bus: Int)
    /// Where audio leaves the graph.
    case graphOutput(bus: Int)
    /// A bus of ``LoadedPreset/nodes``[index]: an output bus as a source, an input bus as a destination.
    case node(Int, bus: Int)
}

/// An output bus feeding an input bus, checked: the nodes exist, the buses exist, each
/// input is fed once, and the graph has no cycle.
/// - Thread: any (a plain value).
public struct LoadedConnection: Hashable, Sendable {
    public var source: LoadedEndpoint
    public var destination: LoadedEndpoint
    public init(source: LoadedEndpoint, destination: LoadedEndpoint) {
        self.source = source
        self.destination = destination
    }
}
