import AUCore
import Foundation

/// One unit of a chain: its id in the file, which unit, and how it is set.
///
/// When a node is loaded its settings are applied in this order: the saved ``state``
/// (custom state and parameter values), then the factory ``preset`` (its values), then
/// each of ``parameters`` (so an explicit parameter wins), then ``isBypassed``.
/// - Thread: [any] (a plain value).
public struct PresetNode: Hashable, Sendable {
    /// The keys of a node object, in the order a save writes them.
    public static let keys = ["id", "unit", "parameters", "soundbank", "bank", "program", "preset", "bypass", "isolation", "state"]
    /// Property parameters a node may also give as its own keys, as a sampler's node does
    /// (`"soundbank": "gm"`, `"bank": 0`, `"program": 1`); read into and written from
    /// ``parameters``.
    public static let propertyKeys = ["soundbank", "bank", "program"]

    /// Names the node in `chain`, `connections` and `--set`: ASCII letters, digits, `_` and `-`;
    /// not `input` or `output`.
    public var id: String
    /// `type:subtype:manufacturer`, `lv2:URI` (or a bare URI), or the unit's exact name.
    public var unit: String
    /// Parameter values keyed by LV2 symbol or native identifier, in file order; property
    /// parameters (a file, a named value) too.
    public var parameters: [PresetParameter]
    /// The name of one of the unit's factory presets.
    public var preset: String?
    /// `bypass`: nil when the file does not say (not bypassed).
    public var bypass: Bool?
    /// The unit's saved `ClassInfo` (base64 in the file).
    public var state: Data?
    /// `isolation`: where the unit runs (`none`, `together`, `per-unit`); nil when the file
    /// does not say (the loader's default, `--isolation`).
    public var isolation: UnitIsolation?

    /// - Thread: [any]
    public init(
        id: String, unit: String, parameters: [PresetParameter] = [], preset: String? = nil, bypass: Bool? = nil, state: Data? = nil
    ) {
        self.id = id
        self.unit = unit
        self.parameters = parameters
        self.preset = preset
        self.bypass = bypass
        self.state = state
    }

    /// Whether the node is to be bypassed.
    /// - Thread: [any]
    public var isBypassed: Bool { bypass ?? false }

    /// The value given for a parameter key, if any.
    /// - Thread: [any]
    public func value(of key: String) -> PresetParameterValue? { parameters.first { $0.key == key }?.value }

    /// Sets a parameter: replaces the value in place when the key is there, appends it otherwise.
    /// - Thread: [any]
    public mutating func setValue(_ value: PresetParameterValue, of key: String) {
        if let index = parameters.firstIndex(where: { $0.key == key }) {
            parameters[index].value = value
        } else {
            parameters.append(PresetParameter(key: key, value: value))
        }
    }
}
