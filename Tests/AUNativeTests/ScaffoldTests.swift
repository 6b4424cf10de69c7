import AUCore
import AUHost
import AUHostCLI
import AUNative
import Foundation
import Testing
import AUTestSupport

/// `auhost new-unit` end to end: scaffold outside the repository, `swift build`, install
/// into a plugin folder, load, render. Builds the SDK once in the scaffold (about a minute).
/// The generated Package.swift never holds the checkout's absolute path: it builds against
/// AUHOST_SDK, else `--sdk` relative to the package, else the installed SDK.
@Suite struct ScaffoldTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Scaffolds `name` into a fresh folder with `options` and returns the package folder,
    /// its Package.swift and what new-unit printed.
    func scaffold(_ name: String, _ options: [String]) throws -> (package: URL, manifest: String, output: String) {
        let workspace = try CLibraryFixtures.makeFolder("scaffold")
        let output = TextOutput(), errors = TextOutput()
        let status = AUHostCLI.run(["new-unit", name, "--manufacturer", "Test", "--dir", workspace.path] + options, output: output, errors: errors)
        #expect(status == 0, "\(errors.captured)")
        let package = workspace.appendingPathComponent(name)
        let manifest = try String(contentsOf: package.appendingPathComponent("Package.swift"), encoding: .utf8)
        // No quoted string in the manifest is the checkout's absolute path (a relative path to
        // it may still end in that text when the package sits near the root, as on CI's machine).
        let quoted = manifest.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(!quoted.contains { $0.hasPrefix(Self.repository.path) }, "the manifest pins the checkout:\n\(manifest)")
        return (package, manifest, output.captured)
    }

    /// Scaffolds unit `name` of `type` in a fresh folder (against the checkout through
    /// `--sdk`, or without it against `environmentSDK` through AUHOST_SDK), builds it with
    /// `swift build`, installs it as docs/WRITING-UNITS.md says (copies the library into a
    /// plugin folder) and returns that folder and the one component found there.
    func scaffoldBuildAndInstall(_ name: String, type: String, subtype: String, environmentSDK: String? = nil) throws -> (plugins: URL, component: Component) {
        let sdkOption = environmentSDK == nil ? ["--sdk", Self.repository.path] : []
        let (package, _, output) = try scaffold(name, ["--type", type, "--subtype", subtype] + sdkOption)
        let workspace = package.deletingLastPathComponent()
        #expect(output.contains("swift build"))

        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "--package-path", package.path]
        var environment = ProcessInfo.processInfo.environment
        environment["AUHOST_SDK"] = environmentSDK
        build.environment = environment
        let log = Pipe()
        build.standardOutput = log
        build.standardError = log
        try ChildProcess.launch(build)
        let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        build.waitUntilExit()
        try #require(build.terminationStatus == 0, "swift build of the scaffold failed:\n\(text.suffix(3000))")

        let plugins = workspace.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileManager.default.copyItem(
            at: package.appendingPathComponent(".build/debug/lib\(name).so"), to: plugins.appendingPathComponent("lib\(name).so"))
        let found = NativeProvider(searchPath: PluginSearchPath([plugins.path])).discoverComponents()
        #expect(found.problems.isEmpty, "\(found.problems)")
        let component = try #require(found.components.first)
        #expect(component.description.description == "\(type):\(subtype):Test")
        #expect(component.name == name)
        return (plugins, component)
    }

    @Test func aScaffoldedUnitBuildsInstallsAndLoads() throws {
        let (plugins, component) = try scaffoldBuildAndInstall("Tremble", type: "aufx", subtype: "trmb")
        let unit = try component.instantiate()
        try unit.setParameter(0, value: -6)
        let rendered = try NativeHarness.render(unit, input: [[Float](repeating: 1, count: 4800)], frames: 4800)
        let level = Double(rendered[0].last ?? .nan)
        #expect(abs(level - pow(10, -6.0 / 20)) < 1e-4)

        let registry = ComponentRegistry(providers: [NativeProvider(searchPath: PluginSearchPath([plugins.path]))])
        let info = TextOutput(), errors = TextOutput()
        #expect(AUHostCLI.run(["info", "aufx:trmb:Test"], output: info, errors: errors, makeRegistry: { registry }) == 0)
        #expect(info.captured.contains("gain"))
    }

    /// `--type aumi`: a MIDI processor with no audio that declares MIDI output and sends on
    /// what it receives, at the same frame.
    @Test func aScaffoldedMIDIProcessorPassesMIDIThrough() throws {
        let sdk = Self.repository.appendingPathComponent("SDK").path
        let unit = try scaffoldBuildAndInstall("Echoes", type: "aumi", subtype: "echo", environmentSDK: sdk).component.instantiate()
        #expect(unit.producesMIDIOutput)
        try unit.initialize()
        let none = UnsafeBufferPointer<AudioBuffers>(start: nil, count: 0)
        let played = [MIDIEvent(offset: 10, status: 0x93, data1: 62, data2: 70), MIDIEvent(offset: 40, status: 0xB3, data1: 1, data2: 64)]
        let status = played.withUnsafeBufferPointer {
            unit.renderCycleFromDriver(timestamp: RenderTimestamp(sampleTime: 0), frameCount: 64, inputs: none, outputs: none, midi: $0)
        }
        #expect(status == 0)
        #expect(Array(unit.midiOutputFromRender) == played)
    }

    /// Without --sdk the package falls back to the installed SDK, and new-unit says to set
    /// AUHOST_SDK to the SDK it found (this checkout: none is installed beside the tests);
    /// with --sdk the fallback is that folder relative to the package's.
    @Test func theManifestReadsAUHOSTSDKAndFallsBackWithoutTheCheckoutsPath() throws {
        let installed = try scaffold("Plain", ["--type", "aufx", "--subtype", "plan"])
        #expect(installed.manifest.contains(#"let sdk = Context.environment["AUHOST_SDK"] ?? "/usr/local/share/auhost/sdk""#), "\(installed.manifest)")
        #expect(installed.output.contains("AUHOST_SDK='\(Self.repository.path)' swift build"), "\(installed.output)")

        let relative = try scaffold("Beside", ["--type", "aufx", "--subtype", "besd", "--sdk", Self.repository.path])
        let match = try #require(relative.manifest.firstMatch(of: #/\?\? "([^"]*)"/#), "\(relative.manifest)")
        let fallback = String(match.output.1)
        #expect(fallback.hasPrefix("../"), "\(fallback)")
        #expect(URL(fileURLWithPath: fallback, relativeTo: relative.package).standardizedFileURL.path == Self.repository.path)
        #expect(relative.output.contains("&& swift build"), "\(relative.output)")
    }

    @Test func newUnitRefusesBadArgumentsAndFoldersInsideTheRepository() throws {
        let errors = TextOutput()
        #expect(AUHostCLI.run(["new-unit", "9lives", "--type", "aufx", "--subtype", "x"], output: TextOutput(), errors: errors) == 64)
        #expect(errors.captured.contains("NAME must start with a letter"))
        #expect(AUHostCLI.run(["new-unit", "Fine", "--type", "aufz", "--subtype", "x"], output: TextOutput(), errors: TextOutput()) == 64)
        #expect(AUHostCLI.run(["new-unit", "Fine", "--type", "aufx", "--subtype", "toolong"], output: TextOutput(), errors: TextOutput()) == 64)
        // Codes end up inside Swift string literals and shell quotes: no quote, no backslash
        // (a"b\\ once generated a package that did not compile).
        for code in ["a\"b\\", "it's", "a\\"] {
            let refused = TextOutput()
            #expect(AUHostCLI.run(["new-unit", "Fine", "--type", "aufx", "--subtype", code], output: TextOutput(), errors: refused) == 64, "\(code)")
            #expect(refused.captured.contains("other than quotes and backslash"), "\(refused.captured)")
        }
        #expect(AUHostCLI.run(["new-unit", "Fine", "--type", "aufx", "--subtype", "fine", "--manufacturer", "Ab\"c"], output: TextOutput(), errors: TextOutput()) == 64)
        let inside = TextOutput()
        #expect(AUHostCLI.run(
            ["new-unit", "Fine", "--type", "aufx", "--subtype", "fine", "--dir", Self.repository.path + "/Plugins", "--sdk", Self.repository.path],
            output: TextOutput(), errors: inside) == 1)
        #expect(inside.captured.contains("inside the AUHost SDK"))
        #expect(!FileManager.default.fileExists(atPath: Self.repository.path + "/Plugins/Fine"))
    }

    /// Issue 35: names the package's build would refuse are refused here, a long name says
    /// so, and a --dir that is no folder is one line naming it.
    @Test func newUnitRefusesReservedNamesLongNamesAndADirThatIsNoFolder() throws {
        func refusal(_ arguments: [String]) -> (status: Int32, errors: String) {
            let errors = TextOutput()
            let status = AUHostCLI.run(["new-unit"] + arguments + ["--type", "aufx", "--subtype", "fine", "--sdk", Self.repository.path], output: TextOutput(), errors: errors)
            return (status, errors.captured)
        }
        for reserved in ["Swift", "AUPluginSDK", "foundation"] {
            let refused = refusal([reserved, "--dir", "/nonexistent-auhost-folder"])
            #expect(refused.status == 64 && refused.errors.contains("NAME '\(reserved)' is taken by the module"), "\(refused.errors)")
        }
        let long = refusal([String(repeating: "a", count: 65), "--dir", "/nonexistent-auhost-folder"])
        #expect(long.status == 64 && long.errors.contains("NAME is 65 characters long; expected at most 64"), "\(long.errors)")
        let device = refusal(["Fine", "--dir", "/dev/null"])
        #expect(device.status == 1 && device.errors == "auhost: --dir '/dev/null' is a character device, not a folder; expected the folder to create the package in\n", "\(device.errors)")
    }
}
