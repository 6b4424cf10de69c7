@testable import AUPresets
import Foundation
import Testing

/// docs/preset.schema.json must describe the format the code reads.
@Suite struct SchemaTests {
    static let schemaPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/preset.schema.json").path

    func object(_ node: JSONNode?) -> [String: JSONNode] {
        guard case .object(let members)? = node?.value else { return [:] }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    func keys(_ node: JSONNode?) -> [String] {
        guard case .object(let members)? = node?.value else { return [] }
        return members.map(\.key)
    }

    @Test func theSchemaNamesTheKeysTheLoaderReads() throws {
        let root = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: Self.schemaPath))))
        let schema = object(root)
        guard case .string(let dialect)? = schema["$schema"]?.value else { Issue.record("no $schema"); return }
        #expect(dialect == "https://json-schema.org/draft/2020-12/schema")
        #expect(keys(schema["properties"]) == ChainPreset.keys)
        let node = object(object(schema["$defs"])["node"])
        #expect(keys(node["properties"]) == PresetNode.keys)
        guard case .number(let version)? = object(object(schema["properties"])["auhost"])["const"]?.value else {
            Issue.record("no auhost const"); return
        }
        #expect(version == Double(ChainPreset.schemaVersion))
    }
}
