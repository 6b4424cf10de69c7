import AUCore
import AUEngine
@testable import AUPresets
import Foundation
import Testing

/// Hostile numbers and names in a preset: each is a problem naming its JSON path, never a
/// trap or a search that runs for minutes.
@Suite struct BadInputTests {
    @Test(arguments: ["9223372036854775807", "99999999999999999999", "1024"])
    func aHugeBusNumberIsAProblemAtItsPath(bus: String) {
        let found = problems(in: preset(
            nodes: #"{"id": "eq", "unit": "aufx:fxeq:Test"}"#,
            routing: #""connections": [["input:0", "eq:0"], ["eq:\#(bus)", "output:0"]]"#))
        #expect(found.count == 1)
        #expect(found.first?.path == "connections[1][0]")
        #expect(found.first?.message.contains("expected a bus number in 0...1023") == true)
    }

    @Test func aHugeBusNumberInACodedPresetIsAProblem() {
        let coded = ChainPreset(
            name: "coded", nodes: [PresetNode(id: "eq", unit: "aufx:fxeq:Test")],
            routing: .connections([PresetConnection(.input(), PresetEndpoint(node: "eq", bus: 0)),
                                   PresetConnection(PresetEndpoint(node: "eq", bus: .max), .output())]))
        do {
            try PresetLoader(registry: makeRegistry()).load(coded, file: "coded").dispose()
            Issue.record("loaded")
        } catch {
            #expect(error.problems.map(\.path) == ["connections[1][0]"])
        }
    }

    @Test(arguments: ["5e-324", "1e-300", "7999", "768001", "1536000", "1e308", "-1"])
    func aSampleRateOutside8kTo768kIsRefused(rate: String) {
        let found = problems(in: preset(extra: "\n  \"sampleRate\": \(rate),"))
        #expect(found.map(\.path) == ["sampleRate"])
        #expect(found.first?.message.contains("expected a sample rate in 8000...768000 Hz") == true)
    }

    @Test(arguments: ["8000", "768000", "44100"])
    func aSampleRateInsideTheRangeLoads(rate: String) {
        #expect(problems(in: preset(extra: "\n  \"sampleRate\": \(rate),")).isEmpty)
    }

    @Test func aSplitterThatCannotGrowIsReportedOnce() {
        let connections = (0..<2000).map { #"["s:\#($0)", "m\#($0):0"]"# }.joined(separator: ", ")
        let nodes = [#"{"id": "s", "unit": "aufx:splt:AUHs"}"#] + (0..<2000).map { #"{"id": "m\#($0)", "unit": "aufx:fxeq:Test"}"# }
        let found = problems(in: preset(nodes: nodes.joined(separator: ",\n"), routing: #""connections": [["input:0", "s:0"], \#(connections)]"#))
        let growth = found.filter { $0.message.contains("could not get") }
        #expect(growth.count <= 1)
        #expect(found.filter { $0.message.contains("expected a bus number in 0...1023") }.count == 2000 - 1024)
    }

    @Test func anOverlongUnitNameIsRefusedUnsearched() {
        let name = String(repeating: "x", count: 10_000)
        let found = problems(in: preset(nodes: #"{"id": "eq", "unit": "\#(name)"}"#))
        #expect(found.map(\.path) == ["nodes[0].unit"])
        #expect(found.first?.message.contains("10000 characters long; expected") == true)
    }

    @Test func theClosestMatchSearchComparesABoundedPrefix() {
        let registry = makeRegistry()
        let short = String(repeating: "fixture eq ", count: 12)
        let long = short + String(repeating: "y", count: 100_000)
        #expect(registry.closestMatches(to: long) == registry.closestMatches(to: String(long.prefix(128))))
    }
}
