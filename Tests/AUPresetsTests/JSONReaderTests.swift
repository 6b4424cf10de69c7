@testable import AUPresets
import Foundation
import Testing

@Suite struct JSONReaderTests {
    func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode { try JSONParser.parse(Array(text.utf8)) }

    @Test func trueIsNotOne() throws {
        let node = try parse(#"[true, 1, 1.0, false, 0, null]"#)
        guard case .array(let elements) = node.value else { Issue.record("not an array"); return }
        #expect(elements.map(\.foundDescription) == ["true", "the number 1", "the number 1", "false", "the number 0", "null"])
    }

    @Test(arguments: [
        ("", "expected a JSON value, found the end of the file at line 1, column 1", "$"),
        ("{\"a\": 1,}", "expected a member name in double quotes, found '}' at line 1, column 9", "a"),
        ("{\"a\" 1}", "expected ':' after the member name, found '1' at line 1, column 6", "a"),
        ("[01]", "expected no leading zero in a number, found '1' at line 1, column 3", "[0]"),
        ("{\"a\": [1, 2}", "expected ',' or ']' after the element, found '}' at line 1, column 12", "a[1]"),
        ("{\"a\": \"x\ny\"}", "expected '\"' to close the string or an escape such as \\n, found the end of the line at line 1, column 9", "a"),
        ("{\"é\": tru}", "expected 'true', found '}' at line 1, column 10", "é"),
        ("{} {}", "expected the end of the file after the document, found '{' at line 1, column 4", "$"),
        ("// comment\n{}", "expected a value (an object, array, string, number, true, false or null), found '/' at line 1, column 1", "$"),
        ("[1e999]", "expected a number within Double's range, found 1e999 at line 1, column 2", "[0]"),
        ("[\"\\ud800\"]", "expected a low surrogate \\uDC00...\\uDFFF after \\ud800, found '\"' at line 1, column 9", "[0]"),
    ])
    func syntaxErrorsSayWhereAndWhat(text: String, message: String, path: String) {
        do {
            _ = try parse(text)
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.message == message)
            #expect(error.path.description == path)
        }
    }

    @Test func escapesAndUnicodeRoundTrip() throws {
        let text = "tab\t quote\" backslash\\ newline\n bell\u{07} é 𝄞"
        let written = JSONWriter.write(JSONWriter.node(.string(text)))
        let node = try parse(written)
        guard case .string(let read) = node.value else { Issue.record("not a string"); return }
        #expect(read == text)
        #expect(written == "\"tab\\t quote\\\" backslash\\\\ newline\\n bell\\u0007 é 𝄞\"\n")
        let surrogates = try parse(#""\ud834\udd1e""#)
        guard case .string(let clef) = surrogates.value else { Issue.record("not a string"); return }
        #expect(clef == "𝄞")
    }

    @Test func positionsCountCharactersNotBytes() throws {
        let node = try parse("{\"é\": \n  [1, \"ü\", 3]}")
        guard case .object(let members) = node.value, case .array(let elements) = members[0].value.value else {
            Issue.record("unexpected shape"); return
        }
        #expect(members[0].keyPosition == JSONPosition(line: 1, column: 2))
        #expect(elements.map(\.position) == [JSONPosition(line: 2, column: 4), JSONPosition(line: 2, column: 7), JSONPosition(line: 2, column: 12)])
    }

    @Test func pathsQuoteKeysThatAreNotPlain() {
        let path = JSONPath.root.key("nodes").index(2).key("parameters").key("in.1").key("gain")
        #expect(path.description == #"nodes[2].parameters["in.1"].gain"#)
        #expect(JSONPath.root.description == "$")
    }

    @Test func deepNestingIsRefusedNotCrashed() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONSyntaxError.self) { try parse(text) }
    }
}
