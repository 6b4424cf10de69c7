/// One parameter, declared statically by the unit: its ID, names, unit and range (the SDK's
/// mirror of the host's `ParameterInfo`).
/// - Thread: [any] (a plain value).
public struct PluginParameterInfo: Sendable {
    public var id: UInt32
    /// A stable machine name (`"time"`), used in saved states and on the command line.
    public var identifier: String
    /// A name for people (`"Delay Time"`).
    public var name: String
    public var unit: PluginParameterUnit
    public var range: ClosedRange<Float>
    public var defaultValue: Float
    /// Names of the whole values of an indexed parameter, from `range.lowerBound` up.
    public var valueStrings: [String]
    /// A value the unit produces (a meter); the host reads it, never sets it.
    public var isOutput: Bool
    public var isLogarithmic: Bool

    /// - Thread: [any]
    public init(
        id: UInt32, identifier: String, name: String, unit: PluginParameterUnit = .generic, range: ClosedRange<Float>,
        default defaultValue: Float, valueStrings: [String] = [], isOutput: Bool = false, isLogarithmic: Bool = false
    ) {
        precondition(range.contains(defaultValue), "the default of '\(identifier)' is outside its range")
        self.id = id
        self.identifier = identifier
        self.name = name
        self.unit = unit
        self.range = range
        self.defaultValue = defaultValue
        self.valueStrings = valueStrings
        self.isOutput = isOutput
        self.isLogarithmic = isLogarithmic
    }

    /// An indexed parameter whose values are `0..<choices.count`, named by `choices`.
    /// - Thread: [any]
    public static func choice(id: UInt32, identifier: String, name: String, choices: [String], default defaultValue: Int = 0) -> PluginParameterInfo {
        PluginParameterInfo(
            id: id, identifier: identifier, name: name, unit: .indexed, range: 0...Float(choices.count - 1),
            default: Float(defaultValue), valueStrings: choices)
    }
}
