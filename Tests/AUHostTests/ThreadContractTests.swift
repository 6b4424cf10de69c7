import AUHost
import AUTestSupport
import Foundation
import Testing

/// The thread contract: every public declaration names its thread class in one tag, a render
/// entry point names the render thread, and a debug build stops a control-side call made
/// from inside a render call.
@Suite struct ThreadContractTests {
    /// `- Thread: [control]`, `[render]`, `[worker]`, `[any]`, with a state when it matters
    /// (`[render & initialized]`).
    nonisolated(unsafe) static let tag = #/- Thread: \[(control|render|worker|any)( & [a-z ]+)?\]/#
    nonisolated(unsafe) static let declaration = #/^\s*(@[\w.]+(\([^)]*\))?\s+)*((public|open|package|internal|fileprivate|private|final|static|class|override|mutating|nonisolated|convenience|required|indirect|lazy|private\(set\)|internal\(set\)|unowned\(unsafe\))\s+)*(func|init|var|let|subscript|class|struct|enum|protocol|typealias|actor|extension|case)\b(.*)$/#
    nonisolated(unsafe) static let attribute = #/^\s*(@[\w.]+(\([^)]*\))?\s*)+$/#
    nonisolated(unsafe) static let directive = #/^\s*#(if|elseif|else|endif)\b.*$/#

    /// What is wrong with one declaration.
    enum Breach: Equatable {
        /// A public declaration that takes its own tag has none.
        case untagged
        /// More than one `- Thread:` line: a declaration runs in one thread class.
        case twoTags
        /// A render entry point (``isRenderEntryPoint(name:signature:)``) tagged other than `[render]`.
        case renderEntryPointOffTheRenderThread
    }

    /// A breach and the line of its declaration.
    struct Finding: Equatable {
        let line: Int
        let breach: Breach
    }

    /// Whether a function is called by the render loop: a unit's render hook
    /// (`process(_:)` with a `ProcessContext`), a `render…` function that takes a
    /// `RenderTimestamp` (a unit's, a graph's or its renderer's cycle), or one named `…FromRender`.
    static func isRenderEntryPoint(name: String, signature: String) -> Bool {
        name.hasSuffix("FromRender") || (name == "process" && signature.contains("ProcessContext"))
            || (name.hasPrefix("render") && signature.contains("RenderTimestamp"))
    }

    /// The doc comment of the declaration on line `index`: the `///` lines above it, read
    /// past attributes and conditional compilation (a declaration in an `#else` branch takes
    /// the comment above its `#if`).
    static func documentation(above index: Int, in lines: [String]) -> String {
        var documentation = ""
        var above = index - 1
        while above >= 0 {
            let line = lines[above]
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                documentation = line + "\n" + documentation
                above -= 1
            } else if line.wholeMatch(of: attribute) != nil {
                above -= 1
            } else if let match = line.wholeMatch(of: directive) {
                above -= 1
                guard match.output.1 == "else" || match.output.1 == "elseif" else { continue }
                var depth = 0
                while above >= 0 {
                    if let inner = lines[above].wholeMatch(of: directive) {
                        if inner.output.1 == "endif" { depth += 1 } else if inner.output.1 == "if" {
                            if depth == 0 { break }
                            depth -= 1
                        }
                    }
                    above -= 1
                }
                above -= 1
            } else {
                break
            }
        }
        return documentation
    }

    /// What breaks the contract in one file. Types, functions, initializers, subscripts, type
    /// aliases and computed properties carry their own tag when public; stored properties
    /// and enum cases are their type's values and take its tag. Declarations of any access
    /// are held to one tag, and render entry points to `[render]`.
    static func findings(in text: String) -> [Finding] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var inMultilineString = false
        var findings: [Finding] = []
        for (index, line) in lines.enumerated() {
            if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inMultilineString.toggle(); continue }
            guard !inMultilineString, let match = line.wholeMatch(of: declaration) else { continue }
            let kind = String(match.output.5)
            guard kind != "case", kind != "extension" else { continue }
            let modifiers = line[..<match.output.5.startIndex].split(separator: " ")
            let rest = String(match.output.6)
            let documentation = documentation(above: index, in: lines)
            let tags = documentation.matches(of: tag)
            if documentation.components(separatedBy: "- Thread:").count > 2 { findings.append(Finding(line: index + 1, breach: .twoTags)) }
            if kind == "func", let name = rest.firstMatch(of: #/\w+/#).map({ String($0.output) }) {
                let signature = lines[index..<min(lines.count, index + 6)].prefix { !$0.contains("{") }.joined() + line
                if isRenderEntryPoint(name: name, signature: signature), tags.contains(where: { $0.output.1 != "render" }) {
                    findings.append(Finding(line: index + 1, breach: .renderEntryPointOffTheRenderThread))
                }
            }
            guard modifiers.contains("public") || modifiers.contains("open"), kind != "let" else { continue }
            if kind == "var" {
                let code = rest.components(separatedBy: "//")[0]
                let isComputed = code.contains("{") && !(code.components(separatedBy: "{")[0].contains("="))
                if !isComputed { continue }
            }
            if tags.isEmpty { findings.append(Finding(line: index + 1, breach: .untagged)) }
        }
        return findings
    }

    @Test func everyDeclarationCarriesOneTrueThreadTag() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100, "found only \(files.count) source files under \(root.path)")
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            found += Self.findings(in: text).map { "Sources/\(file):\($0.line): \($0.breach)" }
        }
        #expect(found.isEmpty, "\(found.count) declarations break the thread contract, first:\n\(found.prefix(40).joined(separator: "\n"))")
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
        #expect(Self.findings(in: source) == [Finding(line: 6, breach: .untagged), Finding(line: 8, breach: .untagged)])
    }

    @Test func theCheckerReadsThroughConditionalCompilation() {
        let source = """
            /// Tagged above the attributes' condition.
            /// - Thread: [render]
            @discardableResult
            #if !DEBUG
            @_noLocks
            #endif
            public func tagged() -> Int { 0 }
            /// Tagged above both branches.
            /// - Thread: [control]
            #if DEBUG
            public func branched() {}
            #else
            public func branched() {}
            #endif
            #if DEBUG
            public func untaggedInside() {}
            #endif
            """
        #expect(Self.findings(in: source) == [Finding(line: 16, breach: .untagged)])
    }

    @Test func theCheckerRefusesTwoTagsOnOneDeclaration() {
        let source = """
            /// - Thread: [render]
            #if !DEBUG
            @_noLocks
            #endif
            /// - Thread: [control]
            public func setValueFromRender(_ value: Float) {}
            """
        #expect(Self.findings(in: source) == [Finding(line: 6, breach: .twoTags), Finding(line: 6, breach: .renderEntryPointOffTheRenderThread)])
    }

    @Test func theCheckerRefusesControlOnARenderEntryPoint() {
        let source = """
            /// - Thread: [control]
            public override func process(_ context: ProcessContext) -> AudioUnitStatus { 0 }
            /// - Thread: [control]
            func render(
                frameCount: Int, timestamp: RenderTimestamp
            ) -> AudioUnitStatus { 0 }
            /// - Thread: [control]
            public func render(frameCount: Int) -> [Float] { [] }
            /// - Thread: [render]
            public override func process(_ context: ProcessContext) -> AudioUnitStatus { 0 }
            """
        #expect(Self.findings(in: source) == [
            Finding(line: 2, breach: .renderEntryPointOffTheRenderThread), Finding(line: 4, breach: .renderEntryPointOffTheRenderThread),
        ])
    }

    #if DEBUG
    @Test(.exitTestHangGuard) func aControlCallOnTheRenderThreadTrapsInDebugBuilds() async {
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
