import AUCore

/// One node of a loaded preset: its id, the component it resolved to, the configured
/// instance, and the settings that configured it.
/// - Thread: [control]
public struct LoadedNode: Sendable {
    public let id: String
    /// The reference the file used (`aufx:ipeq:AUHs`, `lv2:…`, a name).
    public let reference: String
    public let component: Component
    /// Uninitialized, with ``settings`` applied.
    public let unit: AudioUnit
    public let settings: NodeSettings

    /// A fresh instance of the component with ``settings`` applied.
    /// - Thread: [control]
    public func makeUnit() throws(AudioUnitError) -> AudioUnit {
        let unit = try component.instantiate()
        do {
            try settings.apply(to: unit)
        } catch {
            unit.dispose()
            throw error
        }
        return unit
    }
}
