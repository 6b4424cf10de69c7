/// The unit a parameter value is in: Core Audio's `AudioUnitParameterUnit` raw values.
/// - Thread: any.
public enum ParameterUnit: UInt32, Sendable {
    case generic = 0, indexed = 1, boolean = 2, percent = 3, seconds = 4, sampleFrames = 5
    case hertz = 8, cents = 9, relativeSemitones = 10, midiNoteNumber = 11
    case decibels = 13, linearGain = 14, pan = 18, octaves = 20, milliseconds = 24, ratio = 25
}

/// One parameter, declared statically by the unit: its ID, names, unit and range.
/// - Thread: any (a plain value).
public struct PluginParameter: Sendable {
    public var id: UInt32
    /// A stable machine name (`"time"`), used in saved states and on the command line.
    public var identifier: String
    /// A name for people (`"Delay Time"`).
    public var name: String
    public var unit: ParameterUnit
    public var range: ClosedRange<Float>
    public var defaultValue: Float
    /// Names of the whole values of an indexed parameter, from `range.lowerBound` up.
    public var valueStrings: [String]
    /// A value the unit produces (a meter); the host reads it, never sets it.
    public var isOutput: Bool
    public var isLogarithmic: Bool

    public init(
        id: UInt32, identifier: String, name: String, unit: ParameterUnit = .generic, range: ClosedRange<Float>,
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
    public static func choice(id: UInt32, identifier: String, name: String, choices: [String], default defaultValue: Int = 0) -> PluginParameter {
        PluginParameter(
            id: id, identifier: identifier, name: name, unit: .indexed, range: 0...Float(choices.count - 1),
            default: Float(defaultValue), valueStrings: choices)
    }
}

/// A factory preset: a name and the values it sets (by parameter ID).
/// - Thread: any (a plain value).
public struct PluginPreset: Sendable {
    public var name: String
    public var values: [UInt32: Float]
    public init(name: String, values: [UInt32: Float]) {
        self.name = name
        self.values = values
    }
}
