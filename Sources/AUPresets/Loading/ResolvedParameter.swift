import AUCore

/// A parameter value checked against the unit's ``ParameterInfo``.
/// - Thread: [any] (a plain value).
public struct ResolvedParameter: Hashable, Sendable {
    /// The key as written (LV2 symbol or native identifier).
    public var key: String
    public var info: ParameterInfo
    public var value: Float

    /// - Thread: [any]
    public init(key: String, info: ParameterInfo, value: Float) {
        self.key = key
        self.info = info
        self.value = value
    }

    /// Sets the value on a unit (at once, listeners told).
    /// - Thread: [control]
    public func apply(to unit: AudioUnit) throws(AudioUnitError) {
        try unit.setParameter(info.id, value: value, scope: info.address.scope, element: info.address.element)
    }
}
