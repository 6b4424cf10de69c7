/// A path to a value inside a JSON document, printed the way problems name it:
/// `nodes[2].parameters.gain`, `connections[0][1]`, `parameters["in.1"]`; the document
/// itself is `$`.
/// - Thread: [any] (a plain value).
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// One step: a member of an object or an element of an array.
    /// - Thread: [any]
    public enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    /// - Thread: [any]
    public init(_ components: [Component] = []) { self.components = components }

    /// The document itself.
    public static let root = JSONPath()

    /// This path followed by a member key.
    /// - Thread: [any]
    public func key(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }

    /// This path followed by an array index.
    /// - Thread: [any]
    public func index(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

    /// - Thread: [any]
    public var description: String {
        if components.isEmpty { return "$" }
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isPlainKey(key):
                text += text.isEmpty ? key : ".\(key)"
            case .key(let key):
                text += "[\(quoted(key))]"
            }
        }
        return text
    }

    /// Keys made of letters, digits, `_` and `-` (not starting with a digit) print bare.
    static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }
}
