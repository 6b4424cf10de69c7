/// A factory preset: a name and the values it sets (by parameter ID).
/// - Thread: [any] (a plain value).
public struct PluginPreset: Sendable {
    public var name: String
    public var values: [UInt32: Float]
    /// - Thread: [any]
    public init(name: String, values: [UInt32: Float]) {
        self.name = name
        self.values = values
    }
}
