import AUCore
import Foundation
import Testing
import AUTestSupport
@testable import AULV2

/// AUHost's rendering of a plugin against lilv's own `lv2apply` on the same input file and
/// control values. lv2apply runs the plugin one frame per `run()`; AUHost renders in
/// blocks of 256, so these plugins are ones whose output does not depend on the block
/// size. The comparison is bit-exact except for denormals: AUHost renders with
/// flush-to-zero / denormals-are-zero (DESIGN.md §3) and lv2apply does not, so a sample may
/// differ by less than `Float.leastNormalMagnitude` (1.2e-38; shaper shows 2.9e-41).
@Suite struct LV2ApplyTests {
    struct Case: Sendable, CustomStringConvertible {
        var uri: String
        var controls: [String: Float]
        var description: String { uri }
    }

    static let cases: [Case] = [
        Case(uri: "http://plugin.org.uk/swh-plugins/amp", controls: ["gain": -6]),
        Case(uri: "http://plugin.org.uk/swh-plugins/diode", controls: ["mode": 1.5]),
        Case(uri: "http://plugin.org.uk/swh-plugins/shaper", controls: ["shapep": 3]),
        Case(uri: "http://drobilla.net/plugins/mda/Overdrive", controls: ["drive": 0.7, "muffle": 0.3, "output": 0.6]),
    ]

    @Test(arguments: cases)
    func matchesLV2Apply(_ testCase: Case) throws {
        let directory = try TemporaryFolder(prefix: "auhost-lv2apply")
        defer { directory.remove() }

        let unit = try LV2TestSupport.unit(testCase.uri)
        unit.renderMode = .offline
        let channels = unit.formats(.input).reduce(0) { $0 + $1.channelsPerFrame }
        let frames = 9_600
        let input = (0..<channels).map { channel in
            (0..<frames).map { LV2TestSupport.sine($0, frequency: 440 + 110 * Double(channel), amplitude: 0.8) + LV2TestSupport.sine($0, frequency: 3_000, amplitude: 0.15) }
        }
        for (symbol, value) in testCase.controls {
            let info = try #require(unit.parameters.infos.first { $0.identifier == symbol }, "no port \(symbol)")
            try unit.setParameter(info.id, value: value)
        }
        try unit.initialize()
        var renderer = OfflineUnitRenderer(unit: unit, blockSize: 256)
        let buses = unit.formats(.input).map(\.channelsPerFrame)
        let ours = try renderer.render(frameCount: frames) { bus, channel, frame in
            input[buses.prefix(bus).reduce(0, +) + channel][frame]
        }.flatMap { $0 }

        let inputFile = directory.url.appendingPathComponent("in.wav")
        let outputFile = directory.url.appendingPathComponent("out.wav")
        try WAVFile.write(input, sampleRate: 48_000, to: inputFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/lv2apply")
        let controls: [String] = testCase.controls.sorted { $0.key < $1.key }.flatMap { ["-c", $0.key, String($0.value)] }
        process.arguments = ["-i", inputFile.path, "-o", outputFile.path] + controls + [testCase.uri]
        process.standardOutput = FileHandle.nullDevice
        try ChildProcess.launch(process)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let theirs = try WAVFile.read(outputFile)
        #expect(theirs.count == ours.count)
        for (channel, (a, b)) in zip(ours, theirs).enumerated() {
            #expect(a.count == b.count, "channel \(channel) length")
            #expect(LV2TestSupport.maximumDifference(a, b) < Float.leastNormalMagnitude, "channel \(channel) of \(testCase.uri)")
            #expect(a.contains { $0 != 0 }, "channel \(channel) is silent")
        }
    }
}
