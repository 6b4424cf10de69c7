import Foundation

/// A property's numeric identity, with the values of Core Audio's `kAudioUnitProperty_*`.
/// - Thread: [any]
public struct PropertyID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    /// - Thread: [any]
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

    /// The first ID of a unit's own properties (`kAudioUnitProperty_*` custom IDs).
    public static let firstCustom = PropertyID(rawValue: 64000)
    /// Whether this is a unit's own property (64000 or more).
    /// - Thread: [any]
    public var isCustom: Bool { rawValue >= Self.firstCustom.rawValue }

    /// - Thread: [any]
    public var description: String { Self.names[rawValue] ?? (isCustom ? "custom property \(rawValue)" : "property \(rawValue)") }
}

/// A typed property key: the identity and the Swift type of its value, and how a unit
/// reads and writes it, so that ``AudioUnit/value(of:scope:element:)`` returns the value
/// as it is stored, never through `Any`.
///
/// ```swift
/// let format = try unit.value(of: .streamFormat, scope: .output, element: 0)
/// ```
///
/// A unit's own properties use Core Audio's custom IDs, 64000 and up:
///
/// ```swift
/// static let curve = PropertyKey<[Float]>(custom: PropertyID(rawValue: 64000))
/// ```
/// - Thread: [any]
public struct PropertyKey<Value>: Sendable, CustomStringConvertible {
    public let id: PropertyID
    /// Reads the property of a unit (the unit is known not to be disposed).
    let read: @Sendable (AudioUnit, Scope, Element) throws(AudioUnitError) -> Value
    /// Sets it and returns the changes to announce.
    let write: @Sendable (AudioUnit, Value, Scope, Element) throws(AudioUnitError) -> [PropertyChange]
    /// The value's size in bytes, as `AudioUnitGetPropertyInfo` tells it.
    let size: @Sendable (Value) -> Int

    init(
        _ id: PropertyID, size: @escaping @Sendable (Value) -> Int = { _ in MemoryLayout<Value>.size },
        read: @escaping @Sendable (AudioUnit, Scope, Element) throws(AudioUnitError) -> Value,
        write: @escaping @Sendable (AudioUnit, Value, Scope, Element) throws(AudioUnitError) -> [PropertyChange]
    ) {
        self.id = id
        self.size = size
        self.read = read
        self.write = write
    }

    /// A read-only property: setting it checks scope and element, then fails with PropertyNotWritable.
    static func readOnly(
        _ id: PropertyID, size: @escaping @Sendable (Value) -> Int = { _ in MemoryLayout<Value>.size },
        read: @escaping @Sendable (AudioUnit, Scope, Element) throws(AudioUnitError) -> Value
    ) -> Self {
        Self(id, size: size, read: read) { unit, _, scope, element throws(AudioUnitError) in
            _ = try read(unit, scope, element)
            throw AudioUnitError(.propertyNotWritable, "\(unit.name): \(id) is read-only")
        }
    }

    /// A key of a unit's own property (`kAudioUnitProperty_*` custom IDs start at 64000),
    /// which a unit declares with ``AudioUnit/declareProperty(_:scope:element:initialValue:isWritable:)``.
    /// `size` gives `AudioUnitGetPropertyInfo`'s size of a value (default: the type's size).
    /// - Precondition: `id` is 64000 or more.
    /// - Thread: [any]
    public init(custom id: PropertyID, size: @escaping @Sendable (Value) -> Int = { _ in MemoryLayout<Value>.size }) {
        precondition(id.isCustom, "a custom property ID is \(PropertyID.firstCustom.rawValue) or more, not \(id.rawValue)")
        self.init(id, size: size, read: { unit, scope, element throws(AudioUnitError) in
            try unit.customProperties.value(of: id, as: Value.self, scope: scope, element: element, unit: unit.name)
        }, write: { unit, value, scope, element throws(AudioUnitError) in
            try unit.customProperties.setValue(value, of: id, scope: scope, element: element, unit: unit.name)
            return [PropertyChange(id: id, scope: scope, element: element)]
        })
    }

    /// - Thread: [any]
    public var description: String { id.description }
}

extension PropertyKey where Value == Data {
    /// `ClassInfo`: the unit's whole state (parameters and unit-specific state), global scope.
    /// - Thread: [any]
    public static var classInfo: Self {
        .init(.classInfo, size: { $0.count }, read: { unit, scope, element throws(AudioUnitError) in
            try unit.requireGlobal(.classInfo, scope, element)
            return try unit.saveState()
        }, write: { unit, data, scope, _ throws(AudioUnitError) in try unit.setClassInfo(data, scope: scope) })
    }
}
extension PropertyKey where Value == UnitConnection {
    /// `MakeConnection`: input scope, element = the destination input bus.
    /// - Thread: [any]
    public static var makeConnection: Self {
        .init(.makeConnection, read: { unit, scope, element throws(AudioUnitError) in try unit.connection(scope: scope, element: element) },
              write: { unit, connection, scope, element throws(AudioUnitError) in try unit.setConnection(connection, scope: scope, element: element) })
    }
}
extension PropertyKey where Value == Double {
    /// `SampleRate` of a bus (input / output scope) or of every bus (global scope).
    /// - Thread: [any]
    public static var sampleRate: Self {
        .init(.sampleRate, read: { unit, scope, element throws(AudioUnitError) in try unit.sampleRate(scope: scope, element: element) },
              write: { unit, rate, scope, element throws(AudioUnitError) in try unit.setSampleRate(rate, scope: scope, element: element) })
    }
    /// `Latency` in seconds, global scope, read-only.
    /// - Thread: [any]
    public static var latency: Self {
        .readOnly(.latency) { unit, scope, element throws(AudioUnitError) in
            try unit.requireGlobal(.latency, scope, element)
            return unit.latency
        }
    }
    /// `TailTime` in seconds, global scope, read-only.
    /// - Thread: [any]
    public static var tailTime: Self {
        .readOnly(.tailTime) { unit, scope, element throws(AudioUnitError) in
            try unit.requireGlobal(.tailTime, scope, element)
            return unit.tailTime
        }
    }
}
extension PropertyKey where Value == [ParameterID] {
    /// `ParameterList`: the parameter IDs of a scope.
    /// - Thread: [any]
    public static var parameterList: Self {
        .readOnly(.parameterList, size: { $0.count * MemoryLayout<ParameterID>.size }) { unit, scope, element in
            unit.parameters.infos.filter { $0.address.scope == scope && ($0.address.scope == .global || $0.address.element == element) }.map(\.id)
        }
    }
}
extension PropertyKey where Value == ParameterInfo {
    /// `ParameterInfo`: element = the parameter ID, as in Core Audio.
    /// - Thread: [any]
    public static var parameterInfo: Self {
        .readOnly(.parameterInfo) { unit, scope, element throws(AudioUnitError) in
            try unit.parameterInfo(ParameterAddress(ParameterID(truncatingIfNeeded: element), scope: scope))
        }
    }
}
extension PropertyKey where Value == [String] {
    /// `ParameterValueStrings` of an indexed parameter: element = the parameter ID.
    /// - Thread: [any]
    public static var parameterValueStrings: Self {
        .readOnly(.parameterValueStrings, size: { $0.count * MemoryLayout<String>.size }) { unit, scope, element throws(AudioUnitError) in
            let info = try unit.parameterInfo(ParameterAddress(ParameterID(truncatingIfNeeded: element), scope: scope))
            guard let strings = info.valueStrings else {
                throw AudioUnitError(.propertyNotInUse, "\(unit.name): parameter '\(info.identifier)' has no value strings")
            }
            return strings
        }
    }
}
extension PropertyKey where Value == StreamFormat {
    /// `StreamFormat` of one bus: input or output scope, element = the bus.
    /// - Thread: [any]
    public static var streamFormat: Self {
        .init(.streamFormat, read: { unit, scope, element throws(AudioUnitError) in
            try unit.requireScope(.streamFormat, scope, in: [.input, .output])
            return try unit.busConfiguration(scope: scope, element: element).format
        }, write: { unit, format, scope, element throws(AudioUnitError) in try unit.setStreamFormat(format, scope: scope, element: element) })
    }
}
extension PropertyKey where Value == Int {
    /// `ElementCount`: how many buses a scope has.
    /// - Thread: [any]
    public static var elementCount: Self {
        .init(.elementCount, read: { unit, scope, _ in unit.elementCount(scope) },
              write: { unit, count, scope, element throws(AudioUnitError) in try unit.setElementCount(count, scope: scope, element: element) })
    }
    /// `MaximumFramesPerSlice`, global scope: the largest frame count one render may ask for.
    /// - Thread: [any]
    public static var maximumFramesPerSlice: Self {
        .init(.maximumFramesPerSlice, read: { unit, scope, _ throws(AudioUnitError) in
            try unit.requireScope(.maximumFramesPerSlice, scope, in: [.global])
            return unit.maximumFrames
        }, write: { unit, frames, scope, _ throws(AudioUnitError) in try unit.setMaximumFramesPerSlice(frames, scope: scope) })
    }
}
extension PropertyKey where Value == Bool {
    /// `BypassEffect`, global scope: audio passes through untouched (latency-aware).
    /// - Thread: [any]
    public static var bypassEffect: Self {
        .init(.bypassEffect, read: { unit, scope, element throws(AudioUnitError) in
            try unit.requireGlobal(.bypassEffect, scope, element)
            return unit.bypassed.load(ordering: .relaxed)
        }, write: { unit, bypass, scope, _ throws(AudioUnitError) in
            try unit.requireScope(.bypassEffect, scope, in: [.global])
            unit.bypassed.store(bypass, ordering: .relaxed)
            return [PropertyChange(id: .bypassEffect, scope: scope, element: 0)]
        })
    }
}
extension PropertyKey where Value == AudioUnitStatus {
    /// `LastRenderError`, global scope, read-only: the last non-zero render status.
    /// - Thread: [any]
    public static var lastRenderError: Self {
        .readOnly(.lastRenderError) { unit, scope, element throws(AudioUnitError) in
            try unit.requireGlobal(.lastRenderError, scope, element)
            return unit.lastRenderError.load(ordering: .relaxed)
        }
    }
}
extension PropertyKey where Value == RenderCallback? {
    /// `SetRenderCallback`: input scope, element = the input bus; nil removes it.
    /// - Thread: [any]
    public static var setRenderCallback: Self {
        .init(.setRenderCallback, read: { unit, scope, element throws(AudioUnitError) in try unit.renderCallback(scope: scope, element: element) },
              write: { unit, callback, scope, element throws(AudioUnitError) in try unit.setRenderCallback(callback, scope: scope, element: element) })
    }
}
extension PropertyKey where Value == [UnitPreset] {
    /// `FactoryPresets`, global scope, read-only.
    /// - Thread: [any]
    public static var factoryPresets: Self {
        .readOnly(.factoryPresets, size: { $0.count * MemoryLayout<UnitPreset>.size }) { unit, scope, element throws(AudioUnitError) in
            try unit.requireGlobal(.factoryPresets, scope, element)
            return unit.factoryPresets
        }
    }
}
extension PropertyKey where Value == UnitPreset {
    /// `PresentPreset`, global scope: setting a factory preset's number loads it.
    /// - Thread: [any]
    public static var presentPreset: Self {
        .init(.presentPreset, read: { unit, scope, element throws(AudioUnitError) in
            try unit.requireGlobal(.presentPreset, scope, element)
            return unit.presentPreset
        }, write: { unit, preset, scope, _ throws(AudioUnitError) in try unit.setPresentPreset(preset, scope: scope) })
    }
}
extension PropertyKey where Value == String {
    /// `ElementName` of a bus.
    /// - Thread: [any]
    public static var elementName: Self {
        .init(.elementName, read: { unit, scope, element throws(AudioUnitError) in try unit.busConfiguration(scope: scope, element: element).name },
              write: { unit, name, scope, element throws(AudioUnitError) in
                  var bus = try unit.busConfiguration(scope: scope, element: element)
                  bus.name = name
                  unit.elements.setBus(bus, scope: scope, element: element)
                  return [PropertyChange(id: .elementName, scope: scope, element: element)]
              })
    }
}

/// What `AudioUnitGetPropertyInfo` tells: the value's size in bytes and whether it can be set.
/// - Thread: [any]
public struct PropertyInfo: Sendable, Equatable {
    public var size: Int
    public var isWritable: Bool
    /// - Thread: [any]
    public init(size: Int, isWritable: Bool) {
        self.size = size
        self.isWritable = isWritable
    }
}

