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

    /// A provider of one component of `format` that counts its discoveries.
    final class CountingProvider: ComponentProvider, @unchecked Sendable {
        let format: ComponentFormat
        let component: Component
        var discoveries = 0
        init(_ format: ComponentFormat, identifier: String, name: String) {
            self.format = format
            component = Component(
                description: ComponentDescription(type: "aufx", subtype: format == .lv2 ? "cntl" : "cntn", manufacturer: "Test"), name: name,
                manufacturerName: "Tests", version: "1", format: format, identifier: identifier,
                factory: { () throws(AudioUnitError) -> AudioUnit in TestGainUnit() })
        }
        func discoverComponents() -> (components: [Component], problems: [DiscoveryProblem]) {
            discoveries += 1
            return ([component], [DiscoveryProblem(format: format, location: component.identifier, message: "counted")])
        }
    }

    @Test("an lv2: reference is resolved by the LV2 providers alone; anything else, and a reference they do not resolve, discovers every provider, each once")
    func providersAreDiscoveredWhenNeeded() throws {
        let native = CountingProvider(.native, identifier: "/lib/native.so#0", name: "Native Gain")
        let lv2 = CountingProvider(.lv2, identifier: "urn:test:lv2", name: "LV2 Gain")
        let registry = ComponentRegistry(providers: [native, lv2])
        #expect(native.discoveries == 0 && lv2.discoveries == 0, "discovered before anything was asked")
        #expect(try registry.resolve("lv2:urn:test:lv2").identifier == "urn:test:lv2")
        #expect(native.discoveries == 0 && lv2.discoveries == 1)
        // A name needs every backend: the native provider is discovered now, the LV2 one not again.
        #expect(try registry.resolve("Native Gain").identifier == "/lib/native.so#0")
        #expect(native.discoveries == 1 && lv2.discoveries == 1)
        #expect(registry.components.map(\.identifier) == ["/lib/native.so#0", "urn:test:lv2"], "not in the providers' order")
        #expect(registry.problems.map(\.location) == ["/lib/native.so#0", "urn:test:lv2"])
        #expect(native.discoveries == 1 && lv2.discoveries == 1)
        // An lv2: reference the LV2 providers do not know is the usual error, after every backend.
        let fresh = CountingProvider(.native, identifier: "/lib/other.so#0", name: "Other")
        let other = ComponentRegistry(providers: [fresh, CountingProvider(.lv2, identifier: "urn:test:lv2", name: "LV2 Gain")])
        #expect(throws: AudioUnitError.self) { try other.resolve("lv2:urn:test:missing") }
        #expect(fresh.discoveries == 1)
    }

    @Test("the first component a description matches discovers the providers in order only until one has it, and is the first of every match")
    func theFirstMatchStopsTheDiscovery() {
        let first = CountingProvider(.lv2, identifier: "urn:test:lv2", name: "LV2 Gain")
        let second = CountingProvider(.native, identifier: "/lib/native.so#0", name: "Native Gain")
        let registry = ComponentRegistry(providers: [first, second])
        let inFirst = ComponentDescription(type: "aufx", subtype: "cntl", manufacturer: "Test")
        let inSecond = ComponentDescription(type: "aufx", subtype: "cntn", manufacturer: "Test")
        #expect(registry.firstComponent(matching: inFirst)?.identifier == "urn:test:lv2")
        #expect(first.discoveries == 1 && second.discoveries == 0)
        #expect(registry.firstComponent(matching: inSecond)?.identifier == "/lib/native.so#0")
        #expect(registry.firstComponent(matching: ComponentDescription(type: "aumu")) == nil)
        #expect(first.discoveries == 1 && second.discoveries == 1)
        for search in [inFirst, inSecond, ComponentDescription(type: "aufx")] {
            #expect(registry.firstComponent(matching: search)?.identifier == registry.components(matching: search).first?.identifier)
        }
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
