// Two global properties a host sets to tell a unit how it will be rendered, which Apple's
// units store and may act on (AUBase keeps both): `kAudioUnitProperty_CPULoad`, the share of
// a core the unit should try to stay under (0...1), and `kAudioUnitProperty_OfflineRender`,
// whether it is rendered faster than real time (a unit may then use costlier processing).
// AUHost's units render the same either way; the values are kept, read back, and announced
// to the property's listeners, as on Apple.

/// A unit's render hints, as the program last set them.
struct RenderHints {
    /// `kAudioUnitProperty_CPULoad`: 0 (Apple's default: no limit asked) up to 1.
    var cpuLoadLimit: Float64 = 0
    /// `kAudioUnitProperty_OfflineRender`.
    var rendersOffline = false
}

extension UnitHandle {
    /// Calls the program's listeners of `id` (a property the handle keeps, not the unit),
    /// on the calling thread, global scope, element 0.
    func notifyHandleListeners(_ id: UInt32) {
        for listener in listeners where listener.id == id { listener.proc(listener.data, pointer, id, 0, 0) }
    }
}
