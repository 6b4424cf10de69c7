import AUCore
import AUHost
import AUHostCLI
import AUNative
import Foundation
import Testing

/// The package's own units load from the build folder, and the CLI shows them.
@Suite struct LoadingTests {
    static let expected: [(String, String)] = [
        ("aufx:gain:AUHs", "Gain"), ("aufx:dely:AUHs", "Delay"), ("aufx:peq :AUHs", "Parametric EQ"),
        ("aufx:comp:AUHs", "Compressor"), ("aufx:rvrb:AUHs", "Reverb"), ("augn:tone:AUHs", "Tone Generator"),
        ("aumu:synt:AUHs", "Synth"),
    ]

    @Test func everyUnitOfThePackageLoads() {
        let found = NativeHarness.discovery
        #expect(found.problems.isEmpty, "\(found.problems)")
        for (code, name) in Self.expected {
            let component = found.components.first { $0.description.description == code }
            #expect(component?.name == name, "\(code) not found: \(NativeHarness.missingHint)")
            #expect(component?.format == .native)
            #expect(component?.manufacturerName == "AUHost")
            #expect(component?.identifier.hasPrefix(NativeHarness.pluginFolder) == true)
        }
    }

    @Test(arguments: LoadingTests.expected.map(\.0))
    func everyUnitInstantiatesInitializesAndRendersSilenceToSilenceOrSound(_ code: String) throws {
        let unit = try NativeHarness.unit(code)
        let output = try NativeHarness.render(unit, frames: 1024)
        #expect(output.allSatisfy { $0.count == 1024 && $0.allSatisfy(\.isFinite) })
        #expect(!unit.parameters.infos.isEmpty)
        unit.dispose()
        #expect(unit.state == .disposed)
    }

    @Test func listAndInfoShowTheNativeUnits() throws {
        let output = TextOutput(), errors = TextOutput()
        let registry = ComponentRegistry(providers: [NativeProvider(searchPath: NativeHarness.searchPath)])
        #expect(AUHostCLI.run(["list", "--format", "native"], output: output, errors: errors, makeRegistry: { registry }) == 0)
        for (code, name) in Self.expected {
            #expect(output.captured.contains(code) && output.captured.contains(name), "list lacks \(code)")
        }
        let info = TextOutput()
        #expect(AUHostCLI.run(["info", "aufx:dely:AUHs"], output: info, errors: errors, makeRegistry: { registry }) == 0)
        for parameter in ["time", "feedback", "mix", "Delay Time"] {
            #expect(info.captured.contains(parameter), "info lacks \(parameter):\n\(info.captured)")
        }
    }

    @Test func theStandardSearchPathHasTheEnvironmentFoldersFirstAndTheBuildFolderLast() {
        let path = PluginSearchPath.standard()
        #expect(path.folders.last?.isBuildFolder == true)
        #expect(path.folders.last?.path == PluginSearchPath.executableFolder())
        #expect(path.folders.contains { $0.path == "/usr/local/lib/auhost/plugins" })
    }

    @Test func factoryPresetsReachTheUnitAsParameterValues() throws {
        let unit = try NativeHarness.unit("aufx:dely:AUHs")
        let presets = try unit.value(of: .factoryPresets)
        #expect(presets.map(\.name) == ["Slapback", "Long Echo"])
        try unit.setValue(presets[1], for: .presentPreset)
        #expect(try NativeHarness.value(unit, "time") == 600)
        #expect(try NativeHarness.value(unit, "feedback") == 55)
    }

    @Test func aRefusedFormatIsAnErrorNamingTheUnit() throws {
        let unit = try NativeHarness.unit("aufx:rvrb:AUHs")
        try unit.setValue(.canonical(sampleRate: 48_000, channels: 4), for: .streamFormat, scope: .output, element: 0)
        #expect {
            try unit.initialize()
        } throws: { error in
            guard let error = error as? AudioUnitError else { return false }
            return error.message.contains("Reverb") && error.message.contains("one or two channels")
        }
    }
}
