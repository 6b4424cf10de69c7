/// A number as a preset file and its messages write it: whole values without a fraction
/// (`48000`, `-24`), others in the shortest form that reads back to the same Double (`0.1`).
/// - Thread: [any]
func formatNumber(_ number: Double) -> String {
    if number == number.rounded(), abs(number) < 1e15 {
        return number == 0 ? "0" : String(Int64(number))
    }
    return "\(number)"
}

/// A Float as its shortest decimal, so `0.1` stays `0.1` and not `0.10000000149011612`.
/// - Thread: [any]
func formatNumber(_ number: Float) -> String { formatNumber(decimalDouble(number)) }

/// The Double whose shortest decimal form is the Float's: what a captured Float is saved as.
/// - Thread: [any]
func decimalDouble(_ number: Float) -> Double {
    guard number.isFinite else { return Double(number) }
    return Double("\(number)") ?? Double(number)
}

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
/// "one of N, such as: …" naming the few that look most like `text`, so the line stays readable.
/// - Thread: [any]
func choices(_ items: [String], near text: String, limit: Int = 16) -> String {
    guard items.count > limit else { return "one of: \(listing(items))" }
    let needle = text.lowercased()
    func score(_ item: String) -> (Int, Int, Int) {
        let lowered = item.lowercased()
        let shared = zip(lowered, needle).prefix { $0 == $1 }.count
        let related = lowered.contains(needle) || needle.contains(lowered)
        return (related ? 0 : 1, -shared, abs(lowered.count - needle.count))
    }
    let closest = items.enumerated().sorted { left, right in
        let a = score(left.element), b = score(right.element)
        return a != b ? a < b : left.offset < right.offset
    }.prefix(6).map(\.element)
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
