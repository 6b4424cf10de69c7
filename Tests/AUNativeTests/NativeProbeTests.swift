import AUCore
import AUHost
import AUHostCLI
import Foundation
import Synchronization
import Testing

/// A native library that aborts, hangs or reports 100,000,000 units while loading is
/// probed in a child process and reported; discovery finishes and the good libraries load.
@Suite struct NativeProbeTests {
    /// A folder with a good library and the three bad ones.
    static func badFolder() throws -> URL {
        let folder = try CLibraryFixtures.makeFolder("probe")
        try CLibraryFixtures.buildGoodUnit(named: "libgood.so", in: folder)
        try CLibraryFixtures.buildGoodUnit(named: "libabort.so", in: folder, extraDefines: ["CONSTRUCTOR_ABORTS"])
        try CLibraryFixtures.buildGoodUnit(named: "libloop.so", in: folder, extraDefines: ["CONSTRUCTOR_LOOPS"])
        try CLibraryFixtures.buildGoodUnit(named: "libmany.so", in: folder, extraDefines: ["UNIT_COUNT=100000000u"])
        return folder
    }

    /// A provider over `folder` whose probe gives up on a library after 2 s, caching in `cache`.
    static func provider(_ folder: URL, cache: URL, executable: URL? = nil) throws -> NativeProvider {
        var probe = try #require(NativeProbeRunner.standard(), "build the auhost product first")
        probe.timeout = 2
        probe.cacheFile = cache
        if let executable { probe.executable = executable }
        return NativeProvider(searchPath: PluginSearchPath([folder.path]), probe: probe)
    }

    /// Runs discovery on a thread of its own and waits for it at most `seconds`.
    static func discover(_ provider: NativeProvider, within seconds: Int = 120) throws -> (components: [Component], problems: [DiscoveryProblem]) {
        let result = Mutex<(components: [Component], problems: [DiscoveryProblem])?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let found = provider.discoverComponents()
            result.withLock { $0 = found }
            done.signal()
        }.start()
        try #require(done.wait(timeout: .now() + .seconds(seconds)) == .success, "discovery did not finish within \(seconds) s")
        return try #require(result.withLock { $0 })
    }

    static func problem(_ file: String, in found: (components: [Component], problems: [DiscoveryProblem]), folder: URL) -> String? {
        let matching = found.problems.filter { $0.location == folder.path + "/" + file }
        #expect(matching.count == 1, "expected one problem for \(file), got \(found.problems)")
        return matching.first?.message
    }

    /// Verdicts are kept per ABI version: a host upgraded to another version (a version-2
    /// library that a version-1 host refused loads now) never reads the last one's verdicts.
    @Test func theVerdictCacheIsNamedAfterTheHostsABIVersion() {
        #expect(NativeProbeRunner(executable: URL(fileURLWithPath: "/bin/true")).cacheFile.lastPathComponent == "native-probe-abi2.json")
    }

    @Test func badLibrariesAreReportedAndTheGoodOneLoads() throws {
        let folder = try Self.badFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache/native-probe.json")
        let found = try Self.discover(try Self.provider(folder, cache: cache))
        #expect(found.components.map(\.identifier) == [folder.path + "/libgood.so#0"])
        #expect(found.problems.count == 3, "\(found.problems)")
        #expect(Self.problem("libabort.so", in: found, folder: folder)?.contains("not loaded: the probe process loading it died of signal 6 (SIGABRT)") == true)
        #expect(Self.problem("libloop.so", in: found, folder: folder)?.contains("not loaded: the probe process loading it timed out after 2 s") == true)
        #expect(Self.problem("libmany.so", in: found, folder: folder)?.contains("reports 100000000 units; a library may offer at most 1024") == true)
    }

    /// The verdicts are cached by real path, size and modification time: a second discovery
    /// with a probe that cannot run gives the same problems; a changed library is probed again.
    @Test func verdictsAreCachedUntilTheLibraryChanges() throws {
        let folder = try Self.badFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache/native-probe.json")
        _ = try Self.discover(try Self.provider(folder, cache: cache))
        let broken = URL(fileURLWithPath: "/nonexistent/auhost")
        let again = try Self.discover(try Self.provider(folder, cache: cache, executable: broken))
        #expect(again.components.map(\.identifier) == [folder.path + "/libgood.so#0"])
        #expect(Self.problem("libabort.so", in: again, folder: folder)?.contains("SIGABRT") == true)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: folder.path + "/libabort.so")
        let changed = try Self.discover(try Self.provider(folder, cache: cache, executable: broken))
        #expect(Self.problem("libabort.so", in: changed, folder: folder)?.contains("the probe process failed: cannot run /nonexistent/auhost") == true)
    }

    /// The rest of the registry works: built-in units and the good library are listed.
    @Test func theRegistryListsEverythingElse() throws {
        let folder = try Self.badFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = try Self.provider(folder, cache: folder.appendingPathComponent("cache/native-probe.json"))
        let registry = ComponentRegistry(providers: [BuiltinUnits(), provider])
        let output = TextOutput(), errors = TextOutput()
        #expect(AUHostCLI.run(["list"], output: output, errors: errors, makeRegistry: { registry }) == 0)
        #expect(output.captured.contains("aufx:cgan:Test") && output.captured.contains("aufx:splt:AUHs"), "\(output.captured)")
        #expect(errors.captured.contains("libabort.so") && errors.captured.contains("SIGABRT"), "\(errors.captured)")
    }

    /// Without a probe executable the trusted libraries load in this process, and one problem says so.
    @Test func withoutAProbeExecutableLibrariesLoadInProcessAndAProblemSaysSo() throws {
        let folder = try CLibraryFixtures.makeFolder("no-probe")
        defer { try? FileManager.default.removeItem(at: folder) }
        try CLibraryFixtures.buildGoodUnit(named: "libgood.so", in: folder)
        try CLibraryFixtures.buildGoodUnit(named: "libmany.so", in: folder, extraDefines: ["UNIT_COUNT=100000000u"])
        let found = try Self.discover(NativeProvider(searchPath: PluginSearchPath([folder.path]), probe: nil))
        #expect(found.components.map(\.identifier) == [folder.path + "/libgood.so#0"])
        #expect(Self.problem("libmany.so", in: found, folder: folder)?.contains("at most 1024") == true)
        #expect(found.problems.contains { $0.message.contains("no probe executable") && $0.message.contains("unprobed") }, "\(found.problems)")
    }

    /// A probe child leads its own process group, out of reach of the terminal's ^C: it must
    /// die with its parent, or a hanging library would keep it spinning after `auhost` is gone.
    @Test("a parent killed while its probe child hangs in a library's constructor leaves no probe behind")
    func aProbeChildDiesWithItsParent() throws {
        let folder = try CLibraryFixtures.makeFolder("orphan")
        defer { try? FileManager.default.removeItem(at: folder) }
        try CLibraryFixtures.buildGoodUnit(named: "libloop.so", in: folder, extraDefines: ["CONSTRUCTOR_LOOPS"])
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: try #require(NativeProbeRunner.standardExecutablePath))
        parent.arguments = ["list"]
        parent.environment = ProcessInfo.processInfo.environment.merging(
            [PluginSearchPath.environmentVariable: folder.path, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path]) { $1 }
        parent.standardOutput = FileHandle.nullDevice
        parent.standardError = FileHandle.nullDevice
        try parent.run()
        /// The probe child's process ID: a `probe-library` of this folder's library.
        func probeChild() -> Int32? {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap(Int32.init).first { pid in
                let line = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))).map { String(decoding: $0, as: UTF8.self) } ?? ""
                return line.contains(NativeProbeRunner.subcommand) && line.contains(folder.path)
            }
        }
        /// Whether `pid` still runs (not gone, not a zombie).
        func runs(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
            return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
        }
        var child: Int32?
        for _ in 0..<300 where child == nil {
            child = probeChild()
            if child == nil { usleep(100_000) }
        }
        let probe = try #require(child, "no probe child started within 30 s")
        kill(parent.processIdentifier, SIGKILL)
        parent.waitUntilExit()
        // Its own timeout (10 s) is the parent's to enforce: without the parent, only its
        // death signal ends it.
        var gone = false
        for _ in 0..<100 where !gone {
            gone = !runs(probe)
            if !gone { usleep(50_000) }
        }
        if !gone { kill(probe, SIGKILL) }
        #expect(gone, "the probe child \(probe) still runs 5 s after its parent was killed")
    }
}
