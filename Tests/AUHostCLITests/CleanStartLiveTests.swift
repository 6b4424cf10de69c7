import AUHost
import AUTestSupport
import Foundation
import Testing

/// A clean start under jackd: the chain runs `LiveChain.preRollPeriods` periods with its
/// ports unconnected before `--capture-from`/`--playback-to` connect them.
@Suite(.serialized) struct CleanStartLiveTests {
    @Test func thePortsAreConnectedOnlyAfterSilentPeriods() throws {
        var listener: JACKTestClient?
        let rig = try LiveRig(
            preset: gainChain, extraArguments: ["--playback-to", "listener:in_1"], periodFrames: 256,
            prepare: { server in
                listener = try JACKTestClient(name: "listener", serverName: server, captureChannels: 1, playbackChannels: 0) { _, _, _ in }
                try listener?.start()
            })
        defer {
            listener?.stop()
            listener = nil
            rig.tearDown()
        }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        #expect((listener?.capturePorts.first?.connectionCount ?? 0) >= 1, "the playback ports were not connected at start")
        let status = try rig.send("status")
        let preroll = status.split(separator: " ").first { $0.hasPrefix("preroll=") }.flatMap { Int($0.dropFirst("preroll=".count)) }
        #expect((preroll ?? 0) >= LiveChain.preRollPeriods, "periods before the ports were connected: \(String(describing: preroll)); \(status)")
    }
}
