/// Why a text is not JSON: where (line, column and the path being read) and what was
/// expected against what was found.
/// - Thread: [any] (a plain value).
struct JSONSyntaxError: Error, Sendable {
    var position: JSONPosition
    var path: JSONPath
    var message: String
}

/// A strict JSON reader (RFC 8259: no comments, no trailing commas) that keeps the
/// position of every value, so a preset's problems can say where they are.
/// - Thread: [any]; one parser per document.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    private var path = JSONPath.root
    private var depth = 0

    /// Nesting deeper than this is refused rather than risking the stack.
    static let maximumDepth = 200

    /// Parses one JSON document (a UTF-8 byte order mark is skipped).
    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        guard parser.index < bytes.count else { throw parser.failure("expected a JSON value") }
        let node = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("expected the end of the file after the document") }
        return node
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var position: JSONPosition { JSONPosition(line: line, column: column) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    /// "…, found 'x'" naming the character at the current position (or the end of the file).
    private func failure(_ expected: String, at where: JSONPosition? = nil) -> JSONSyntaxError {
        let found: String
        if let byte = current {
            var end = index + 1
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            let character = String(decoding: bytes[index..<end], as: UTF8.self)
            switch byte {
            case UInt8(ascii: "\n"): found = "the end of the line"
            case 0..<0x20: found = "control character U+" + String(byte, radix: 16, uppercase: true)
            default: found = "'\(character)'"
            }
        } else {
            found = "the end of the file"
        }
        let at = `where` ?? position
        return JSONSyntaxError(position: at, path: path, message: "\(expected), found \(found) at line \(at.line), column \(at.column)")
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { advance() }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        let start = position
        guard let byte = current else { throw failure("expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"): try parseLiteral("true"); return JSONNode(value: .bool(true), position: start)
        case UInt8(ascii: "f"): try parseLiteral("false"); return JSONNode(value: .bool(false), position: start)
        case UInt8(ascii: "n"): try parseLiteral("null"); return JSONNode(value: .null, position: start)
        default: throw failure("expected a value (an object, array, string, number, true, false or null)")
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw failure("expected at most \(Self.maximumDepth) levels of nesting") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONNode {
        let start = position
        try enter()
        advance()
        var members: [JSONMember] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            advance()
            depth -= 1
            return JSONNode(value: .object([]), position: start)
        }
        let outer = path
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw failure(members.isEmpty ? "expected a member name in double quotes or '}'" : "expected a member name in double quotes")
            }
            let keyPosition = position
            let key = try parseString()
            path = outer.key(key)
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after the member name") }
            advance()
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                advance()
                continue
            }
            guard current == UInt8(ascii: "}") else { throw failure("expected ',' or '}' after the member") }
            advance()
            path = outer
            depth -= 1
            return JSONNode(value: .object(members), position: start)
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONNode {
        let start = position
        try enter()
        advance()
        var elements: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            advance()
            depth -= 1
            return JSONNode(value: .array([]), position: start)
        }
        let outer = path
        while true {
            path = outer.index(elements.count)
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                advance()
                continue
            }
            guard current == UInt8(ascii: "]") else { throw failure("expected ',' or ']' after the element") }
            advance()
            path = outer
            depth -= 1
            return JSONNode(value: .array(elements), position: start)
        }
    }

    private mutating func parseLiteral(_ word: String) throws(JSONSyntaxError) {
        for expected in word.utf8 {
            guard current == expected else { throw failure("expected '\(word)'") }
            advance()
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONNode {
        let start = position
        let first = index
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false }
        if current == UInt8(ascii: "-") { advance() }
        if current == UInt8(ascii: "0") {
            advance()
            if isDigit(current) { throw failure("expected no leading zero in a number") }
        } else if isDigit(current) {
            while isDigit(current) { advance() }
        } else {
            throw failure("expected a digit")
        }
        if current == UInt8(ascii: ".") {
            advance()
            guard isDigit(current) else { throw failure("expected a digit after the decimal point") }
            while isDigit(current) { advance() }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard isDigit(current) else { throw failure("expected a digit in the exponent") }
            while isDigit(current) { advance() }
        }
        let text = String(decoding: bytes[first..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            throw JSONSyntaxError(position: start, path: path, message: "expected a number within Double's range, found \(text) at line \(start.line), column \(start.column)")
        }
        return JSONNode(value: .number(number), position: start)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        advance()
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() throws(JSONSyntaxError) {
            guard !run.isEmpty else { return }
            guard let text = String(validating: run, as: UTF8.self) else {
                throw JSONSyntaxError(position: start, path: path, message: "expected UTF-8 text in the string at line \(start.line), column \(start.column)")
            }
            scalars.append(contentsOf: text.unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while true {
            guard let byte = current else { throw failure("expected '\"' to close the string begun at line \(start.line), column \(start.column)") }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                try flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush()
                advance()
                scalars.append(try parseEscape())
            case 0..<0x20:
                throw failure("expected '\"' to close the string or an escape such as \\n")
            default:
                run.append(byte)
                advance()
            }
        }
    }

    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw failure("expected an escape character") }
        let simple: [UInt8: Unicode.Scalar] = [
            UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/", UInt8(ascii: "b"): "\u{08}",
            UInt8(ascii: "f"): "\u{0C}", UInt8(ascii: "n"): "\n", UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
        ]
        if let scalar = simple[byte] {
            advance()
            return scalar
        }
        guard byte == UInt8(ascii: "u") else { throw failure("expected an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX") }
        advance()
        let high = try parseHex4()
        if (0xD800..<0xDC00).contains(high) {
            guard current == UInt8(ascii: "\\") else { throw failure("expected a low surrogate \\uDC00...\\uDFFF after \\u\(String(high, radix: 16))") }
            advance()
            guard current == UInt8(ascii: "u") else { throw failure("expected a low surrogate \\uDC00...\\uDFFF") }
            advance()
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("expected a low surrogate \\uDC00...\\uDFFF") }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else { throw failure("expected a Unicode scalar, not a lone surrogate") }
        return scalar
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexValue(byte) else { throw failure("expected four hexadecimal digits after \\u") }
            value = value << 4 | digit
            advance()
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
