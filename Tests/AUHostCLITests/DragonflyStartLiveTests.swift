import AUHost
import AUTestSupport
import Foundation
import Testing

/// A chain with Dragonfly Room (issue 34: its starts had xruns in their first seconds) under
/// jackd: before JACK's thread renders it, the chain rendered `LiveChain.preRollPeriods`
/// periods of silence on the control thread (its first `run` is 5 times slower than the
/// next ones), then ran that many periods with its ports unconnected; then it plays the
/// signal through. The xrun counts of 10 starts against an idle client's are in
/// docs/BENCHMARKS.md (`scripts/start-xruns.sh`): a test must not count xruns of a loaded machine.
@Suite(.serialized) struct DragonflyStartLiveTests {
    static let bundle = "/usr/lib/lv2/DragonflyRoomReverb.lv2"
    static let room = #"{"auhost": 1, "name": "Room", "nodes": [{"id": "room", "unit": "lv2:urn:dragonfly:room"}], "chain": ["room"]}"#

    /// The whole number after `key=` in a `status` reply.
    static func number(_ key: String, in status: String) -> Int? {
        status.split(separator: " ").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: bundle), "needs Dragonfly Room: the dragonfly-reverb-lv2 package (make test installs it)"))
    func dragonflyRoomWarmsUpOffJACKsThreadThenPlays() throws {
        let rig = try LiveRig(preset: Self.room, periodFrames: 256)
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        try rig.connectTester()
        let (gain, _) = rig.measure()
        #expect(gain > 0.05, "Dragonfly Room played nothing through: gain \(gain)")
        let status = try rig.send("status")
        #expect(Self.number("warmup", in: status) == LiveChain.preRollPeriods, "\(status)")
        #expect((Self.number("preroll", in: status) ?? 0) >= LiveChain.preRollPeriods, "\(status)")
        #expect(Self.number("errors", in: status) == 0, "\(status)")
    }
}
