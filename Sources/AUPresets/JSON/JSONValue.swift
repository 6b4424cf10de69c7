import AUCore

/// Where a JSON value starts in its file: 1-based line and column (columns count
/// characters, not bytes).
/// - Thread: [any] (a plain value).
struct JSONPosition: Hashable, Sendable {
    var line: Int
    var column: Int
}

/// A parsed JSON value that remembers where it was written, so problems can name the line.
/// Objects keep their members in file order, duplicates included (the decoder reports them).
/// - Thread: [any] (a plain value).
struct JSONNode: Sendable {
    indirect enum Value: Sendable {
        case object([JSONMember])
        case array([JSONNode])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    var value: Value
    var position: JSONPosition
}

/// One `"key": value` member of a JSON object.
/// - Thread: [any] (a plain value).
struct JSONMember: Sendable {
    var key: String
    var keyPosition: JSONPosition
    var value: JSONNode
}

extension JSONNode {
    /// What the value is, for "expected …, found …" messages: `the number 1`,
    /// `the string "abc"`, `true`, `null`, `an array`, `an object`.
    var foundDescription: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string(let text): "the string \(quoted(text))"
        case .number(let number): "the number \(formatNumber(number))"
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        }
    }
}
