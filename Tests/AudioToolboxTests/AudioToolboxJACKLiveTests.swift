import AUCore
import AUJACK
import AUTestSupport
import Foundation
import Testing

/// The seed program through JACK, the default device: Examples/CoreAudioMixerHost run
/// against a jackd of the test's own (dummy driver, 44.1 kHz, 512 frames) with no
/// AUHOST_DEVICE, its `AudioToolbox:out_1` recorded by a JACK client. The recording's start
/// is wherever the connection was made, so the test finds the program's three phases in
/// order in it: 440 + 660 Hz, then 440 Hz alone, then 880 + 660 Hz (the same Goertzel
/// measure and thresholds as MixerHostExampleTests, over windows of 4096 frames).
@Suite(.serialized) struct AudioToolboxJACKLiveTests {
    @Test func theSeedProgramPlaysThroughJACK() throws {
        let folder = try AudioToolboxBuild.scratchFolder("jack")
        defer { try? FileManager.default.removeItem(at: folder) }
        let program = folder.appendingPathComponent("mixerhost")
        try AudioToolboxBuild.compileC(AudioToolboxBuild.root.appendingPathComponent("Examples/CoreAudioMixerHost/main.c"), to: program)
        let (samples, exited, connected) = try TextbookProgramJACKLiveTests.recordThroughJACK(program)
        #expect(exited, "mixerhost through JACK")
        #expect(connected, "AudioToolbox:out_1 appeared and was connected")

        var phases: [String] = []
        var start = 0
        while start + 4096 <= samples.count {
            let window = Array(samples[start..<(start + 4096)])
            let present = [440.0, 660, 880].map { Goertzel.amplitude(of: $0, in: window, sampleRate: 44_100) > 0.15 }
            let absent = [440.0, 660, 880].map { Goertzel.amplitude(of: $0, in: window, sampleRate: 44_100) < 0.02 }
            let phase: String? = switch (present, absent) {
            case ([true, true, false], [false, false, true]): "440+660"
            case ([true, false, false], [false, true, true]): "440"
            case ([false, true, true], [true, false, false]): "880+660"
            default: nil
            }
            if let phase, phases.last != phase { phases.append(phase) }
            start += 2048
        }
        #expect(phases == ["440+660", "440", "880+660"], "phases found in order: \(phases), \(samples.count) frames recorded")
    }
}
