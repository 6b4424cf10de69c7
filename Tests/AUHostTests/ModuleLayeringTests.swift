import Foundation
import Testing

/// Each module holds what its name says (docs/ARCHITECTURE.md, "Modules"): the plug-in
/// formats and the MIDI model stand on AUCore alone, never on the engine or the host. Read
/// from the sources' own `import` lines, so a new import of the engine fails here at once.
struct ModuleLayeringTests {
    /// The AUHost modules each of these may import (C targets and the system's are free).
    static let allowed: [String: Set<String>] = [
        "AULV2": ["AUCore"],
        "AUNative": ["AUCore"],
        "AUSampler": ["AUCore"],
        "AUMIDI": ["AUCore"],
        "AUPresets": ["AUCore"],
    ]

    /// The AUHost modules a source text imports (`import`, `internal import`,
    /// `@_exported import`, `public import`), C modules left out.
    static func hostModules(importedBy text: String) -> Set<String> {
        var modules: Set<String> = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                  words[..<at].allSatisfy({ ["internal", "public", "package", "@_exported", "@testable"].contains($0) })
            else { continue }
            let module = String(words[at + 1])
            if module.hasPrefix("AU") { modules.insert(module) }
        }
        return modules
    }

    @Test func pluginFormatsAndTheMIDIModelStandOnAUCoreAlone() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized
        var breaches: [String] = []
        for (module, allowed) in Self.allowed.sorted(by: { $0.key < $1.key }) {
            let folder = sources.appendingPathComponent(module)
            let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            #expect(!files.isEmpty, "no sources found for \(module)")
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for imported in Self.hostModules(importedBy: text).subtracting(allowed).sorted() {
                    breaches.append("Sources/\(module)/\(file) imports \(imported)")
                }
            }
        }
        #expect(breaches.isEmpty, "\(breaches.joined(separator: "\n"))")
    }

    @Test func importLinesAreReadInEveryForm() {
        let text = "import AUCore\ninternal import AUEngine\n@_exported import AUMIDI\nimport Foundation\n// import AUHost\nimport CLilv"
        #expect(Self.hostModules(importedBy: text) == ["AUCore", "AUEngine", "AUMIDI"])
    }
}
