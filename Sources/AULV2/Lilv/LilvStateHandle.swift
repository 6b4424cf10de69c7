import CLilv

/// An owned `LilvState*`: a plugin state or preset, from the world's data, from Turtle, or
/// captured from an instance. Freed when the last reference goes.
/// - Thread: [control]
final class LilvStateHandle: @unchecked Sendable {
    private let world: LV2World
    private let raw: OpaquePointer

    /// What a port's value is in a state: the value's bytes, their size, their type's URID.
    typealias PortValue = (value: UnsafeRawPointer, size: UInt32, type: UInt32)

    /// Takes ownership of `raw` (nil gives nil).
    private init?(owning raw: OpaquePointer?, world: LV2World) {
        guard let raw else { return nil }
        self.raw = raw
        self.world = world
    }

    deinit { world.locked { lilv_state_free(raw) } }

    /// A state described in the world's data (a preset, or a plugin's default state), or nil.
    convenience init?(resource uri: String, world: LV2World) {
        let made: OpaquePointer? = world.locked {
            let node = uri.withCString { lilv_new_uri(world.raw, $0) }
            defer { lilv_node_free(node) }
            lilv_world_load_resource(world.raw, node)
            return lilv_state_new_from_world(world.raw, world.urids.mapFeatureData, node)
        }
        self.init(owning: made, world: world)
    }

    /// A state from Turtle made by ``turtle()``, or nil.
    convenience init?(turtle: String, world: LV2World) {
        let made: OpaquePointer? = world.locked { turtle.withCString { lilv_state_new_from_string(world.raw, world.urids.mapFeatureData, $0) } }
        self.init(owning: made, world: world)
    }

    /// The state of a running instance: port values from `portValue` (by port symbol; nil
    /// leaves the port out), properties from the plugin's state interface. Files the plugin
    /// saves go to `directory` (nil: none may be saved); `scratchDirectory` is its scratch.
    convenience init?(
        capturing instance: LilvInstanceHandle, of plugin: LilvPluginHandle, scratchDirectory: String, directory: String?,
        flags: UInt32, features: UnsafePointer<UnsafePointer<LV2_Feature>?>, portValue: (String) -> PortValue?
    ) {
        let world = plugin.world
        let made: OpaquePointer? = withoutActuallyEscaping(portValue) { portValue in
            var context = portValue
            return withUnsafeMutablePointer(to: &context) { context in
                scratchDirectory.withCString { scratch in
                    withOptionalCString(directory) { directory in
                        world.locked {
                            lilv_state_new_from_instance(
                                plugin.raw, instance.raw, world.urids.mapFeatureData, scratch, directory, directory, directory,
                                { symbol, context, size, type in
                                    guard let symbol, let context, let size, let type else { return nil }
                                    let portValue = context.assumingMemoryBound(to: ((String) -> PortValue?).self).pointee
                                    guard let found = portValue(String(cString: symbol)) else { return nil }
                                    size.pointee = found.size
                                    type.pointee = found.type
                                    return found.value
                                },
                                context, flags, features)
                        }
                    }
                }
            }
        }
        self.init(owning: made, world: world)
    }

    /// The URI of the plugin the state belongs to.
    var pluginURI: String? { world.locked { LilvNodeHandle.string(lilv_state_get_plugin_uri(raw)) } }

    /// How many plugin properties (beyond port values) the state holds.
    var propertyCount: Int { world.locked { Int(lilv_state_get_num_properties(raw)) } }

    /// Calls `body` with each port value the state holds, by port symbol.
    func forEachPortValue(_ body: (String, PortValue) -> Void) {
        withoutActuallyEscaping(body) { body in
            var context = body
            withUnsafeMutablePointer(to: &context) { context in
                world.locked {
                    lilv_state_emit_port_values(raw, { symbol, context, value, size, type in
                        guard let symbol, let context, let value else { return }
                        let body = context.assumingMemoryBound(to: ((String, PortValue) -> Void).self).pointee
                        body(String(cString: symbol), (value, size, type))
                    }, context)
                }
            }
        }
    }

    /// The state as Turtle (the `ClassInfo` custom data), or nil; file URIs under `base` (a
    /// directory's `file:` URI ending in `/`) are written relative to it.
    func turtle(base: String? = nil) -> String? {
        world.locked {
            let made = withOptionalCString(base) { base in
                lilv_state_to_string(world.raw, world.urids.mapFeatureData, world.urids.unmapFeatureData, raw, "urn:auhost:state", base)
            }
            guard let text = made else { return nil }
            defer { lilv_free(text) }
            return String(cString: text)
        }
    }

    /// Labels the state and saves it as a preset bundle: `fileName` and `manifest.ttl` in
    /// `directory`, the preset named `uri`. Returns lilv's status (0: saved).
    func save(label: String, uri: String, directory: String, fileName: String) -> Int32 {
        label.withCString { label in
            uri.withCString { uri in
                directory.withCString { directory in
                    fileName.withCString { fileName in
                        world.locked {
                            lilv_state_set_label(raw, label)
                            return lilv_state_save(
                                world.raw, world.urids.mapFeatureData, world.urids.unmapFeatureData, raw, uri, directory, fileName)
                        }
                    }
                }
            }
        }
    }

    /// Restores the state's properties into a running instance (port values are the
    /// caller's, through ``forEachPortValue(_:)``). The caller keeps `run()` out meanwhile.
    func restore(into instance: LilvInstanceHandle, features: UnsafePointer<UnsafePointer<LV2_Feature>?>) {
        world.locked { lilv_state_restore(raw, instance.raw, nil, nil, 0, features) }
    }
}

/// Calls `body` with `text` as a C string, or with nil.
private func withOptionalCString<Result>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
