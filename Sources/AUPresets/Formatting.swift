import AUCore

/// Text in double quotes with JSON escapes, shortened past `limit` characters, for messages.
/// - Thread: [any]
func quoted(_ text: String, limit: Int = 60) -> String {
    let shown = text.count > limit ? String(text.prefix(limit - 3)) + "..." : text
    var result = "\""
    appendJSONEscaped(shown, to: &result)
    return result + "\""
}

/// A list for "expected one of: a, b, c" messages.
/// - Thread: [any]
func listing(_ items: [String]) -> String { items.joined(separator: ", ") }

/// "one of: a, b, c" for a short list; for a long one (a mixer's hundreds of parameters)
/// "one of N, such as: …" naming the few nearest `text` (AUCore's ``nearest(_:to:keys:)``),
/// so the line stays readable.
/// - Thread: [any]
func choices(_ items: [String], near text: String, limit: Int = 16) -> String {
    guard items.count > limit else { return "one of: \(listing(items))" }
    let closest = nearest(items, to: text) { [$0] }.prefix(6).map(\.item)
    return "one of \(items.count), such as: \(listing(closest))"
}

/// Appends `text` with the escapes JSON requires (quote, backslash, control characters).
/// - Thread: [any]
func appendJSONEscaped(_ text: String, to output: inout String) {
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": output += "\\\""
        case "\\": output += "\\\\"
        case "\n": output += "\\n"
        case "\r": output += "\\r"
        case "\t": output += "\\t"
        case "\u{08}": output += "\\b"
        case "\u{0C}": output += "\\f"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default:
            output.unicodeScalars.append(scalar)
        }
    }
}
