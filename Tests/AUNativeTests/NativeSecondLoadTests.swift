import AUCore
import AUHost
import AUTestSupport
import Foundation
import Testing

/// Libraries that pass their probe (the first load, in a child) and misbehave only when the
/// host loads them in-process (the second load): the in-process load checks again what the
/// probe checked, and one that aborts there takes down that one discovery, not the next.
@Suite struct NativeSecondLoadTests {
    /// A folder with the good library and `name` built with `defines`.
    static func folder(with name: String, defines: [String]) throws -> URL {
        let folder = try CLibraryFixtures.makeFolder("second-load")
        try CLibraryFixtures.buildGoodUnit(named: "libgood.so", in: folder)
        try CLibraryFixtures.buildGoodUnit(named: name, in: folder, extraDefines: defines)
        return folder
    }

    /// `unit_count` says 1 to the check and 5000 afterwards: the library is held to the 1
    /// that was checked (before, the host listed 5000 "units", one problem each).
    @Test func aUnitCountThatGrowsAfterTheCheckIsNotBelieved() throws {
        let folder = try Self.folder(with: "libgrows.so", defines: ["UNIT_COUNT_GROWS=5000u"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let found = try NativeProbeTests.discover(try NativeProbeTests.provider(folder, cache: folder.appendingPathComponent("cache/native-probe.json")))
        // One unit, the good library's twin (so skipped as already provided), and no other problem.
        #expect(found.problems.count == 1 && found.problems.allSatisfy { $0.message.contains("already provides it") }, "\(found.problems.prefix(3))")
    }

    /// init fails, or the unit count is 100,000,000, only on the second load: the in-process
    /// load refuses the library, naming it, as the probe would have.
    @Test(arguments: [
        ("libinit.so", "SECOND_LOAD=return false", "its factory failed to initialize"),
        ("libmany.so", "SECOND_LOAD=reported_units = 100000000u", "its factory reports 100000000 units; a library may offer at most 1024"),
    ])
    func aLibraryBadOnlyOnItsSecondLoadIsRefusedInProcess(name: String, define: String, message: String) throws {
        let folder = try Self.folder(with: name, defines: [define])
        defer { try? FileManager.default.removeItem(at: folder) }
        let found = try NativeProbeTests.discover(try NativeProbeTests.provider(folder, cache: folder.appendingPathComponent("cache/native-probe.json")))
        #expect(found.components.map(\.identifier) == [folder.path + "/libgood.so#0"])
        #expect(NativeProbeTests.problem(name, in: found, folder: folder)?.contains(message) == true, "\(found.problems)")
        #expect(FileManager.default.contents(atPath: folder.path + "/\(name).loads") == Data("2".utf8), "probed once, loaded once")
    }

    /// init aborts only on the second load: the discovery that loads it in-process dies (no
    /// host can survive an abort in its own process), the next discovery skips it with a
    /// problem naming it and loads the rest, and no mark is left.
    @Test(.exitTestHangGuard) func aLibraryThatAbortsOnlyInProcessTakesDownOneDiscovery() async throws {
        let folder = try Self.folder(with: "libabort.so", defines: ["SECOND_LOAD=abort()"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache/native-probe.json")
        let folderPath = folder.path, cachePath = cache.path
        await #expect(processExitsWith: .signal(SIGABRT)) { [folderPath = folderPath as String, cachePath = cachePath as String] in
            _ = try NativeProbeTests.discover(try NativeProbeTests.provider(URL(fileURLWithPath: folderPath), cache: URL(fileURLWithPath: cachePath)))
        }
        // The next discovery, in a child too: on a host that loads the library again it
        // aborts (and this process, required to see it succeed, does not try).
        try await #require(processExitsWith: .success) { [folderPath = folderPath as String, cachePath = cachePath as String] in
            let found = try NativeProbeTests.discover(try NativeProbeTests.provider(URL(fileURLWithPath: folderPath), cache: URL(fileURLWithPath: cachePath)))
            exit(found.components.count == 1 ? 0 : 1)
        }
        let found = try NativeProbeTests.discover(try NativeProbeTests.provider(folder, cache: cache))
        #expect(found.components.map(\.identifier) == [folder.path + "/libgood.so#0"])
        let problem = NativeProbeTests.problem("libabort.so", in: found, folder: folder)
        #expect(problem?.contains("passed its probe, but the auhost process") == true && problem?.contains("never finished loading it") == true, "\(found.problems)")
        let marks = try FileManager.default.contentsOfDirectory(atPath: cache.deletingLastPathComponent().path).filter { $0.hasPrefix("native-loading-") }
        #expect(marks.isEmpty, "\(marks)")
    }
}
