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

    /// The closest-match search does bounded work (100,000 characters once took a minute):
    /// a reference over ``ComponentRegistry/maximumReferenceLength`` is refused before any
    /// search, and one under it is compared by its first 128 characters only. The time
    /// limit only keeps a regression from hanging the suite; nothing here times the search.
    @Test(.timeLimit(.minutes(1))) func longNamesAreRefusedOrComparedByTheirStartOnly() {
        let registry = fixtureRegistry(Self.echoes)
        let huge = runFixtureCLI(["info", String(repeating: "Fixture Echo ", count: 100_000 / 13)], over: registry)
        #expect(huge.status == 1)
        #expect(huge.errors.contains("characters long; expected a name, type:subtype:manufacturer or URI of at most \(ComponentRegistry.maximumReferenceLength)"), "\(huge.errors.prefix(300))")
        #expect(!huge.errors.contains("closest matches"), "no search was made")
        let long = runFixtureCLI(["info", String(repeating: "Fixture Echo ", count: 1_000 / 13)], over: registry)
        #expect(long.status == 1)
        #expect(long.errors.contains("closest matches"), "\(long.errors.prefix(300))")
    }
}
