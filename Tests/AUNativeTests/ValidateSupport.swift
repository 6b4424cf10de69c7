import AUNative
import Foundation
import Testing
import AUTestSupport

/// Runs the built `auhost validate` (or any `auhost` command) with the native units of
/// `plugins` only, no LV2 plugin, and caches in a folder of the test process's.
///
/// The `auhost` is the release build when `make test` has built it after the last change to
/// Sources/ (the validator renders each unit thousands of times at strictness 10: the
/// optimized binary does it in a third of the debug one's time), else the debug one.
enum ValidateRun {
    struct Outcome {
        var status: Int32
        var output: String
        var errors: String

        /// The JSON report's units: name, status and message of each test, by unit code.
        func units() throws -> [[String: Any]] {
            try #require(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]], "not a JSON array: \(output)\(errors)")
        }

        /// The tests of the one unit in the JSON report with the status each ended with.
        func statuses() throws -> [String: String] {
            let tests = try #require(try units().first?["tests"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: tests.map { ($0["name"] as? String ?? "", $0["status"] as? String ?? "") })
        }
    }

    /// The `auhost` (and its `auhost-unit-host`) the runs use.
    static let executable: String? = ReleaseBuild.upToDate(products: ["auhost", "auhost-unit-host"], sources: ["Sources"])
        .map { $0.appendingPathComponent("auhost").path } ?? NativeProbeRunner.standardExecutablePath

    /// An empty folder for LV2_PATH and a cache folder, made once.
    static let folders: (lv2: URL, cache: URL) = {
        let lv2 = try! CLibraryFixtures.makeFolder("validate-no-lv2")
        let cache = try! CLibraryFixtures.makeFolder("validate-cache")
        return (lv2, cache)
    }()

    /// `auhost ARGUMENTS…` with AUHOST_PLUGIN_PATH = `plugins` (nil: the search path's
    /// own), caching in `cache` (nil: the shared folder), `device` the variables that choose the output device
    /// (AUHOST_DEVICE, JACK_DEFAULT_SERVER), killed after `timeout` s.
    static func run(_ arguments: [String], plugins: URL?, cache: URL? = nil, device: [String: String] = [:], timeout: Double = 600) throws -> Outcome {
        let path = try #require(executable, "build the auhost product first")
        var environment = ["LV2_PATH": folders.lv2.path, "XDG_CACHE_HOME": (cache ?? folders.cache).path].merging(device) { $1 }
        environment["AUHOST_PLUGIN_PATH"] = plugins?.path ?? folders.lv2.path
        let outcome = try ChildProcess.run(URL(fileURLWithPath: path), arguments, environment: environment, timeout: timeout)
        try #require(!outcome.timedOut, "auhost \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        return Outcome(status: outcome.status, output: outcome.output, errors: outcome.errors)
    }
}
