import AUCore
import Foundation
import Testing

/// The matches an unknown or ambiguous UNIT lists: all close ones up to a screenful.
@Suite struct CloseMatchListingTests {
    private static let echoes = (1...30).map { index in
        listedComponent("aufx:e\(String(format: "%03d", index)):FxWk", name: "Fixture Echo \(index)", identifier: "urn:fixture:echo\(index)", category: "Delay Plugin")
    }

    @Test func anUnknownNameListsEveryCloseMatchUpToAScreenful() {
        let result = runFixtureCLI(["info", "Fixture Echo"], over: fixtureRegistry(Self.echoes))
        #expect(result.status == 1)
        let lines = result.errors.split(separator: "\n").map(String.init)
        #expect(lines.first == "auhost: no unit 'Fixture Echo'; closest matches:", "\(result.errors)")
        let listed = lines.dropFirst().filter { $0.contains("Fixture Echo") }
        #expect(listed.count == ComponentRegistry.listedMatchLimit && ComponentRegistry.listedMatchLimit == 20, "\(result.errors)")
        #expect(lines.contains("  and 10 more"), "\(result.errors)")
        // Seven close ones are all listed, with no 'more'.
        let few = runFixtureCLI(["info", "Fixture Echo"], over: fixtureRegistry(Array(Self.echoes.prefix(7))))
        #expect(few.errors.split(separator: "\n").filter { $0.contains("Fixture Echo ") }.count == 7, "\(few.errors)")
        #expect(!few.errors.contains("more"))
    }

    @Test func anAmbiguousNameListsUpToAScreenful() {
        let twins = (1...25).map { listedComponent("aufx:tw\(String(format: "%02d", $0)):FxWk", name: "Twin", identifier: "urn:fixture:twin\($0)", category: "") }
        let result = runFixtureCLI(["info", "Twin"], over: fixtureRegistry(twins))
        #expect(result.status == 1)
        #expect(result.errors.contains("'Twin' is ambiguous: 25 units match"), "\(result.errors)")
        #expect(result.errors.split(separator: "\n").filter { $0.contains("  Twin  ") }.count == 20, "\(result.errors)")
        #expect(result.errors.contains("  and 5 more"), "\(result.errors)")
    }

    @Test(.timeLimit(.minutes(1))) func longNamesStayFast() {
        let registry = fixtureRegistry(Self.echoes)
        for length in [1_000, 100_000] {
            let clock = ContinuousClock()
            let start = clock.now
            let result = runFixtureCLI(["info", String(repeating: "Fixture Echo ", count: length / 13)], over: registry)
            #expect(result.status == 1)
            #expect(clock.now - start < .seconds(10), "a \(length)-character name took \(clock.now - start)")
        }
    }
}
