import Foundation

/// A parameter's identity within its scope (`AudioUnitParameterID`).
/// - Thread: [any]
public typealias ParameterID = UInt32

/// Where one parameter value lives: its ID, scope and element.
/// - Thread: [any]
public struct ParameterAddress: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var id: ParameterID
    public var scope: Scope
    public var element: Element

    /// - Thread: [any]
    public init(_ id: ParameterID, scope: Scope = .global, element: Element = 0) {
        self.id = id
        self.scope = scope
        self.element = element
    }

    /// - Thread: [any]
    public var description: String { scope == .global ? "\(id)" : "\(id)@\(scope)[\(element)]" }
}

/// The unit a parameter's value is in (`AudioUnitParameterUnit`, same raw values).
/// - Thread: [any]
public enum ParameterUnit: UInt32, Sendable, CaseIterable {
    case generic = 0, indexed, boolean, percent, seconds, sampleFrames, phase, rate, hertz, cents
    case relativeSemitones, midiNoteNumber, midiController, decibels, linearGain, degrees
    case equalPowerCrossfade, mixerFaderCurve1, pan, meters, absoluteCents, octaves, bpm, beats
    case milliseconds, ratio, customUnit

    /// The suffix printed after a value (`dB`, `Hz`, `%`…), empty when none.
    /// - Thread: [any]
    public var symbol: String {
        switch self {
        case .percent: "%"
        case .seconds: "s"
        case .sampleFrames: "frames"
        case .hertz: "Hz"
        case .cents, .absoluteCents: "cents"
        case .relativeSemitones: "semitones"
        case .decibels: "dB"
        case .degrees: "°"
        case .octaves: "oct"
        case .bpm: "BPM"
        case .beats: "beats"
        case .milliseconds: "ms"
        case .ratio: ":1"
        case .rate: "x"
        default: ""
        }
    }

    /// The name used in JSON and on the command line (`decibels`, `hertz`…).
    /// - Thread: [any]
    public var name: String { String(describing: self) }
}

/// Parameter flags (`AudioUnitParameterOptions`, Core Audio's bit values).
/// - Thread: [any]
public struct ParameterFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    /// - Thread: [any]
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let isGlobalMeta = ParameterFlags(rawValue: 1 << 3)
    public static let isElementMeta = ParameterFlags(rawValue: 1 << 4)
    public static let canRamp = ParameterFlags(rawValue: 1 << 6)
    public static let isHighResolution = ParameterFlags(rawValue: 1 << 23)
    public static let isLogarithmic = ParameterFlags(rawValue: 1 << 22) // DisplayLogarithmic
    /// A read-only value the unit produces, such as a meter or a reported latency.
    public static let isOutput = ParameterFlags(rawValue: 1 << 15) // MeterReadOnly
    public static let isReadable = ParameterFlags(rawValue: 1 << 30)
    public static let isWritable = ParameterFlags(rawValue: 1 << 31)

    /// An ordinary input parameter.
    public static let readWrite: ParameterFlags = [.isReadable, .isWritable]
}

/// Everything a host needs to show and set a parameter (`AudioUnitParameterInfo`).
/// - Thread: [any] (a plain value).
public struct ParameterInfo: Hashable, Sendable {
    public var address: ParameterAddress
    /// A stable machine name: the LV2 port symbol or the native unit's identifier.
    public var identifier: String
    public var name: String
    public var unit: ParameterUnit
    public var minValue: Float
    public var maxValue: Float
    public var defaultValue: Float
    public var flags: ParameterFlags
    /// For indexed parameters: the name of each value from `minValue` upwards.
    public var valueStrings: [String]?

    /// - Thread: [any]
    public init(
        id: ParameterID, identifier: String, name: String, unit: ParameterUnit = .generic,
        min: Float, max: Float, default defaultValue: Float, flags: ParameterFlags = .readWrite,
        valueStrings: [String]? = nil, scope: Scope = .global, element: Element = 0
    ) {
        address = ParameterAddress(id, scope: scope, element: element)
        self.identifier = identifier
        self.name = name
        self.unit = unit
        minValue = min
        maxValue = max
        self.defaultValue = defaultValue
        self.flags = flags
        self.valueStrings = valueStrings
    }

    /// - Thread: [any]
    public var id: ParameterID { address.id }
    /// - Thread: [any]
    public var isOutput: Bool { flags.contains(.isOutput) }
    /// - Thread: [any]
    public var isWritable: Bool { flags.contains(.isWritable) && !isOutput }

    /// Checks that `value` may be set, naming the parameter and its range when not.
    /// - Thread: [any]
    public func validate(_ value: Float) throws(AudioUnitError) {
        guard isWritable else {
            throw AudioUnitError(.propertyNotWritable, "parameter '\(identifier)' (\(name)) is read-only")
        }
        guard value.isFinite, value >= minValue, value <= maxValue else {
            throw AudioUnitError(
                .invalidParameterValue,
                "\(value) is out of range for parameter '\(identifier)' (\(name)): expected \(minValue)...\(maxValue)\(unit.symbol.isEmpty ? "" : " \(unit.symbol)")")
        }
        if unit == .indexed || unit == .boolean, value != value.rounded() {
            throw AudioUnitError(.invalidParameterValue, "parameter '\(identifier)' (\(name)) takes whole values, not \(value)")
        }
    }

    /// The value of an indexed parameter named by one of its value strings, if any.
    /// - Thread: [any]
    public func value(named text: String) -> Float? {
        guard let valueStrings, let index = valueStrings.firstIndex(where: { $0.caseInsensitiveCompare(text) == .orderedSame })
        else { return nil }
        return minValue + Float(index)
    }

    /// The value string of `value` for an indexed parameter, if it has one.
    /// - Thread: [any]
    public func valueString(for value: Float) -> String? {
        guard let valueStrings else { return nil }
        let index = Int((value - minValue).rounded())
        return valueStrings.indices.contains(index) ? valueStrings[index] : nil
    }
}

