import AUCore
import Synchronization

/// A plugin as a unit needs it from lilv: its handle, its ports and its patch properties.
/// Read from the world's data once per component, when its first unit is made, and shared by
/// the units made after (a batch makes each file's units anew; each reading is hundreds of
/// lookups in the world's RDF store).
/// - Thread: [control]
struct LV2PluginReading: Sendable {
    let plugin: LilvPluginHandle
    let ports: [LV2Port]
    let patchProperties: [LV2PropertyDescription]

    init(plugin: LilvPluginHandle, world: LV2World) {
        self.plugin = plugin
        ports = LV2PortReader.ports(of: plugin, world: world)
        patchProperties = plugin.patchProperties
    }

    /// One component's reading, made by the first unit that asks for it.
    /// - Thread: [control]
    final class Once: Sendable {
        private let reading = Mutex<LV2PluginReading?>(nil)

        /// The reading, made by `read` the first time (a failure is not kept: the next call reads again).
        func get(_ read: () throws(AudioUnitError) -> LV2PluginReading) throws(AudioUnitError) -> LV2PluginReading {
            try reading.withLock { (reading: inout LV2PluginReading?) throws(AudioUnitError) -> LV2PluginReading in
                if let reading { return reading }
                let made = try read()
                reading = made
                return made
            }
        }
    }
}
