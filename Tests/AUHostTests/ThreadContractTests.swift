import AUHost
import Foundation
import Testing

/// The thread contract: every public declaration names its thread class in one tag, and a
/// debug build stops a control-side call made from inside a render call.
@Suite struct ThreadContractTests {
    /// `- Thread: [control]`, `[render]`, `[worker]`, `[any]`, with a state when it matters
    /// (`[render & initialized]`).
    nonisolated(unsafe) static let tag = #/- Thread: \[(control|render|worker|any)( & [a-z ]+)?\]/#
    nonisolated(unsafe) static let declaration = #/^\s*(@[\w.]+(\([^)]*\))?\s+)*((public|open|final|static|class|override|mutating|nonisolated|convenience|required|indirect|lazy|private\(set\)|unowned\(unsafe\))\s+)*(func|init|var|let|subscript|class|struct|enum|protocol|typealias|actor|extension|case)\b(.*)$/#
    nonisolated(unsafe) static let attribute = #/^\s*(@[\w.]+(\([^)]*\))?\s*)+$/#

    /// The public declarations of one file that carry no tag: types, functions,
    /// initializers, subscripts, type aliases and computed properties carry their own;
    /// stored properties and enum cases are their type's values and take its tag.
    static func untagged(in text: String) -> [Int] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var inMultilineString = false
        var typeKinds: [String] = []
        var missing: [Int] = []
        for (index, line) in lines.enumerated() {
            if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inMultilineString.toggle(); continue }
            guard !inMultilineString, let match = line.wholeMatch(of: declaration) else { continue }
            let kind = String(match.output.5)
            let modifiers = line[..<match.output.5.startIndex].split(separator: " ")
            if kind == "protocol" { typeKinds.append("protocol") }
            guard modifiers.contains("public") || modifiers.contains("open"), kind != "case", kind != "extension" else { continue }
            let rest = String(match.output.6)
            if kind == "let" { continue }
            if kind == "var" {
                let code = rest.components(separatedBy: "//")[0]
                let isComputed = code.contains("{") && !(code.components(separatedBy: "{")[0].contains("="))
                if !isComputed { continue }
            }
            var above = index - 1
            while above >= 0, lines[above].wholeMatch(of: attribute) != nil { above -= 1 }
            var documentation = ""
            while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                documentation = lines[above] + "\n" + documentation
                above -= 1
            }
            if documentation.firstMatch(of: tag) == nil { missing.append(index + 1) }
        }
        return missing
    }

    @Test func everyPublicDeclarationNamesItsThreadClass() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100, "found only \(files.count) source files under \(root.path)")
        var missing: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            missing += Self.untagged(in: text).map { "Sources/\(file):\($0)" }
        }
        #expect(missing.isEmpty, "\(missing.count) public declarations without a thread tag, first:\n\(missing.prefix(40).joined(separator: "\n"))")
    }

    @Test func theCheckerFindsAnUntaggedDeclaration() {
        let source = """
            /// Tagged.
            /// - Thread: [render & initialized]
            @inlinable @inline(__always)
            public func tagged() {}
            /// Not tagged.
            public func untagged() {}
            public let stored = 1
            public var computed: Int { 1 }
            static func open(_ path: String) {}
            """
        #expect(Self.untagged(in: source) == [6, 8])
    }

    #if DEBUG
    @Test func aControlCallOnTheRenderThreadTrapsInDebugBuilds() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = AudioGraph()
            let node = try graph.addNode(ComponentRegistry(providers: [BuiltinUnits()]).instantiate("aumx:mcmx:AUHs"))
            RenderThread.run { try? graph.removeNode(node) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("AudioGraph.removeNode called on the render thread"), "\(message)")
    }

    @Test func theSameCallOffTheRenderThreadIsFine() throws {
        let graph = AudioGraph()
        let node = try graph.addNode(ComponentRegistry(providers: [BuiltinUnits()]).instantiate("aumx:mcmx:AUHs"))
        try graph.removeNode(node)
        #expect(graph.nodes.isEmpty)
    }
    #endif
}
