import AUCore
import AUMIDI
import Testing

@Suite("MIDI clock out")
struct MIDIClockGeneratorTests {
    /// A tempo map of `bpm` from beat 0, then each later `(beat, bpm)`.
    static func tempoMap(_ tempos: (beat: Double, bpm: Double)...) -> MusicTempoMap {
        var track = MusicTrack()
        for tempo in tempos { track.addExtendedTempoEvent(at: tempo.beat, bpm: tempo.bpm) }
        return MusicTempoMap(tempoTrack: track)
    }

    /// Starts at beat 0 at sample time `songStart` and renders cycles of `blockSize` from
    /// there until `frames` frames have passed: every message before then with its absolute
    /// sample time.
    static func run(_ map: MusicTempoMap, blockSize: Int, frames: Int64, songStart: Int64 = 0,
                    playRate: Double = 1) -> [(time: Int64, status: UInt8)] {
        var generator = MIDIClockGenerator()
        var buffer = [MIDIEvent](repeating: MIDIEvent(offset: 0, status: 0, data1: 0), count: 64)
        var messages: [(time: Int64, status: UInt8)] = []
        buffer.withUnsafeMutableBufferPointer { events in
            var cycle = songStart
            while cycle < songStart + frames {
                var count = 0
                if cycle == songStart { generator.start(atBeats: 0, offset: 0, into: events, count: &count) }
                generator.render(tempoMap: map, sampleRate: 48_000, songStartSampleTime: Double(songStart),
                                 playRate: playRate, cycleSampleTime: cycle, frameCount: blockSize,
                                 into: events, count: &count)
                for event in events[0..<count] where cycle + Int64(event.offset) < songStart + frames {
                    #expect(event.offset >= 0 && Int(event.offset) < blockSize)
                    messages.append((cycle + Int64(event.offset), event.status))
                }
                cycle += Int64(blockSize)
            }
        }
        return messages
    }

    /// Clock `n`'s exact sample at 48 kHz and `bpm` (an integer), rounded to the nearest:
    /// n * 48000 * 60 / (bpm * 24) = n * 120000 / bpm, in integers.
    static func expectedSample(_ clock: Int64, bpm: Int64) -> Int64 {
        (2 * clock * 120_000 + bpm) / (2 * bpm)
    }

    @Test("clocks 1/24 beat apart at 120 and 133 BPM, at the rounded exact sample, for every block size",
          arguments: [120, 133], [1, 17, 64, 4096])
    func exactSpacing(bpm: Int, blockSize: Int) {
        let frames: Int64 = 8 * 48_000 * 60 / Int64(bpm)  // 8 beats
        let messages = Self.run(Self.tempoMap((0, Double(bpm))), blockSize: blockSize, frames: frames, songStart: 1_000)
        #expect(messages.first?.status == MIDIClockStatus.start.rawValue)
        #expect(messages.first?.time == 1_000)
        let clocks = messages.dropFirst()
        #expect(clocks.count == 8 * 24)
        for (index, clock) in clocks.enumerated() {
            #expect(clock.status == 0xF8)
            #expect(clock.time - 1_000 == Self.expectedSample(Int64(index), bpm: Int64(bpm)), "clock \(index)")
        }
    }

    @Test("across a tempo change 120 -> 133 at beat 4, the same samples for every block size",
          arguments: [1, 17, 64, 4096])
    func acrossATempoChange(blockSize: Int) {
        let frames: Int64 = 96_000 + 4 * 48_000 * 60 / 133
        let clocks = Self.run(Self.tempoMap((0, 120), (4, 133)), blockSize: blockSize, frames: frames).dropFirst()
        #expect(clocks.count == 8 * 24)
        for (index, clock) in clocks.enumerated() {
            let expected = index < 96
                ? Self.expectedSample(Int64(index), bpm: 120)
                : 96_000 + Self.expectedSample(Int64(index - 96), bpm: 133)
            #expect(clock.time == expected, "clock \(index)")
        }
    }

    @Test("a play rate of 2 halves the spacing")
    func playRate() {
        let clocks = Self.run(Self.tempoMap((0, 120)), blockSize: 64, frames: 24_000, playRate: 2).dropFirst()
        let times: [Int64] = (0..<48).map { Int64($0) * 500 }
        #expect(clocks.map(\.time) == times)
    }

    @Test("start, stop, continue and song position pointers after a locate")
    func transportMessages() {
        var generator = MIDIClockGenerator()
        var buffer = [MIDIEvent](repeating: MIDIEvent(offset: 0, status: 0, data1: 0), count: 8)
        buffer.withUnsafeMutableBufferPointer { events in
            func written(_ action: (inout Int) -> Bool) -> [[UInt8]] {
                var count = 0
                #expect(action(&count))
                return events[0..<count].map { [$0.status, $0.data1, $0.data2] }
            }
            #expect(written { generator.locate(toBeats: 10, offset: 0, into: events, count: &$0) } == [[0xF2, 40, 0]])
            #expect(written { generator.locate(toBeats: 1000, offset: 0, into: events, count: &$0) } == [[0xF2, 0x20, 0x1F]])
            #expect(written { generator.locate(toBeats: 5000, offset: 0, into: events, count: &$0) } == [[0xF2, 0x7F, 0x7F]])
            #expect(!generator.isRolling)
            // Starting off a sixteenth: the next sixteenth, Continue, and clocks from there.
            #expect(written { generator.start(atBeats: 2.3, offset: 5, into: events, count: &$0) }
                == [[0xF2, 10, 0], [0xFB, 0, 0]])
            #expect(generator.isRolling && generator.nextClock == 60)
            #expect(written { generator.locate(toBeats: 16, offset: 0, into: events, count: &$0) }
                == [[0xFC, 0, 0], [0xF2, 64, 0], [0xFB, 0, 0]])
            #expect(generator.isRolling && generator.nextClock == 384)
            #expect(written { generator.stop(offset: 3, into: events, count: &$0) } == [[0xFC, 0, 0]])
            #expect(written { generator.stop(offset: 3, into: events, count: &$0) } == [])
            #expect(written { generator.start(atBeats: 0, offset: 0, into: events, count: &$0) } == [[0xFA, 0, 0]])
            #expect(generator.nextClock == 0)
        }
        #expect(MIDIClockStatus.sixteenths(ofSongPositionPointer: MIDIClockStatus.songPositionPointer(sixteenths: 4000, offset: 0)) == 4000)
    }

    @Test("a full buffer: transport messages refused whole, clocks carried to the next cycle at offset 0")
    func fullBuffer() {
        var generator = MIDIClockGenerator()
        var buffer = [MIDIEvent](repeating: MIDIEvent(offset: 0, status: 0, data1: 0), count: 2)
        buffer.withUnsafeMutableBufferPointer { events in
            var count = 1
            #expect(!generator.start(atBeats: 3, offset: 0, into: events, count: &count))
            #expect(count == 1 && !generator.isRolling)
            count = 0
            #expect(generator.start(atBeats: 0, offset: 0, into: events, count: &count))
            let segment = MIDIClockGenerator.Segment(anchorBeat: 0, anchorSampleTime: 0, samplesPerBeat: 240)
            count = 0
            generator.render(segment, cycleSampleTime: 0, frameCount: 40, into: events, count: &count)
            #expect(events.map(\.offset) == [0, 10] && generator.nextClock == 2)
            count = 0
            generator.render(segment, cycleSampleTime: 40, frameCount: 40, into: events, count: &count)
            #expect(events.map(\.offset) == [0, 0])  // clocks 2 and 3 (20 and 30) were due before
            count = 0
            generator.render(segment, cycleSampleTime: 80, frameCount: 40, into: events, count: &count)
            #expect(count == 2 && events.map(\.offset) == [0, 0])  // clocks 4 and 5 (40 and 50)
            #expect(generator.nextClock == 6)
        }
    }
}
