import AUCore
import Testing

@Suite struct FourCharCodeTests {
    @Test func parsesAndPrints() {
        let code: FourCharCode = "aufx"
        #expect(code.rawValue == 0x6175_6678)
        #expect(code.description == "aufx")
        #expect(FourCharCode(parsing: "peq")?.description == "peq ")
        #expect(FourCharCode(parsing: "*") == .wildcard)
        #expect(FourCharCode(parsing: "toolong") == nil)
        #expect(FourCharCode(parsing: "") == nil)
        #expect(FourCharCode(parsing: "ab\u{7}") == nil)
        #expect(FourCharCode(rawValue: 0x0102_0304).description == "0x1020304")
    }

    @Test func standardTypes() {
        let codes = ComponentType.all.map { $0.code.description }
        #expect(codes == ["aufx", "aumu", "augn", "aumx", "auou", "aufc", "aupn", "aumf", "aumi", "auol"])
        #expect(ComponentType.name(of: "aumu") == "music device")
    }
}

@Suite struct ComponentDescriptionTests {
    let delay = ComponentDescription(type: "aufx", subtype: "dely", manufacturer: "AUHs")

    @Test(arguments: [
        ("aufx:dely:AUHs", true), ("*:*:*", true), ("aufx:*:*", true), ("*:dely:*", true), ("*:*:AUHs", true),
        ("aumu:*:*", false), ("aufx:gain:*", false), ("aufx:dely:appl", false), ("0:dely:0", true),
    ])
    func wildcardMatching(search: String, expected: Bool) throws {
        let description = try #require(ComponentDescription(parsing: search))
        #expect(description.matches(delay) == expected)
    }

    @Test func flagsMatchOnlyUnderTheMask() {
        var component = delay
        component.componentFlags = [.sandboxSafe]
        var search = ComponentDescription(type: "aufx")
        search.componentFlags = [.sandboxSafe]
        #expect(search.matches(component))  // empty mask: flags ignored
        search.componentFlagsMask = [.sandboxSafe]
        #expect(search.matches(component))
        search.componentFlags = []
        #expect(!search.matches(component))  // mask says the bit must be clear
        search.componentFlagsMask = [.isV3AudioUnit]
        #expect(search.matches(component))  // other bits are not compared
    }

    @Test func parsingAndPrinting() {
        #expect(ComponentDescription(parsing: "aufx:peq:AUHs")?.subtype.description == "peq ")
        #expect(ComponentDescription(parsing: "aufx")?.description == "aufx:*:*")
        #expect(ComponentDescription(parsing: "a:b:c:d") == nil)
        #expect(ComponentDescription(parsing: "aufx:toolong:x") == nil)
    }
}

@Suite struct RegistryTests {
    func registry() -> ComponentRegistry {
        let registry = ComponentRegistry()
        for (subtype, name, flags) in [("tgan", "Test Gain", ComponentFlags()), ("hide", "Hidden", .unsearchable)] {
            let description = ComponentDescription(type: "aufx", subtype: FourCharCode(parsing: subtype)!, manufacturer: "Test", componentFlags: flags)
            registry.register(Component(
                description: description, name: name, manufacturerName: "Tests", version: "1", format: .builtin,
                identifier: "test:\(subtype)", factory: { () throws(AudioUnitError) -> AudioUnit in TestGainUnit() }))
        }
        registry.register(Component(
            description: ComponentDescription(type: "aumu", subtype: "synt", manufacturer: "Test"), name: "Test Gain",
            manufacturerName: "Tests", version: "1", format: .lv2, identifier: "urn:test:synth",
            factory: { () throws(AudioUnitError) -> AudioUnit in TestGainUnit() }))
        return registry
    }

    @Test func unsearchableComponentsNeedAnExactSearch() {
        let registry = registry()
        #expect(registry.count(matching: ComponentDescription(type: "aufx")) == 1)
        #expect(registry.count(matching: ComponentDescription(type: "aufx", subtype: "hide", manufacturer: "Test")) == 1)
        #expect(registry.count(matching: ComponentDescription()) == 2)
    }

    @Test func resolvesByCodesURIAndName() throws {
        let registry = registry()
        #expect(try registry.resolve("aufx:tgan:Test").identifier == "test:tgan")
        #expect(try registry.resolve("lv2:urn:test:synth").description.type == "aumu")
        #expect(try registry.resolve("urn:test:synth").description.type == "aumu")
        #expect(try registry.resolve("Hidden").identifier == "test:hide")
    }

    @Test func ambiguousAndUnknownReferencesListCandidates() {
        let registry = registry()
        #expect {
            try registry.resolve("Test Gain")
        } throws: { error in
            let message = (error as? AudioUnitError)?.message ?? ""
            return message.contains("ambiguous") && message.contains("aufx:tgan:Test") && message.contains("aumu:synt:Test")
        }
        #expect {
            try registry.resolve("Test Gian")
        } throws: { error in
            let message = (error as? AudioUnitError)?.message ?? ""
            return message.contains("no unit 'Test Gian'") && message.contains("Test Gain")
        }
    }
}
