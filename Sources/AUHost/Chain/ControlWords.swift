/// The words of a control line, and the quoting that makes a value one word again: words
/// are separated by spaces and tabs; a word in double quotes may hold spaces and tabs
/// (`set cab band1_shape "Low Shelf"`), with `\"` for a quote and `\\` for a backslash inside
/// it. Replies quote the same way (`get` of a value with a space prints it quoted), so what
/// `get` prints, `set` takes. The line is read as Unicode scalars, so a combining mark never
/// joins a separator or a quote.
/// - Thread: [any]
public enum ControlWords {
    /// The words of `line`; an opening quote without a closing one is an error.
    /// - Thread: [any]
    public static func split(_ line: String) throws(ControlCommandError) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var inWord = false, quoted = false, escaped = false
        for scalar in line.unicodeScalars {
            if quoted {
                if escaped {
                    word.append(scalar)
                    escaped = false
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == "\"" {
                    quoted = false
                } else {
                    word.append(scalar)
                }
            } else if scalar == " " || scalar == "\t" {
                if inWord { words.append(String(word)) }
                word = String.UnicodeScalarView()
                inWord = false
            } else if scalar == "\"" {
                quoted = true
                inWord = true
            } else {
                word.append(scalar)
                inWord = true
            }
        }
        guard !quoted else { throw ControlCommandError("a quoted word has no closing quote; expected \"…\" around a value with spaces") }
        if inWord { words.append(String(word)) }
        return words
    }

    /// `text` as one word: as it is, or in double quotes (with `"` and `\` escaped) when it
    /// is empty or holds a space, a tab, a quote or a backslash.
    /// - Thread: [any]
    public static func quoted(_ text: String) -> String {
        let special = text.isEmpty || text.unicodeScalars.contains { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "\\" }
        guard special else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(scalar)
        }
        return "\"" + escaped + "\""
    }
}
