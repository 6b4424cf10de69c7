import AUCore
import AUEngine
import AUHost
import AUHostCLI
import Foundation
import Testing

/// A component for listings only: instantiating it fails.
func listedComponent(
    _ codes: String, name: String, manufacturerName: String = "Fixture Works", identifier: String, category: String
) -> Component {
    Component(
        description: ComponentDescription(parsing: codes)!, name: name, manufacturerName: manufacturerName, version: "1.0",
        format: .lv2, identifier: identifier, category: category,
        factory: { () throws(AudioUnitError) -> AudioUnit in throw AudioUnitError(.extensionNotFound, "listing fixture") })
}

/// The built-in units plus an LV2-like reverb (category `Reverb Plugin`, as lilv labels
/// classes) and a music effect (`aumf`).
func fixtureRegistry(_ extra: [Component] = []) -> ComponentRegistry {
    let registry = ComponentRegistry(providers: [BuiltinUnits()])
    registry.register(listedComponent("aufx:hall:FxWk", name: "Big Hall", identifier: "urn:fixture:hall", category: "Reverb Plugin"))
    registry.register(listedComponent("aumf:vocd:FxWk", name: "Talkbox", identifier: "urn:fixture:vocoder", category: "Modulator Plugin"))
    for component in extra { registry.register(component) }
    return registry
}

/// Runs the CLI in-process over `registry` (the built-in units and two listing fixtures).
func runFixtureCLI(_ arguments: [String], over registry: ComponentRegistry = fixtureRegistry()) -> (status: Int32, output: String, errors: String) {
    let output = TextOutput()
    let errors = TextOutput()
    let status = AUHostCLI.run(arguments, output: output, errors: errors) { registry }
    return (status, output.captured, errors.captured)
}

/// The names `list` printed, in order (the column after the codes).
private func listedNames(_ arguments: String...) -> [String] {
    let result = runFixtureCLI(["list"] + arguments)
    #expect(result.status == 0, "\(result.errors)")
    return result.output.split(separator: "\n").map { line in
        String(line.split(separator: "  ", omittingEmptySubsequences: true)[1]).trimmingCharacters(in: .whitespaces)
    }
}

/// `auhost list TEXT`, `--category`, `--effects` and the category column.
@Suite struct ListSearchTests {
    @Test func searchTextMatchesNamesCodesIdentifiersAndCategoriesCaseInsensitively() {
        #expect(listedNames("split") == ["Splitter"])
        #expect(listedNames("SPLITTER") == ["Splitter"])
        #expect(listedNames("aufx:splt:AUHs") == ["Splitter"])
        #expect(listedNames("aufx:hall") == ["Big Hall"])
        #expect(listedNames("hall:fxwk") == ["Big Hall"])
        #expect(listedNames("vocd") == ["Talkbox"])
        #expect(listedNames("aumf") == ["Talkbox"])
        #expect(listedNames("fixture works") == ["Big Hall", "Talkbox"])
        #expect(listedNames("urn:fixture:voc") == ["Talkbox"])
        #expect(listedNames("builtin:ipod") == ["iPod EQ"])
        #expect(listedNames("reverb") == ["Big Hall"])
        #expect(listedNames("converter") == ["Format Converter"])
        #expect(listedNames("no such text").isEmpty)
        #expect(runFixtureCLI(["list", "a", "b"]).status == 64)
    }

    @Test func categoryMatchesCaseInsensitivelyWithOrWithoutLV2sPluginWord() {
        #expect(listedNames("--category", "reverb") == ["Big Hall"])
        #expect(listedNames("--category", "Reverb Plugin") == ["Big Hall"])
        #expect(listedNames("--category", "UTILITY") == ["Splitter"])
        #expect(listedNames("--category", "Rev").isEmpty)
        #expect(listedNames("--category", "output", "--subtype", "genr") == ["Generic Output"])
    }

    @Test func effectsAreEitherType() {
        #expect(listedNames("--effects") == ["Splitter", "iPod EQ", "Big Hall", "Talkbox"])
        #expect(listedNames("--effects", "talk") == ["Talkbox"])
        let help = runFixtureCLI(["list", "--help"]).output
        #expect(help.contains("--effects") && help.contains("either type, aufx (effect) or aumf"))
    }

    @Test func everyBuiltinUnitHasACategory() {
        let units = ComponentRegistry(providers: [BuiltinUnits()]).components
        #expect(!units.isEmpty)
        #expect(units.allSatisfy { !$0.category.isEmpty }, "\(units.filter { $0.category.isEmpty }.map(\.name))")
    }

    @Test func theTextListingHasACategoryColumn() {
        let lines = runFixtureCLI(["list"]).output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("aufx:splt:AUHs  Splitter ") && $0.contains("  Utility ") && $0.hasSuffix("  builtin  builtin:Splitter") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("aufx:hall:FxWk  Big Hall ") && $0.contains("  Reverb ") && !$0.contains("Reverb Plugin") }, "\(lines)")
    }

    @Test func jsonKeepsTheFilters() throws {
        let result = runFixtureCLI(["list", "--json", "--effects", "fixture"])
        #expect(result.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(array.map { $0["name"] as? String } == ["Big Hall", "Talkbox"])
        #expect(array.first?["category"] as? String == "Reverb Plugin")
        let reverbs = try #require(try JSONSerialization.jsonObject(with: Data(runFixtureCLI(["list", "--category", "reverb", "--json"]).output.utf8)) as? [[String: Any]])
        #expect(reverbs.map { $0["identifier"] as? String } == ["urn:fixture:hall"])
    }
}

/// The same points through the real binary, over the LV2 plugins installed in CI (swh, mda, calf).
@Suite struct ListExecutableTests {
    static var installed: Bool { ["amp-swh.lv2", "mda.lv2", "calf.lv2"].allSatisfy { FileManager.default.fileExists(atPath: "/usr/lib/lv2/" + $0) } }

    /// The listing's rows as columns (codes, name, category, format, identifier): split where
    /// two spaces or more separate them.
    static func rows(_ arguments: String...) throws -> [[String]] {
        let result = try runExecutable(["list"] + arguments)
        #expect(result.status == 0, "\(result.errors)")
        return result.output.split(separator: "\n").map { line in
            line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    @Test("list TEXT, --category, --effects and the category column", .enabled(if: installed, "swh-lv2, mda-lv2 and calf (make deps)"))
    func searchCategoryAndEffects() throws {
        let reverb = try Self.rows("reverb")
        #expect(reverb.contains { $0[1] == "MDA Ambience" && $0[2] == "Reverb" } && reverb.contains { $0[1] == "Calf Reverb" }, "\(reverb)")
        #expect(reverb.allSatisfy { $0.joined(separator: " ").lowercased().contains("reverb") }, "\(reverb)")
        let category = try Self.rows("--category", "Reverb")
        #expect(category.contains { $0[1] == "MDA Ambience" } && category.allSatisfy { $0[2] == "Reverb" }, "\(category)")
        #expect(Set(try Self.rows("--effects").map { String($0[0].prefix(4)) }) == ["aufx", "aumf"])
        #expect(try Self.rows().contains { $0.last == "http://plugin.org.uk/swh-plugins/amp" && $0[2] == "Amplifier" })
    }

    @Test("an unknown name lists its close matches", .enabled(if: installed, "swh-lv2, mda-lv2 and calf (make deps)"))
    func closeMatches() throws {
        let result = try runExecutable(["info", "Calf Reverbb"])
        #expect(result.status == 1)
        let lines = result.errors.split(separator: "\n")
        #expect(lines.first == "auhost: no unit 'Calf Reverbb'; closest matches:", "\(result.errors)")
        #expect(lines.contains { $0.contains("  Calf Reverb  (lv2: http://calf.sourceforge.net/plugins/Reverb)") }, "\(result.errors)")
    }
}
