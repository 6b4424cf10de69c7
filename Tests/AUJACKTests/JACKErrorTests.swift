import AUJACK
import Testing

/// How JACK errors name the server: the one given, else the one libjack picks
/// (`JACK_DEFAULT_SERVER`, else `default`), never a vague "(default)".
@Suite struct JACKErrorTests {
    @Test func theServerIsNamedAsLibjackPicksIt() {
        #expect(JACKError.serverLabel("studio", environment: ["JACK_DEFAULT_SERVER": "other"]) == "'studio'")
        #expect(JACKError.serverLabel(nil, environment: ["JACK_DEFAULT_SERVER": "studio"]) == "'studio' (JACK_DEFAULT_SERVER)")
        #expect(JACKError.serverLabel(nil, environment: ["JACK_DEFAULT_SERVER": ""]) == "'default'")
        #expect(JACKError.serverLabel(nil, environment: [:]) == "'default'")
    }
}
