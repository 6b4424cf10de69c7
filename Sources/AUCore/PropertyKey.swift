import Foundation

/// A property's numeric identity, with the values of Core Audio's `kAudioUnitProperty_*`.
/// - Thread: any.
public struct PropertyID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let classInfo = PropertyID(rawValue: 0)
    public static let makeConnection = PropertyID(rawValue: 1)
    public static let sampleRate = PropertyID(rawValue: 2)
    public static let parameterList = PropertyID(rawValue: 3)
    public static let parameterInfo = PropertyID(rawValue: 4)
    public static let streamFormat = PropertyID(rawValue: 8)
    public static let elementCount = PropertyID(rawValue: 11)
    public static let latency = PropertyID(rawValue: 12)
    public static let maximumFramesPerSlice = PropertyID(rawValue: 14)
    public static let parameterValueStrings = PropertyID(rawValue: 16)
    public static let tailTime = PropertyID(rawValue: 20)
    public static let bypassEffect = PropertyID(rawValue: 21)
    public static let lastRenderError = PropertyID(rawValue: 22)
    public static let setRenderCallback = PropertyID(rawValue: 23)
    public static let factoryPresets = PropertyID(rawValue: 24)
    public static let presentPreset = PropertyID(rawValue: 36)
    public static let elementName = PropertyID(rawValue: 30)

    static let names: [UInt32: String] = [
        0: "ClassInfo", 1: "MakeConnection", 2: "SampleRate", 3: "ParameterList",
        4: "ParameterInfo", 8: "StreamFormat", 11: "ElementCount", 12: "Latency",
        14: "MaximumFramesPerSlice", 16: "ParameterValueStrings", 20: "TailTime",
        21: "BypassEffect", 22: "LastRenderError", 23: "SetRenderCallback",
        24: "FactoryPresets", 30: "ElementName", 36: "PresentPreset",
    ]

    public var description: String { Self.names[rawValue] ?? "property \(rawValue)" }
}

/// A typed property key: the identity and the Swift type of its value.
///
/// ```swift
/// let format = try unit.value(of: .streamFormat, scope: .output, element: 0)
/// ```
/// - Thread: any.
public struct PropertyKey<Value>: Sendable, CustomStringConvertible {
    public let id: PropertyID
    public init(_ id: PropertyID) { self.id = id }
    public var description: String { id.description }
}

extension PropertyKey where Value == Data {
    /// `ClassInfo`: the unit's whole state (parameters and unit-specific state), global scope.
    public static var classInfo: Self { .init(.classInfo) }
}
extension PropertyKey where Value == UnitConnection {
    /// `MakeConnection`: input scope, element = the destination input bus.
    public static var makeConnection: Self { .init(.makeConnection) }
}
extension PropertyKey where Value == Double {
    /// `SampleRate` of a bus (input / output scope) or of every bus (global scope).
    public static var sampleRate: Self { .init(.sampleRate) }
    /// `Latency` in seconds, global scope, read-only.
    public static var latency: Self { .init(.latency) }
    /// `TailTime` in seconds, global scope, read-only.
    public static var tailTime: Self { .init(.tailTime) }
}
extension PropertyKey where Value == [ParameterID] {
    /// `ParameterList`: the parameter IDs of a scope.
    public static var parameterList: Self { .init(.parameterList) }
}
extension PropertyKey where Value == ParameterInfo {
    /// `ParameterInfo`: element = the parameter ID, as in Core Audio.
    public static var parameterInfo: Self { .init(.parameterInfo) }
}
extension PropertyKey where Value == [String] {
    /// `ParameterValueStrings` of an indexed parameter: element = the parameter ID.
    public static var parameterValueStrings: Self { .init(.parameterValueStrings) }
}
extension PropertyKey where Value == StreamFormat {
    /// `StreamFormat` of one bus: input or output scope, element = the bus.
    public static var streamFormat: Self { .init(.streamFormat) }
}
extension PropertyKey where Value == Int {
    /// `ElementCount`: how many buses a scope has.
    public static var elementCount: Self { .init(.elementCount) }
    /// `MaximumFramesPerSlice`, global scope: the largest frame count one render may ask for.
    public static var maximumFramesPerSlice: Self { .init(.maximumFramesPerSlice) }
}
extension PropertyKey where Value == Bool {
    /// `BypassEffect`, global scope: audio passes through untouched (latency-aware).
    public static var bypassEffect: Self { .init(.bypassEffect) }
}
extension PropertyKey where Value == AudioUnitStatus {
    /// `LastRenderError`, global scope, read-only: the last non-zero render status.
    public static var lastRenderError: Self { .init(.lastRenderError) }
}
extension PropertyKey where Value == RenderCallback? {
    /// `SetRenderCallback`: input scope, element = the input bus; nil removes it.
    public static var setRenderCallback: Self { .init(.setRenderCallback) }
}
extension PropertyKey where Value == [UnitPreset] {
    /// `FactoryPresets`, global scope, read-only.
    public static var factoryPresets: Self { .init(.factoryPresets) }
}
extension PropertyKey where Value == UnitPreset {
    /// `PresentPreset`, global scope: setting a factory preset's number loads it.
    public static var presentPreset: Self { .init(.presentPreset) }
}
extension PropertyKey where Value == String {
    /// `ElementName` of a bus.
    public static var elementName: Self { .init(.elementName) }
}

/// What `AudioUnitGetPropertyInfo` tells: the value's size in bytes and whether it can be set.
/// - Thread: any.
public struct PropertyInfo: Sendable, Equatable {
    public var size: Int
    public var isWritable: Bool
    public init(size: Int, isWritable: Bool) {
        self.size = size
        self.isWritable = isWritable
    }
}

