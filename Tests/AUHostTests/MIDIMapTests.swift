import AUCore
import AUHost
import AUPresets
import AUTestSupport
import Foundation
import Testing

/// ``MIDIMap`` on a chain rendered offline: each curve, the channel filter, a glide and
/// learn, checked in the audio and in the parameter's value.
@Suite struct MIDIMapTests {
    /// A stereo gain at -96 dB (no smoothing of its own) fed 1.0, with `midiMap`.
    final class Rig {
        let chain: ChainGraph
        let map: MIDIMap
        let input = OwnedAudioBuffers(channels: 2, capacity: 256)
        let output = OwnedAudioBuffers(channels: 2, capacity: 256)
        private var time = 0.0

        init(midiMap: String, snapshots: String = "[]") throws {
            let registry = HostRegistry.make()
            let json = """
                {"auhost": 1, "name": "Mapped gain",
                 "nodes": [{"id": "gain", "unit": "aufx:gain:AUHs", "parameters": {"gain": -96, "smoothing": 0}}],
                 "chain": ["gain"], "midiMap": \(midiMap), "snapshots": \(snapshots)}
                """
            let loaded = try PresetLoader(registry: registry).load(data: Data(json.utf8), file: "mapped.json")
            chain = try ChainGraph(loaded, registry: registry, sampleRate: 48_000)
            map = try MIDIMap(chain: chain, mappings: loaded.midiMap, snapshots: loaded.snapshots)
            try chain.graph.start()
            for channel in 0..<2 { input.buffers()[channel].update(repeating: 1) }
        }
        deinit { chain.dispose() }

        /// One 256-frame block with `events`; the left output.
        @discardableResult
        func render(_ events: [MIDIEvent] = []) -> [Float] {
            let status = events.withUnsafeBufferPointer { midi in
                chain.graph.render(frameCount: 256, timestamp: RenderTimestamp(sampleTime: time), input: input.buffers(), output: output.buffers(), midi: midi)
            }
            #expect(status == 0)
            time += 256
            return Array(output.buffers()[0])
        }

        /// The gain parameter's value in dB.
        var gain: Float { (try? chain.nodes[0].unit.parameterValue(0, scope: .global, element: 0)) ?? .nan }
    }

    static func decibels(_ gain: Float) -> Float { powf(10, gain / 20) }

    @Test func aControlChangeStepsTheParameterAtItsFrameAlongALinearCurve() throws {
        let rig = try Rig(midiMap: #"[{"cc": 7, "channel": 1, "parameter": "gain.gain", "min": -96, "max": 0}]"#)
        rig.render()
        let samples = rig.render([MIDIEvent(offset: 100, status: 0xB0, data1: 7, data2: 127)])
        #expect(samples[99] < 1e-4 && abs(samples[100] - 1) < 1e-5, "\(samples[99]) then \(samples[100])")
        rig.render([MIDIEvent(offset: 10, status: 0xB0, data1: 7, data2: 64)])
        #expect(abs(rig.gain - (-96 + 96 * 64 / 127)) < 1e-3, "\(rig.gain)")
        // Channel 2 and another controller leave it alone.
        rig.render([MIDIEvent(offset: 0, status: 0xB1, data1: 7, data2: 0), MIDIEvent(offset: 1, status: 0xB0, data1: 8, data2: 0)])
        #expect(abs(rig.gain - (-96 + 96 * 64 / 127)) < 1e-3, "\(rig.gain)")
    }

    @Test func logPitchBendToggleAndMomentaryCurves() throws {
        let rig = try Rig(midiMap: """
            [{"pitchBend": true, "parameter": "gain.gain", "min": 1, "max": 16, "curve": "log"},
             {"cc": 64, "parameter": "gain.gain", "min": -20, "max": -10, "curve": "toggle"},
             {"note": 60, "parameter": "gain.gain", "min": -40, "max": -30, "curve": "momentary"}]
            """)
        rig.render([MIDIEvent(offset: 0, status: 0xE0, data1: 0, data2: 0x40)])  // 8192 of 16383
        #expect(abs(rig.gain - powf(16, 8_192 / 16_383)) < 1e-3, "log at the centre: \(rig.gain)")
        rig.render([MIDIEvent(offset: 0, status: 0xB5, data1: 64, data2: 127)])
        #expect(rig.gain == -10, "the first press turns the toggle on: \(rig.gain)")
        rig.render([MIDIEvent(offset: 0, status: 0xB5, data1: 64, data2: 0)])
        #expect(rig.gain == -10, "letting go leaves it: \(rig.gain)")
        rig.render([MIDIEvent(offset: 0, status: 0xB5, data1: 64, data2: 127)])
        #expect(rig.gain == -20, "the second press turns it off: \(rig.gain)")
        rig.render([MIDIEvent(offset: 0, status: 0x90, data1: 60, data2: 90)])
        #expect(rig.gain == -30, "held: \(rig.gain)")
        rig.render([MIDIEvent(offset: 0, status: 0x80, data1: 60, data2: 0)])
        #expect(rig.gain == -40, "let go: \(rig.gain)")
    }

    /// 10 ms of smoothing at 48 kHz: the gain glides over 480 frames in steps, rising every
    /// step, and lands on the target at frame 480 after the CC.
    @Test func smoothingGlidesToTheTargetOverItsTime() throws {
        let rig = try Rig(midiMap: #"[{"cc": 1, "parameter": "gain.gain", "min": -60, "max": 0, "smoothing": 10}]"#)
        rig.render([MIDIEvent(offset: 0, status: 0xB0, data1: 1, data2: 0)])
        rig.render()
        let target = Self.decibels(0)
        var samples = rig.render([MIDIEvent(offset: 16, status: 0xB0, data1: 1, data2: 127)])
        samples += rig.render()
        samples += rig.render()
        let end = 16 + 480
        #expect(abs(samples[end] - target) < 1e-5 && samples[end - 1] < target * 0.99, "at the glide's end: \(samples[end - 1]) then \(samples[end])")
        let steps = (17..<end).filter { samples[$0] != samples[$0 - 1] }.count
        #expect(steps >= 480 / 32 - 1, "the glide moved in \(steps) steps")
        #expect((17...end).allSatisfy { samples[$0] >= samples[$0 - 1] }, "the glide went down somewhere")
    }

    @Test func learnMapsTheNextControlChange() throws {
        let rig = try Rig(midiMap: "[]")
        #expect(throws: ParameterIssue.self) { try rig.map.learn("gain.nothing") }
        try rig.map.learn("gain.gain")
        #expect(rig.map.takeLearned() == nil)
        rig.render([MIDIEvent(offset: 3, status: 0xB3, data1: 21, data2: 5)])
        let learned = try #require(rig.map.takeLearned())
        #expect(learned.mapping == PresetMIDIMapping(source: .controlChange(21), channel: 4, parameter: "gain.gain"))
        #expect(rig.gain == -96, "the learning CC itself moves nothing")
        rig.render([MIDIEvent(offset: 3, status: 0xB3, data1: 21, data2: 127)])
        #expect(rig.gain == 24)
        #expect(try rig.map.remove(parameter: "gain.gain") == 1)
        rig.render([MIDIEvent(offset: 3, status: 0xB3, data1: 21, data2: 0)])
        #expect(rig.gain == 24)
    }

    /// Program change 1 recalls the second snapshot from its frame over its 10 ms ramp (480
    /// frames): the gain leaves -96 dB at the event's frame and lands at 0 dB 480 frames on;
    /// a program past the last snapshot changes nothing; recall by name goes back at once.
    @Test func aProgramChangeRecallsASnapshotRamped() throws {
        let rig = try Rig(midiMap: "[]", snapshots: """
            [{"name": "silent", "parameters": {"gain.gain": -96}, "ramp": 0},
             {"name": "full", "parameters": {"gain.gain": 0}, "ramp": 10}]
            """)
        rig.render()
        var samples = rig.render([MIDIEvent(offset: 40, status: 0xC3, data1: 1, data2: 0)])
        samples += rig.render()
        samples += rig.render()
        #expect(samples[39] < 1e-4 && samples[40] < 1e-4 && samples[40 + 32] > samples[39], "the ramp did not start at the program change: \(samples[39...72])")
        #expect(samples[40 + 479] < 0.99 && abs(samples[40 + 480] - 1) < 1e-5, "\(samples[40 + 479]) then \(samples[40 + 480])")
        #expect(rig.map.recalledSnapshot?.name == "full")
        rig.render([MIDIEvent(offset: 0, status: 0xC0, data1: 7, data2: 0)])
        #expect(rig.gain == 0, "program 7 has no snapshot: \(rig.gain)")
        #expect(rig.map.recall("silent") == 0 && rig.map.recall("none") == nil)
        rig.render()
        #expect(rig.gain == -96)
    }
}
