import AUCore
import CLilv
import Foundation

/// One lilv world: every bundle on the LV2 path loaded once, the interned nodes and the
/// URID map its units share. Units keep their world alive.
///
/// lilv is not thread-safe, so every lilv query goes through ``withLock(_:)`` (a recursive
/// lock; queries are control-thread work and never happen on the render thread).
/// - Thread: control.
final class LV2World: @unchecked Sendable {
    /// The `LilvWorld*`; use only inside ``withLock(_:)``.
    let raw: OpaquePointer
    let urids: URIDMap
    let nodes: LV2Nodes
    /// The LV2_PATH this world loaded (nil: the environment's or lilv's default).
    let lv2Path: String?
    private let lock = NSRecursiveLock()

    /// Loads every bundle on `lv2Path` (a colon-separated list), or on `LV2_PATH` / lilv's
    /// default when nil. Bundles are read lazily by lilv: only manifests load here.
    /// - Thread: control.
    init(lv2Path: String?) {
        raw = lilv_world_new()
        self.lv2Path = lv2Path
        if let lv2Path {
            let value = lilv_new_string(raw, lv2Path)
            lilv_world_set_option(raw, LILV_OPTION_LV2_PATH, value)
            lilv_node_free(value)
        }
        lilv_world_load_all(raw)
        nodes = LV2Nodes(world: raw)
        urids = URIDMap()
    }

    deinit {
        nodes.free()
        lilv_world_free(raw)
    }

    /// Runs `body` holding the world's lock.
    /// - Thread: control (never the render thread).
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        RenderThread.assertNotCurrent("LV2World.withLock")
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Every plugin the world loaded, in lilv's order. The pointers live as long as the world.
    /// - Thread: control, inside ``withLock(_:)``.
    var plugins: [OpaquePointer] {
        var found: [OpaquePointer] = []
        let all = lilv_world_get_all_plugins(raw)
        var iterator = lilv_plugins_begin(all)
        while !lilv_plugins_is_end(all, iterator) {
            if let plugin = lilv_plugins_get(all, iterator) { found.append(plugin) }
            iterator = lilv_plugins_next(all, iterator)
        }
        return found
    }

    /// The plugin with `uri`, or nil. The pointer lives as long as the world.
    /// - Thread: control, inside ``withLock(_:)``.
    func plugin(uri: String) -> OpaquePointer? {
        let node = lilv_new_uri(raw, uri)
        defer { lilv_node_free(node) }
        return lilv_plugins_get_by_uri(lilv_world_get_all_plugins(raw), node)
    }

    /// A new owned URI node.
    func makeURI(_ uri: String) -> LV2Node { LV2Node(owning: lilv_new_uri(raw, uri)) }
}

/// An owned `LilvNode*`, freed when the last reference goes.
/// - Thread: control.
final class LV2Node: @unchecked Sendable {
    let raw: OpaquePointer?
    init(owning raw: OpaquePointer?) { self.raw = raw }
    deinit { lilv_node_free(raw) }
    var string: String? { LV2Node.string(raw) }

    /// The text of a node lilv owns (a URI, a literal), or nil.
    static func string(_ node: OpaquePointer?) -> String? {
        guard let node, let text = lilv_node_as_string(node) else { return nil }
        return String(cString: text)
    }
}

/// Walks a `LilvNodes*` collection.
/// - Thread: control, inside the world's lock.
func forEachNode(_ collection: UnsafeRawPointer?, _ body: (OpaquePointer) -> Void) {
    guard let collection else { return }
    var iterator = lilv_nodes_begin(collection)
    while !lilv_nodes_is_end(collection, iterator) {
        if let node = lilv_nodes_get(collection, iterator) { body(node) }
        iterator = lilv_nodes_next(collection, iterator)
    }
}

/// The strings of an owned `LilvNodes*`, which this frees.
func takeStrings(_ nodes: UnsafeMutableRawPointer?) -> [String] {
    var result: [String] = []
    forEachNode(nodes) { if let text = LV2Node.string($0) { result.append(text) } }
    lilv_nodes_free(nodes)
    return result
}
