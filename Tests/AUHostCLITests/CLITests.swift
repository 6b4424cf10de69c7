import AUCore
import AUEngine
import AUHost
import AUHostCLI
import Foundation
import Testing
import AUTestSupport

/// Runs the CLI in-process over the built-in units and returns (status, stdout, stderr).
func runCLI(_ arguments: String...) -> (status: Int32, output: String, errors: String) {
    let output = TextOutput()
    let errors = TextOutput()
    let status = AUHostCLI.run(arguments, output: output, errors: errors) {
        ComponentRegistry(providers: [BuiltinUnits()])
    }
    return (status, output.captured, errors.captured)
}

@Suite struct CLITests {
    @Test func helpAndVersion() {
        let help = runCLI("--help")
        #expect(help.status == 0)
        #expect(help.output.contains("usage: auhost COMMAND"))
        #expect(help.output.contains("list") && help.output.contains("info"))
        #expect(runCLI("--version").output == "auhost \(AUHostCLI.version)\n")
        let listHelp = runCLI("help", "list")
        #expect(listHelp.status == 0 && listHelp.output.hasPrefix("usage: auhost list"))
        #expect(runCLI("info", "--help").output.hasPrefix("usage: auhost info"))
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["rendr"], "unknown command 'rendr'; did you mean 'render'?"),
        (["list", "--bogus"], "unknown option '--bogus'"),
        (["list", "--type"], "--type needs a value"),
        (["list", "--type", "toolong"], "--type takes a code of 1 to 4 characters, not 'toolong'"),
        (["list", "--format", "vst"], "--format takes lv2, native or builtin, not 'vst'"),
        (["info"], "'info' needs a UNIT"),
        (["info", "a", "b"], "unexpected argument 'b'"),
        (["help", "nope"], "unknown command 'nope'"),
    ])
    func usageErrorsExit64WithOneLineAndAHint(arguments: [String], message: String) {
        let output = TextOutput()
        let errors = TextOutput()
        let status = AUHostCLI.run(arguments, output: output, errors: errors) { ComponentRegistry(providers: [BuiltinUnits()]) }
        #expect(status == 64)
        let lines = errors.captured.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains(message) == true, "\(errors.captured)")
        #expect(lines.last?.hasPrefix("auhost: see 'auhost") == true)
        #expect(output.captured.isEmpty)
    }

    @Test func listFiltersByCodesAndFormat() {
        let all = runCLI("list")
        #expect(all.status == 0)
        #expect(all.output.contains("aufx:splt:AUHs  Splitter"))
        #expect(runCLI("list", "--type", "aumu").output.isEmpty)
        #expect(runCLI("list", "--format", "lv2").output.isEmpty)
        #expect(runCLI("list", "--subtype", "splt", "--manufacturer", "AUHs").output.contains("Splitter"))
    }

    @Test func listJSONHasTheDocumentedKeys() throws {
        let result = runCLI("list", "--json")
        #expect(result.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        let splitter = try #require(array.first { $0["subtype"] as? String == "splt" })
        for key in ["type", "subtype", "manufacturer", "name", "format", "identifier", "manufacturerName", "version", "category", "broken"] {
            #expect(splitter.keys.contains(key), "missing \(key)")
        }
        #expect(splitter["format"] as? String == "builtin")
    }

    @Test func infoDescribesBusesAndListsClosestMatchesWhenUnknown() throws {
        let info = runCLI("info", "aufx:splt:AUHs")
        #expect(info.status == 0)
        #expect(info.output.contains("outputs:\n    0: Output 1 (2 ch)\n    1: Output 2 (2 ch)"))
        let json = runCLI("info", "Splitter", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((object["outputs"] as? [Any])?.count == 2)
        #expect(object["latency"] as? Double == 0)
        let unknown = runCLI("info", "Spliter")
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("no unit 'Spliter'; closest matches:"))
        #expect(unknown.errors.contains("aufx:splt:AUHs  Splitter"))
    }
}

/// The built `auhost` executable beside the test bundle (`swift build` puts both there).
func auhostExecutable() throws -> URL {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = bundle.deletingLastPathComponent()
    if directory.lastPathComponent == "MacOS" || directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
    let candidate = directory.appendingPathComponent("auhost")
    guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
        throw CLIError("auhost is not built at \(candidate.path); run 'swift build' first")
    }
    return candidate
}

/// Runs the real executable and returns (status, stdout, stderr).
func runExecutable(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String, errors: String) {
    try runProcess(try auhostExecutable(), arguments, environment: environment)
}

/// Runs a program to its end, in `directory` if given, with `environment` over this
/// process's, and returns (status, stdout, stderr); a run that outlives 10 minutes is killed.
func runProcess(
    _ executable: URL, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil
) throws -> (status: Int32, output: String, errors: String) {
    let outcome = try ChildProcess.run(executable, arguments, environment: environment, directory: directory)
    return (outcome.status, outcome.output, outcome.errors)
}

@Suite struct ExecutableTests {
    @Test func exitStatusesAndNoStackTraces() throws {
        let usage = try runExecutable(["list", "--nope"])
        #expect(usage.status == 64)
        let missing = try runExecutable(["info", "No Such Unit At All"])
        #expect(missing.status == 1)
        #expect(missing.errors.hasPrefix("auhost: no unit 'No Such Unit At All'"))
        for result in [usage, missing] {
            #expect(!result.errors.contains("Fatal error"))
            #expect(!result.errors.contains("Backtrace"))
        }
    }

    /// Bundles with a garbage manifest and with bad plugin Turtle: `auhost list` prints one
    /// auhost line naming each bundle and where its Turtle is wrong, none of the raw lines
    /// lilv and serd print (`error: <path>:…`, `lilv_world_load_file(): …`), and the list
    /// on standard output is the good plugin's; the same again from the discovery cache.
    @Test(.timeLimit(.minutes(2))) func brokenBundlesAreOneAuhostLineEach() throws {
        let folder = try TemporaryFolder(prefix: "auhost-broken")
        defer { folder.remove() }
        try writeFixtureBundle("passthrough", name: "Fixture Passthrough", into: folder.url)
        try writeFixtureBundle("bad-turtle", name: "Fixture Bad Turtle", into: folder.url)
        try "@prefix doap: <http://usefulinc.com/ns/doap#> .\n<urn:auhost:fixture:bad-turtle> doap:name \"Broken ;; [[ \n"
            .write(toFile: folder.file("bad-turtle.lv2/plugin.ttl"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder.file("garbage.lv2"), withIntermediateDirectories: true)
        try "<urn:auhost:fixture:garbage> a garbage garbage [[[ \n"
            .write(toFile: folder.file("garbage.lv2/manifest.ttl"), atomically: true, encoding: .utf8)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-broken-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = ["LV2_PATH": folder.path, "XDG_CACHE_HOME": cache.path]
        for run in ["first", "cached"] {
            let result = try runExecutable(["list", "--format", "lv2"], environment: environment)
            #expect(result.status == 0, "\(run): \(result.errors)")
            let lines = result.errors.split(separator: "\n").map(String.init)
            #expect(!lines.contains { $0.contains("lilv_") || $0.hasPrefix("error: ") }, "\(run): raw lilv or serd lines: \(result.errors)")
            let garbage = lines.filter { $0.contains(folder.file("garbage.lv2")) }
            #expect(garbage.count == 1 && garbage.allSatisfy {
                $0.hasPrefix("auhost: ") && $0.contains(": manifest.ttl:1:") && $0.hasSuffix("its plugins are skipped")
            }, "\(run): \(result.errors)")
            let badTurtle = lines.filter { $0.contains(folder.file("bad-turtle.lv2")) }
            #expect(badTurtle.count == 1 && badTurtle.allSatisfy {
                $0.hasPrefix("auhost: ") && $0.contains("plugin.ttl:2:") && $0.contains("line end in short string")
            }, "\(run): \(result.errors)")
            #expect(result.output.contains("Fixture Passthrough") && !result.output.contains("Bad Turtle") && !result.output.contains("error"), "\(run): \(result.output)")
        }
    }

    @Test func listJSONCoversEveryBackend() throws {
        let result = try runExecutable(["list", "--json"])
        #expect(result.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        let formats = Set(array.compactMap { $0["format"] as? String })
        #expect(formats.contains("builtin"))
        // Every unit has the documented keys, and the codes are unique per unit.
        let codes = array.map { "\($0["type"]!):\($0["subtype"]!):\($0["manufacturer"]!)" }
        #expect(Set(codes).count == codes.count)
    }
}
