/// One entry of a node's `parameters`: the key (LV2 symbol or native identifier) and value.
/// - Thread: [any] (a plain value).
public struct PresetParameter: Hashable, Sendable {
    public var key: String
    public var value: PresetParameterValue
    /// - Thread: [any]
    public init(key: String, value: PresetParameterValue) {
        self.key = key
        self.value = value
    }
}
