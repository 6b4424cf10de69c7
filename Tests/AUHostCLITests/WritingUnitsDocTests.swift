import Foundation
import Testing

/// docs/WRITING-UNITS.md names every `PluginParameterUnit` case, and no other.
@Suite struct WritingUnitsDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// The names in `text` matching `pattern`'s first capture group.
    static func names(_ pattern: String, in text: String) throws -> Set<String> {
        let expression = try NSRegularExpression(pattern: pattern)
        return Set(expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        })
    }

    @Test func theParameterUnitListMatchesPluginParameterUnit() throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent("Sources/AUPluginSDK/PluginParameterUnit.swift"), encoding: .utf8)
        let cases = try Self.names(#"public static let (\w+) = PluginParameterUnit\("#, in: source)
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/WRITING-UNITS.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "`PluginParameterUnit`'s cases are"))
        let paragraph = String(doc[start.lowerBound...]).components(separatedBy: "\n\n")[0]
        let documented = try Self.names(#"`\.(\w+)`"#, in: paragraph)
        #expect(cases.count >= 20, "read \(cases.sorted()) from PluginParameterUnit.swift")
        #expect(documented == cases, "documented only: \(documented.subtracting(cases).sorted()); not documented: \(cases.subtracting(documented).sorted())")
    }
}
