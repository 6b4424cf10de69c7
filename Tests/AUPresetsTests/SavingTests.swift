import AUCore
@testable import AUPresets
import AUTestSupport
import Foundation
import Testing

@Suite struct SavingTests {
    let preset = ChainPreset(name: "one", nodes: [PresetNode(id: "eq", unit: "aufx:fxeq:Test")], routing: .chain(["eq"]))

    @Test func aSaveWritesTheEncodedTextAndNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try PresetWriter.save(preset, to: folder.file("one.json"))
        #expect(folder.contents() == ["one.json"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("one.json"))) == PresetWriter.encode(preset))
    }

    @Test func aSaveNeverReplacesAFileWithoutForce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("mine.json", "the user's own text")
        do {
            try PresetWriter.save(preset, to: file)
            Issue.record("replaced an existing file")
        } catch {
            #expect(error.problems.map(\.kind) == [.fileExists])
            #expect(error.description == "\(file): already exists; expected a new file name, or --force to replace it")
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "the user's own text")
        #expect(folder.contents() == ["mine.json"])
    }

    @Test func forceReplacesAtomically() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("mine.json", "old")
        try PresetWriter.save(preset, to: file, force: true)
        #expect(try PresetLoader.read(file: file) == preset)
        #expect(folder.contents() == ["mine.json"])
    }

    @Test func aMissingFolderIsAClearErrorAndLeavesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("nowhere/one.json")
        do {
            try PresetWriter.save(preset, to: file)
            Issue.record("wrote into a missing folder")
        } catch {
            #expect(error.problems.map(\.kind) == [.writeFailed])
            #expect(error.description.contains("the folder \"\(folder.path)/nowhere\" does not exist"))
        }
        #expect(folder.contents() == [])
    }

    @Test func aFolderIsNotAFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("sub.json"), withIntermediateDirectories: false)
        #expect(throws: PresetError.self) { try PresetWriter.save(preset, to: folder.file("sub.json"), force: true) }
        #expect(folder.contents() == ["sub.json"])
    }
}
