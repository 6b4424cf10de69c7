import AUCore
import AUNative
import Foundation
import Testing

/// Each way a library can fail gives one problem naming the file, and the others load.
@Suite struct BadLibraryTests {
    @Test func aUnitWrittenInCLoadsAndRenders() throws {
        let folder = try CLibraryFixtures.makeFolder("c-unit")
        try CLibraryFixtures.buildGoodUnit(named: "libcgain.so", in: folder)
        let found = NativeProvider(searchPath: PluginSearchPath([folder.path])).discoverComponents()
        #expect(found.problems.isEmpty, "\(found.problems)")
        let component = try #require(found.components.first)
        #expect(component.description.description == "aufx:cgan:Test")
        #expect(component.name == "C Gain")
        #expect(component.format == .native)
        let unit = try component.instantiate()
        #expect(unit.parameters.infos.map(\.identifier) == ["gain"])
        try unit.setParameter(7, value: 0.25)
        let output = try NativeHarness.render(unit, input: [[Float](repeating: 1, count: 64)], frames: 64)
        #expect(output[0].allSatisfy { $0 == 0.25 })
        #expect(output[1].allSatisfy { $0 == 0.25 })
    }

    @Test func eachFailureGivesOneProblemNamingTheFileAndTheOthersLoad() throws {
        let folder = try CLibraryFixtures.makeFolder("bad")
        try CLibraryFixtures.buildGoodUnit(named: "libgood.so", in: folder)
        try CLibraryFixtures.build(CLibraryFixtures.noSymbol, named: "libnosymbol.so", in: folder)
        try CLibraryFixtures.buildGoodUnit(named: "libabi99.so", in: folder, abiVersion: 99)
        try CLibraryFixtures.buildGoodUnit(named: "libfactoryfails.so", in: folder, initSucceeds: false)
        try CLibraryFixtures.build(CLibraryFixtures.unresolvedSymbol, named: "libunresolved.so", in: folder)
        try "this is not an ELF file".write(to: folder.appendingPathComponent("libgarbage.so"), atomically: true, encoding: .utf8)

        let found = NativeProvider(searchPath: PluginSearchPath([folder.path])).discoverComponents()
        #expect(found.components.map(\.description.description) == ["aufx:cgan:Test"])
        #expect(found.components.first?.identifier == folder.path + "/libgood.so#0")

        func problem(_ file: String) -> DiscoveryProblem? {
            let matching = found.problems.filter { $0.location == folder.path + "/" + file }
            #expect(matching.count == 1, "expected one problem for \(file), got \(matching)")
            return matching.first
        }
        #expect(found.problems.count == 5, "\(found.problems)")
        #expect(problem("libnosymbol.so")?.message.contains("no 'auhost_plugin_entry' symbol") == true)
        #expect(problem("libabi99.so")?.message.contains("ABI version 99") == true)
        #expect(problem("libfactoryfails.so")?.message.contains("factory failed") == true)
        #expect(problem("libunresolved.so")?.message.contains("cannot be loaded") == true)
        #expect(problem("libunresolved.so")?.message.contains("auhost_test_missing_function") == true)
        #expect(problem("libgarbage.so")?.message.contains("cannot be loaded") == true)
        #expect(found.problems.allSatisfy { $0.format == .native })
    }

    @Test func aLibraryInAWorldWritableFolderIsRefused() throws {
        let folder = try CLibraryFixtures.makeFolder("world-writable")
        try CLibraryFixtures.buildGoodUnit(named: "libcgain.so", in: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        let found = NativeProvider(searchPath: PluginSearchPath([folder.path])).discoverComponents()
        #expect(found.components.isEmpty)
        #expect(found.problems.count == 1)
        #expect(found.problems.first?.location == folder.path + "/libcgain.so")
        #expect(found.problems.first?.message.contains("writable by every user") == true)
    }

    @Test func aWorldWritableLibraryIsRefused() throws {
        let folder = try CLibraryFixtures.makeFolder("writable-file")
        let library = try CLibraryFixtures.buildGoodUnit(named: "libcgain.so", in: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: library.path)
        let found = NativeProvider(searchPath: PluginSearchPath([folder.path])).discoverComponents()
        #expect(found.components.isEmpty)
        #expect(found.problems.first?.message.contains("the file is writable by every user") == true)
    }

    /// Needs root to give the file away; as another user the test cannot make the case.
    @Test(.enabled(if: getuid() == 0, "giving a file to another user needs root"))
    func aLibraryOwnedByAnotherUserIsRefused() throws {
        let folder = try CLibraryFixtures.makeFolder("other-owner")
        let library = try CLibraryFixtures.buildGoodUnit(named: "libcgain.so", in: folder)
        #expect(chown(library.path, 65534, 65534) == 0)
        let found = NativeProvider(searchPath: PluginSearchPath([folder.path])).discoverComponents()
        #expect(found.components.isEmpty)
        #expect(found.problems.first?.message.contains("owned by user 65534") == true)
    }

    @Test func missingFoldersAreNotProblems() {
        let found = NativeProvider(searchPath: PluginSearchPath(["/nonexistent/auhost/plugins"])).discoverComponents()
        #expect(found.components.isEmpty)
        #expect(found.problems.isEmpty)
    }

    @Test func theSameUnitTwiceKeepsTheFirstAndSaysSo() throws {
        let first = try CLibraryFixtures.makeFolder("dup-a"), second = try CLibraryFixtures.makeFolder("dup-b")
        try CLibraryFixtures.buildGoodUnit(named: "libcgain.so", in: first)
        try CLibraryFixtures.buildGoodUnit(named: "libcgain2.so", in: second)
        let found = NativeProvider(searchPath: PluginSearchPath([first.path, second.path])).discoverComponents()
        #expect(found.components.map(\.identifier) == [first.path + "/libcgain.so#0"])
        #expect(found.problems.map(\.location) == [second.path + "/libcgain2.so"])
        #expect(found.problems.first?.message.contains("already provides it") == true)
    }
}
