import AUTestSupport
import Foundation
import Testing

/// `make install` as a packager runs it (DESTDIR, PREFIX=/usr), through the Makefile's
/// copying step over the products this test run was built with: the files land where an
/// installed auhost looks, and that auhost finds its native units and its SDK by itself.
@Suite struct InstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The native units the Makefile installs: one library per folder of Plugins/.
    static func unitNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Plugins").path).sorted()
    }

    /// Runs `make TARGET` in the checkout with `variables`, returning its status and output.
    func make(_ target: String, _ variables: [String: String]) throws -> (status: Int32, output: String) {
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["make", "-s", target] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" },
            directory: Self.repository)
        return (result.status, result.output + result.errors)
    }

    /// Runs `executable` with this process's environment minus AUHOST_PLUGIN_PATH and
    /// AUHOST_SDK, HOME set to `home` (no units of this user's), in `home`.
    func runInstalled(_ executable: String, _ arguments: [String], home: String) throws -> (status: Int32, output: String, errors: String) {
        try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["-u", "AUHOST_PLUGIN_PATH", "-u", "AUHOST_SDK", executable] + arguments,
            environment: ["HOME": home], directory: URL(fileURLWithPath: home))
    }

    @Test(.timeLimit(.minutes(1))) func installPutsTheToolTheUnitsAndTheSDKWhereTheInstalledToolFindsThem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let stage = folder.file("stage"), home = folder.file("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let products = try auhostExecutable().deletingLastPathComponent().path
        let variables = ["DESTDIR": stage, "PREFIX": "/usr", "INSTALL_FROM": products]
        let installed = try make("install-files", variables)
        try #require(installed.status == 0, "\(installed.output)")

        let prefix = stage + "/usr"
        let files = FileManager.default
        #expect(files.isExecutableFile(atPath: prefix + "/bin/auhost"))
        for unit in try Self.unitNames() {
            #expect(files.fileExists(atPath: prefix + "/lib/auhost/plugins/libAUHost\(unit).so"), "\(unit)")
        }
        // The SDK is a package of its own, its sources copied (not links into the checkout).
        let sdk = prefix + "/share/auhost/sdk"
        let manifest = try String(contentsOfFile: sdk + "/Package.swift", encoding: .utf8)
        #expect(manifest.contains(#".library(name: "AUPluginSDK""#))
        for file in ["Sources/AUPluginSDK/PluginUnit.swift", "Sources/CAUPluginABI/include/auhost_plugin.h"] {
            let attributes = try files.attributesOfItem(atPath: sdk + "/" + file)
            #expect(attributes[.type] as? FileAttributeType == .typeRegular, "\(file)")
        }

        // The C API under the Python package (docs/PYTHON.md).
        #expect(files.fileExists(atPath: prefix + "/include/auhost.h"))
        #expect(files.fileExists(atPath: prefix + "/lib/libauhost.so"))

        // The shipped presets and songs, found by name (`auhost graph vocal`).
        for name in ShippedPresets.files + ["gm-song.mid"] {
            #expect(files.fileExists(atPath: prefix + "/share/auhost/presets/" + name), "\(name)")
        }
        let byName = try runInstalled(prefix + "/bin/auhost", ["graph", "vocal"], home: home)
        #expect(byName.status == 0, "\(byName.errors)")

        let version = try runInstalled(prefix + "/bin/auhost", ["--version"], home: home)
        #expect(version.status == 0, "\(version.errors)")
        #expect(version.output.hasPrefix("auhost "), "\(version.output)")

        // Without AUHOST_PLUGIN_PATH the installed tool finds the installed units, and only those.
        let list = try runInstalled(prefix + "/bin/auhost", ["list", "--format", "native", "--json"], home: home)
        #expect(list.status == 0, "\(list.errors)")
        let units = try #require(JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]], "\(list.output)")
        let codes = Set(units.map { "\($0["type"] ?? ""):\($0["subtype"] ?? ""):\($0["manufacturer"] ?? "")" })
        #expect(codes.isSuperset(of: ["aufx:gain:AUHs", "aufx:dely:AUHs"]), "\(codes)\n\(list.errors)")
        let libraries = Set(units.compactMap { ($0["identifier"] as? String)?.split(separator: "#").first.map(String.init) })
        #expect(libraries == Set(try Self.unitNames().map { prefix + "/lib/auhost/plugins/libAUHost\($0).so" }), "\(libraries)")

        // Its new-unit builds against the installed SDK, the checkout nowhere in the package.
        let scaffold = try runInstalled(prefix + "/bin/auhost", ["new-unit", "Wobble", "--type", "aufx", "--subtype", "wobl", "--dir", home], home: home)
        #expect(scaffold.status == 0, "\(scaffold.errors)")
        #expect(scaffold.output.contains("cd \(home)/Wobble && swift build"), "\(scaffold.output)")
        let generated = try String(contentsOfFile: home + "/Wobble/Package.swift", encoding: .utf8)
        #expect(generated.contains(#"?? "\#(sdk)""#), "\(generated)")
        #expect(!generated.contains(Self.repository.path), "\(generated)")

        let removed = try make("uninstall", variables)
        #expect(removed.status == 0, "\(removed.output)")
        #expect(!files.fileExists(atPath: prefix + "/bin/auhost"))
        #expect(!files.fileExists(atPath: prefix + "/lib/auhost"))
        #expect(!files.fileExists(atPath: sdk))
    }
}
