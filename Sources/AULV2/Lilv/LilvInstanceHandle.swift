import CLilv

/// An owned `LilvInstance*`: a plugin instantiated at a sample rate with the host's features.
/// lilv opens the plugin's library when it instantiates and closes it when it frees, in a
/// list the world keeps, so both happen under the world's lock (units of one world are made
/// and freed on several threads: parallel render jobs).
/// - Thread: [control]; the render thread calls the plugin only through ``descriptor``'s
///   function pointers with ``handle``.
final class LilvInstanceHandle: @unchecked Sendable {
    private let world: LV2World
    /// The `LilvInstance*`; used only in this folder. Nil once freed.
    private(set) var raw: UnsafeMutablePointer<LilvInstance>?
    /// The plugin's own instance handle, passed to every descriptor function.
    let handle: LV2_Handle?
    /// The plugin's descriptor: `connect_port`, `activate`, `run`, `deactivate`,
    /// `extension_data`.
    let descriptor: UnsafePointer<LV2_Descriptor>?

    /// Instantiates `plugin`; nil when its `instantiate()` returns NULL.
    init?(plugin: LilvPluginHandle, sampleRate: Double, features: UnsafePointer<UnsafePointer<LV2_Feature>?>) {
        let world = plugin.world
        guard let raw = world.locked({ lilv_plugin_instantiate(plugin.raw, sampleRate, features) }) else { return nil }
        PluginLibraryPins.pin(plugin.libraryPath)
        self.world = world
        self.raw = raw
        handle = raw.pointee.lv2_handle
        descriptor = raw.pointee.lv2_descriptor
    }

    deinit { free() }

    /// Frees the instance (the plugin's `cleanup()`, then its library is released); the
    /// plugin must be deactivated first. Does nothing the second time.
    func free() {
        guard let raw else { return }
        self.raw = nil
        world.locked { lilv_instance_free(raw) }
    }
}
