import AUCore

/// Writes JSON in the one stable layout preset files use: two-space indentation, one
/// member per line, members in the order given, arrays of plain values (strings, numbers,
/// booleans) on one line, a final newline. The same value always gives the same bytes.
/// - Thread: [any]
enum JSONWriter {
    static func write(_ node: JSONNode) -> String {
        var output = ""
        append(node.value, indent: 0, to: &output)
        output += "\n"
        return output
    }

    /// A value built in code, with no position in any file.
    static func node(_ value: JSONNode.Value) -> JSONNode { JSONNode(value: value, position: JSONPosition(line: 0, column: 0)) }

    /// An object built in code, members in this order.
    static func object(_ members: [(String, JSONNode.Value)]) -> JSONNode.Value {
        .object(members.map { JSONMember(key: $0.0, keyPosition: JSONPosition(line: 0, column: 0), value: node($0.1)) })
    }

    private static func isFlat(_ value: JSONNode.Value) -> Bool {
        switch value {
        case .object(let members): members.isEmpty
        case .array(let elements): elements.allSatisfy { if case .object = $0.value { false } else if case .array = $0.value { false } else { true } }
        default: true
        }
    }

    private static func append(_ value: JSONNode.Value, indent: Int, to output: inout String) {
        switch value {
        case .object(let members):
            if members.isEmpty { output += "{}"; return }
            output += "{\n"
            let inner = String(repeating: " ", count: indent + 2)
            for (offset, member) in members.enumerated() {
                output += inner + "\""
                appendJSONEscaped(member.key, to: &output)
                output += "\": "
                append(member.value.value, indent: indent + 2, to: &output)
                output += offset == members.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: " ", count: indent) + "}"
        case .array(let elements):
            if isFlat(value) {
                output += "["
                for (offset, element) in elements.enumerated() {
                    if offset > 0 { output += ", " }
                    append(element.value, indent: indent, to: &output)
                }
                output += "]"
                return
            }
            output += "[\n"
            let inner = String(repeating: " ", count: indent + 2)
            for (offset, element) in elements.enumerated() {
                output += inner
                append(element.value, indent: indent + 2, to: &output)
                output += offset == elements.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: " ", count: indent) + "]"
        case .string(let text):
            output += "\""
            appendJSONEscaped(text, to: &output)
            output += "\""
        case .number(let number):
            output += formatNumber(number)
        case .bool(let flag):
            output += flag ? "true" : "false"
        case .null:
            output += "null"
        }
    }
}
