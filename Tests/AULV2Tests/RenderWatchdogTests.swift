import Foundation
import Testing
import AUTestSupport

/// `auhost render` over a plugin whose `run()` never returns (the run-forever fixture)
/// ends with an error naming the stuck node, and SIGINT still ends it.
@Suite struct RenderWatchdogTests {
    /// A folder with the fixture bundles, a one-node preset over `urn:auhost:fixture:run-forever`
    /// and a short input file.
    struct Setup {
        let fixtures: FixtureBundles
        let folder: URL
        var preset: String { folder.appendingPathComponent("stuck.json").path }
        var input: String { folder.appendingPathComponent("in.wav").path }
        var output: String { folder.appendingPathComponent("out.wav").path }
        /// Created by the fixture when its run() starts looping.
        var marker: String { folder.appendingPathComponent("stuck").path }

        init() throws {
            fixtures = try FixtureBundles()
            folder = URL(fileURLWithPath: fixtures.root.path + "-render")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let preset = """
                {"auhost": 1, "name": "Stuck", "nodes": [{"id": "stuck", "unit": "lv2:urn:auhost:fixture:run-forever"}], "chain": ["stuck"]}
                """
            try preset.write(toFile: self.preset, atomically: true, encoding: .utf8)
            try WAVFile.write([[Float](repeating: 0.25, count: 48_000)], sampleRate: 48_000, to: URL(fileURLWithPath: input))
        }

        func remove() {
            fixtures.remove()
            try? FileManager.default.removeItem(at: folder)
        }

        /// `auhost render` started with the watchdog's timeout set to `watchdog` seconds.
        func startRender(watchdog: Int) throws -> (process: Process, errors: Pipe) {
            let process = Process()
            process.executableURL = FixtureBundles.productsDirectory.appendingPathComponent("auhost")
            process.arguments = ["render", preset, input, "-o", output]
            var environment = ProcessInfo.processInfo.environment
            environment["LV2_PATH"] = fixtures.root.path
            environment["XDG_CACHE_HOME"] = folder.appendingPathComponent("cache").path
            environment["AUHOST_RENDER_WATCHDOG"] = String(watchdog)
            environment["AUHOST_FIXTURE_STUCK_MARKER"] = marker
            process.environment = environment
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try ChildProcess.launch(process)
            return (process, errors)
        }

        /// Waits up to `seconds` for `process` to end; kills it and returns nil if it did not.
        func finish(_ started: (process: Process, errors: Pipe), within seconds: Double) -> (status: Int32, errors: String)? {
            let deadline = Date().addingTimeInterval(seconds)
            while started.process.isRunning && Date() < deadline { usleep(50_000) }
            if started.process.isRunning {
                kill(started.process.processIdentifier, SIGKILL)
                started.process.waitUntilExit()
                return nil
            }
            let text = String(decoding: started.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (started.process.terminationStatus, text)
        }
    }

    @Test func aRenderStuckInAPluginEndsWithAnErrorNamingTheNode() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let ended = setup.finish(try setup.startRender(watchdog: 1), within: 60)
        let result = try #require(ended, "auhost render did not end within 60 s")
        #expect(result.status != 0)
        #expect(result.errors.contains("node 'stuck' (Fixture Run Forever, lv2:urn:auhost:fixture:run-forever) has not returned"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: setup.output))
    }

    /// SIGINT while the plugin is stuck ends the process (long before the watchdog's 600 s).
    @Test func anInterruptEndsAStuckRender() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let started = try setup.startRender(watchdog: 600)
        // The fixture creates the marker as it enters the loop it never leaves.
        let deadline = Date().addingTimeInterval(30)
        while started.process.isRunning, Date() < deadline, !FileManager.default.fileExists(atPath: setup.marker) { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: setup.marker), "the plugin's run() was not entered within 30 s")
        kill(started.process.processIdentifier, SIGINT)
        let result = try #require(setup.finish(started, within: 30), "auhost render did not end within 30 s of SIGINT")
        #expect(result.status != 0)
        #expect(result.errors.contains("node 'stuck'") && result.errors.contains("after an interrupt"), "\(result.errors)")
    }
}
