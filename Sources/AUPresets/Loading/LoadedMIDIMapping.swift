import AUCore

/// A `midiMap` entry checked against the chain's units: the node it moves (by index), the
/// parameter, and the value range its curve spans (the parameter's own when the entry gives
/// none). The one check preset files and a live `learn` go through.
/// - Thread: [control]
public struct LoadedMIDIMapping: Sendable {
    /// The entry as written (`learn` makes one too).
    public let mapping: PresetMIDIMapping
    /// The index of the node in the preset's `nodes`.
    public let nodeIndex: Int
    public let info: ParameterInfo
    /// The values at the control's lowest and highest positions.
    public let minimum: Float
    public let maximum: Float

    /// Checks `mapping` against `nodes` (ids and their units, in preset order): the node
    /// exists, the parameter is writable, the range lies within the parameter's and suits
    /// the curve. The issue's message names what was expected against what was found.
    /// - Thread: [control]
    public init(_ mapping: PresetMIDIMapping, nodes: [(id: String, unit: AudioUnit)]) throws(ParameterIssue) {
        guard let nodeIndex = nodes.firstIndex(where: { $0.id == mapping.node }) else {
            throw ParameterIssue(kind: .unknownNode, message: "unknown node \(quoted(mapping.node)); expected one of: \(listing(nodes.map(\.id)))")
        }
        let unit = nodes[nodeIndex].unit
        let writable = unit.parameters.infos.filter(\.isWritable).map(\.identifier)
        guard let info = unit.parameters.info(forKey: mapping.parameterKey) else {
            throw ParameterIssue(
                kind: .unknownParameter,
                message: "\(quoted(mapping.parameterKey)) is not a parameter of \(quoted(mapping.node)); expected \(writable.isEmpty ? "none: '\(unit.name)' has no parameters that can be set" : listing(writable))")
        }
        guard info.isWritable else {
            throw ParameterIssue(kind: .readOnlyParameter, message: "\(quoted(mapping.parameter)) is a read-only output; expected one of: \(listing(writable))")
        }
        let minimum = mapping.minimum.map(Float.init) ?? info.minValue
        let maximum = mapping.maximum.map(Float.init) ?? info.maxValue
        for (key, value) in [("min", minimum), ("max", maximum)] where !(value.isFinite && value >= info.minValue && value <= info.maxValue) {
            throw ParameterIssue(
                kind: .valueOutOfRange,
                message: "\(key) \(formatNumber(value)) is outside \(ParameterCheck.displayName(info))'s range; expected \(ParameterCheck.range(info))")
        }
        if mapping.curve == .log && !(minimum > 0 && maximum > 0) {
            throw ParameterIssue(
                kind: .invalidValue, message: "a log curve needs min and max above zero; found \(formatNumber(minimum))...\(formatNumber(maximum))")
        }
        self.mapping = mapping
        self.nodeIndex = nodeIndex
        self.info = info
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Whether the parameter takes whole numbers only (indexed, on/off, named values).
    /// - Thread: [control]
    public var isWhole: Bool { info.unit == .indexed || info.unit == .boolean || info.valueStrings != nil }
}
