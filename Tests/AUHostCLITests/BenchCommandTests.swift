import AUHost
import AUHostCLI
import Foundation
import Testing

/// `auhost bench graph` over the LV2 plugins .ci/run installs: what it prints, not how fast
/// (tests never assert on time).
@Suite struct BenchCommandTests {
    private func bench(_ arguments: String...) -> (status: Int32, output: String, errors: String) {
        let output = TextOutput(), errors = TextOutput()
        let status = AUHostCLI.run(["bench", "graph"] + arguments, output: output, errors: errors)
        return (status, output.captured, errors.captured)
    }

    /// The number before `suffix` on the line that starts with `prefix`.
    private func number(in text: String, line prefix: String, before suffix: String) -> Double? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
              let end = line.range(of: suffix) else { return nil }
        return Double(line[..<end.lowerBound].split(separator: " ").last ?? "")
    }

    @Test func printsTheTrivialTableAndTheReferenceChainAgainstTheCLoop() {
        let result = bench("--cycles", "200", "--frames", "32")
        #expect(result.status == 0, "\(result.errors)")
        let rows = result.output.split(separator: "\n").filter { $0.first == " " }
        #expect(rows.map { $0.split(separator: " ")[0] } == ["1", "8", "64", "256"])
        for row in rows { #expect(row.split(separator: " ").count == 5) }
        #expect(result.output.contains("medians of 15 alternating runs"))
        #expect((number(in: result.output, line: "graph   ", before: " ns/cycle") ?? 0) > 0)
        #expect((number(in: result.output, line: "C loop ", before: " ns/cycle") ?? 0) > 0)
        #expect(result.output.contains("graph overhead over the C loop: "))
    }

    @Test(arguments: [("graph", "the graph"), ("cloop", "the C loop")])
    func profileRendersOneSideAlone(side: String, name: String) {
        let result = bench("--cycles", "300", "--profile", side)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("reference chain through \(name): 300 cycles of 64 frames, "))
        #expect((number(in: result.output, line: "reference chain", before: " ns/cycle") ?? 0) > 0)
        #expect(!result.output.contains("nodes"))
    }

    @Test func aBadProfileIsAUsageError() {
        let result = bench("--profile", "both")
        #expect(result.status == 64)
        #expect(result.errors.hasPrefix("auhost: --profile takes graph, cloop or pipeline, not 'both'"))
    }

    /// The pipelined side alone: the reference chain in stages over the threads, slices counted.
    @Test func profileRendersThePipelineAlone() {
        let result = bench("--cycles", "320", "--frames", "256", "--profile", "pipeline")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("reference chain pipelined ("), "\(result.output)")
        #expect(result.output.contains(" threads: 320 slices of 256 frames, "), "\(result.output)")
        #expect((number(in: result.output, line: "reference chain", before: " ns/slice") ?? 0) > 0)
    }
}
