/// A setting a unit takes by name that is not a number on a parameter's range: a file it
/// reads (an LV2 plugin's `patch:writable` of type `atom:Path`, a sampler's sound bank), or
/// a string, integer, float or Boolean an LV2 plugin declares as a `patch:writable` or
/// `patch:readable` property. Set from presets (`parameters`, a path relative to the preset's
/// folder), `--set` and the live `set`; saved by `auhost save`.
/// - Thread: [any] (a plain value).
public struct PropertyParameterInfo: Sendable, Hashable {
    /// What the value is.
    /// - Thread: [any]
    public enum ValueType: String, Sendable, Hashable {
        case path, string, int, float, bool
    }

    /// The key presets and commands use (an LV2 property's URI fragment or last path
    /// component, `soundbank` for a sampler).
    public var identifier: String
    /// The label a person reads (`rdfs:label`).
    public var name: String
    /// The property's URI, when it has one (LV2).
    public var uri: String?
    public var valueType: ValueType
    /// Whether the host may set it (`patch:writable`); a readable one only reports.
    public var isWritable: Bool
    /// Words a path property takes for well-known files, each with its absolute path (a
    /// sampler's `gm`: the system's General MIDI bank); presets resolve them, not relative
    /// to their folder.
    public var namedPaths: [String: String]

    /// - Thread: [any]
    public init(
        identifier: String, name: String, uri: String? = nil, valueType: ValueType, isWritable: Bool = true, namedPaths: [String: String] = [:]
    ) {
        self.identifier = identifier
        self.name = name
        self.uri = uri
        self.valueType = valueType
        self.isWritable = isWritable
        self.namedPaths = namedPaths
    }
}

/// A property parameter's value.
/// - Thread: [any] (a plain value).
public enum PropertyParameterValue: Sendable, Hashable, CustomStringConvertible {
    case path(String)
    case string(String)
    case int(Int)
    case float(Double)
    case bool(Bool)

    /// The value as presets and replies write it.
    /// - Thread: [any]
    public var description: String {
        switch self {
        case .path(let text), .string(let text): text
        case .int(let value): String(value)
        case .float(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        }
    }

    /// `text` as a value of `type`; nil when it is not one (a number for int, float; true,
    /// false, on, off, 1, 0 for bool).
    /// - Thread: [any]
    public init?(parsing text: String, as type: PropertyParameterInfo.ValueType) {
        switch type {
        case .path: self = .path(text)
        case .string: self = .string(text)
        case .int:
            guard let value = Int(text) else { return nil }
            self = .int(value)
        case .float:
            guard let value = Double(text), value.isFinite else { return nil }
            self = .float(value)
        case .bool:
            switch text.lowercased() {
            case "true", "on", "1": self = .bool(true)
            case "false", "off", "0": self = .bool(false)
            default: return nil
            }
        }
    }
}
