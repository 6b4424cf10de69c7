import CLilv

/// An owned `LilvNode*` (a value lilv looked up: a name, a group, a preset), freed when the
/// last reference goes. Its text and number are read under the world's lock.
/// - Thread: [control]
final class LilvNodeHandle: @unchecked Sendable {
    /// The `LilvNode*`; used only in this folder.
    let raw: OpaquePointer
    private let world: LV2World

    /// Takes ownership of `raw` (nil gives nil). Call inside the world's lock.
    init?(owning raw: OpaquePointer?, world: LV2World) {
        guard let raw else { return nil }
        self.raw = raw
        self.world = world
    }

    /// Owns a copy of a node lilv keeps (in a collection). Call inside the world's lock.
    convenience init?(copying node: OpaquePointer?, world: LV2World) {
        self.init(owning: node.flatMap { lilv_node_duplicate($0) }, world: world)
    }

    deinit { world.locked { lilv_node_free(raw) } }

    /// The node's text (a URI, a literal, a blank node's ID).
    var string: String? { world.locked { Self.string(raw) } }

    /// The node's integer, when it is one.
    var integer: Int? { world.locked { lilv_node_is_int(raw) ? Int(lilv_node_as_int(raw)) : nil } }

    /// The text of a node lilv owns, copied. Call inside the world's lock.
    static func string(_ node: OpaquePointer?) -> String? {
        guard let node, let text = lilv_node_as_string(node) else { return nil }
        return String(cString: text)
    }

    /// The strings of a `LilvNodes*` collection, copied. Call inside the world's lock.
    static func strings(_ collection: UnsafeRawPointer?) -> [String] {
        var result: [String] = []
        forEach(collection) { if let text = string($0) { result.append(text) } }
        return result
    }

    /// Walks a `LilvNodes*` collection. Call inside the world's lock.
    static func forEach(_ collection: UnsafeRawPointer?, _ body: (OpaquePointer) -> Void) {
        guard let collection else { return }
        var iterator = lilv_nodes_begin(collection)
        while !lilv_nodes_is_end(collection, iterator) {
            if let node = lilv_nodes_get(collection, iterator) { body(node) }
            iterator = lilv_nodes_next(collection, iterator)
        }
    }

    /// The local path of a `file:` URI node lilv owns. Call inside the world's lock.
    static func filePath(_ node: OpaquePointer?) -> String? {
        guard let node, let uri = lilv_node_as_uri(node), let path = lilv_file_uri_parse(uri, nil) else { return nil }
        defer { lilv_free(path) }
        return String(cString: path)
    }
}
