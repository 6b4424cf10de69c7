import AUCore
import Foundation

/// One request from the host to a unit-host child: a line of JSON on the socket between
/// them, answered by one ``BridgeReply`` line. Control work only (off the render thread):
/// cycles go through the shared memory (``BridgeRegion``).
/// - Thread: [control]
struct BridgeRequest: Codable {
    enum Operation: String, Codable {
        /// Make an instance of `reference` as unit number `unit` of the child.
        case instantiate
        /// Set the rate, channels and MaximumFramesPerSlice, initialize, map `memoryFD` of the host and start rendering.
        case initialize
        case uninitialize
        case reset
        case saveCustomState
        case restoreCustomState
        case applyFactoryPreset
        case setPropertyParameter
        case propertyParameterValue
        /// The unit's latency and tail now.
        case timing
        /// The unit's factory presets (asked when the host first needs them: listing an LV2
        /// plugin's presets reads their Turtle, which no child's start-up should pay for).
        case factoryPresets
        /// Run the render thread with SCHED_FIFO at `priority`.
        case schedule
        case dispose
    }

    var operation: Operation
    var unit: Int
    var reference: String?
    var data: Data?
    var stateFolder: String?
    var preset: Int?
    var property: String?
    var value: BridgeValue?
    var sampleRate: Double?
    var maximumFrames: Int?
    var nominalFrames: Int?
    var offline: Bool?
    var inputChannels: [Int]?
    var outputChannels: [Int]?
    var memoryFD: Int32?
    var memorySize: Int?
    var priority: Int32?
    /// The host's parameter values, which an `initialize` has the unit take first (its
    /// latency and tail then follow them from the start).
    var values: [Float]?

    init(_ operation: Operation, unit: Int) {
        self.operation = operation
        self.unit = unit
    }
}

/// The child's answer to one ``BridgeRequest``: an error, or what was asked for.
/// - Thread: [control]
struct BridgeReply: Codable {
    var error: String?
    var unit: BridgeUnitShape?
    var data: Data?
    var value: BridgeValue?
    /// The input parameters' values after the request (a preset or state may change them).
    var values: [Float]?
    var presets: [BridgePreset]?
    var latency: Double?
    var tail: Double?
}

/// What the host needs to stand in for a unit: its buses, parameters and properties (its
/// presets come when asked: ``BridgeRequest/Operation/factoryPresets``).
/// - Thread: [control]
struct BridgeUnitShape: Codable {
    var name: String
    var inputs: [Int]
    var outputs: [Int]
    var sampleRate: Double
    var parameters: [BridgeParameter]
    var properties: [BridgeProperty]
    var acceptsMIDIInput: Bool
    var rendersWholeCycles: Bool
    var parametersHoldCustomState: Bool
    /// Where the unit's latency comes from (an LV2 plugin's latency output is carried back
    /// with each cycle, as every output parameter is: no request asks for it).
    var latencyReport: LatencyReport
    /// What the bridge does not carry yet: MIDI out of the unit.
    var producesMIDIOutput: Bool
    var latency: Double
    var tail: Double
}

/// A ``ParameterInfo`` as a line of JSON carries it.
/// - Thread: [control]
struct BridgeParameter: Codable {
    var id: UInt32, scope: UInt32, element: Int
    var identifier: String, name: String, unit: UInt32
    var min: Float, max: Float, defaultValue: Float, flags: UInt32
    var valueStrings: [String]?

    init(_ info: ParameterInfo) {
        id = info.id; scope = info.address.scope.rawValue; element = info.address.element
        identifier = info.identifier; name = info.name; unit = info.unit.rawValue
        min = info.minValue; max = info.maxValue; defaultValue = info.defaultValue; flags = info.flags.rawValue
        valueStrings = info.valueStrings
    }

    var info: ParameterInfo {
        ParameterInfo(
            id: id, identifier: identifier, name: name, unit: ParameterUnit(rawValue: unit) ?? .generic,
            min: min, max: max, default: defaultValue, flags: ParameterFlags(rawValue: flags), valueStrings: valueStrings,
            scope: Scope(rawValue: scope) ?? .global, element: element)
    }
}

/// A ``PropertyParameterInfo`` as a line of JSON carries it.
/// - Thread: [control]
struct BridgeProperty: Codable {
    var identifier: String, name: String, uri: String?, valueType: String, isWritable: Bool, namedPaths: [String: String]

    init(_ info: PropertyParameterInfo) {
        identifier = info.identifier; name = info.name; uri = info.uri
        valueType = info.valueType.rawValue; isWritable = info.isWritable; namedPaths = info.namedPaths
    }

    var info: PropertyParameterInfo? {
        PropertyParameterInfo.ValueType(rawValue: valueType).map {
            PropertyParameterInfo(identifier: identifier, name: name, uri: uri, valueType: $0, isWritable: isWritable, namedPaths: namedPaths)
        }
    }
}

/// A factory preset.
/// - Thread: [control]
struct BridgePreset: Codable {
    var number: Int, name: String
}

/// A ``PropertyParameterValue`` as a line of JSON carries it.
/// - Thread: [control]
struct BridgeValue: Codable {
    var kind: String, text: String

    init(_ value: PropertyParameterValue) {
        switch value {
        case .path(let path): kind = "path"; text = path
        case .string(let string): kind = "string"; text = string
        case .int(let number): kind = "int"; text = String(number)
        case .float(let number): kind = "float"; text = String(number)
        case .bool(let flag): kind = "bool"; text = flag ? "true" : "false"
        }
    }

    var value: PropertyParameterValue? {
        switch kind {
        case "path": .path(text)
        case "string": .string(text)
        case "int": Int(text).map { .int($0) }
        case "float": Double(text).map { .float($0) }
        case "bool": .bool(text == "true")
        default: nil
        }
    }
}

/// Where an isolated unit's latency comes from, as its child says when it makes it.
/// - Thread: [any]
public enum LatencyReport: Codable, Sendable, Equatable {
    /// What it was when made, for good (an LV2 plugin without a latency output).
    case fixed
    /// The value, in frames, of output parameter `index` (an LV2 plugin's latency output,
    /// which it writes when it runs).
    case parameter(Int)
    /// The child is asked (``BridgeRequest/Operation/timing``).
    case asked
}
