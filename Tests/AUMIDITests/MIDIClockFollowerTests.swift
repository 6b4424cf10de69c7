import AUCore
import AUMIDI
import Testing

@Suite("MIDI clock in")
struct MIDIClockFollowerTests {
    /// Feeds `messages` (as the generator wrote them) to a follower at 48 kHz, calling
    /// `check` after each clock with the clock's number from the start.
    static func follow(_ messages: [(time: Int64, status: UInt8)], jitter: (inout SplitMix64) -> Int64 = { _ in 0 },
                       check: (MIDIClockFollower, Int, Int64) -> Void) {
        var follower = MIDIClockFollower(sampleRate: 48_000)
        var random = SplitMix64(state: 0xC10C)
        var clock = 0
        for message in messages {
            let time = message.time + jitter(&random)
            follower.receive(MIDIEvent(offset: 0, status: message.status, data1: 0), cycleSampleTime: time)
            guard message.status == MIDIClockStatus.timingClock.rawValue else { continue }
            check(follower, clock, time)
            clock += 1
        }
        #expect(clock > 0)
    }

    @Test("133 BPM from the generator: within 0.004 BPM once 2 beats are in, the position counting 1/24 beat")
    func steadyTempo() {
        let messages = MIDIClockGeneratorTests.run(MIDIClockGeneratorTests.tempoMap((0, 133)), blockSize: 64,
                                                   frames: 16 * 21_654)
        Self.follow(messages) { follower, clock, time in
            #expect(follower.isRolling)
            #expect(follower.beats(atSampleTime: time) == Double(clock) / 24)
            if clock == 0 { #expect(follower.bpm == nil) }
            if clock >= 48 { #expect(abs(follower.bpm! - 133) < 0.004, "clock \(clock): \(follower.bpm!)") }
        }
    }

    @Test("120 -> 140 BPM at beat 8: followed fully 48 clocks after the change")
    func tempoChange() {
        let map = MIDIClockGeneratorTests.tempoMap((0, 120), (8, 140))
        let messages = MIDIClockGeneratorTests.run(map, blockSize: 256, frames: 192_000 + 8 * 48_000 * 60 / 140)
        Self.follow(messages) { follower, clock, _ in
            let bpm = follower.bpm ?? 0
            switch clock {
            case 48..<192: #expect(abs(bpm - 120) < 0.004, "clock \(clock): \(bpm)")
            case 216: #expect(bpm > 125 && bpm < 135, "halfway: \(bpm)")
            case 240...: #expect(abs(bpm - 140) < 0.004, "clock \(clock): \(bpm)")
            default: break
            }
        }
    }

    @Test("±1 sample of jitter on every clock: within 0.01 BPM of 133 once 2 beats are in")
    func jitter() {
        let messages = MIDIClockGeneratorTests.run(MIDIClockGeneratorTests.tempoMap((0, 133)), blockSize: 128,
                                                   frames: 32 * 21_654)
        var worst = 0.0
        Self.follow(messages, jitter: { Int64($0.next() % 3) - 1 }) { follower, clock, _ in
            guard clock >= 48 else { return }
            worst = max(worst, abs(follower.bpm! - 133))
        }
        // The bound: (0.5 rounding + 1 jitter) * 2 / 48 samples of a 902.26-sample spacing.
        #expect(worst < 0.0093, "worst \(worst)")
        #expect(worst > 0)
    }

    @Test("Start, Stop, song position pointer and Continue move the transport; a pause restarts the tempo window")
    func transport() {
        var follower = MIDIClockFollower(sampleRate: 48_000)
        func receive(_ status: MIDIClockStatus, at time: Int64, data1: UInt8 = 0) {
            follower.receive(MIDIEvent(offset: 10, status: status.rawValue, data1: data1), cycleSampleTime: time - 10)
        }
        for clock in 0..<5 { receive(.timingClock, at: Int64(clock) * 1000) }
        #expect(!follower.isRolling && follower.beats(atSampleTime: 4_000) == 0)
        #expect(follower.bpm == 120)  // 1000 samples a clock at 48 kHz
        receive(.start, at: 4_500)
        for clock in 5..<29 { receive(.timingClock, at: Int64(clock) * 1000) }  // clocks 0...23
        #expect(follower.isRolling && follower.beats(atSampleTime: 28_000) == 23.0 / 24)
        #expect(follower.beats(atSampleTime: 28_500) == 23.5 / 24)
        #expect(follower.beats(atSampleTime: 90_000) == 1)  // never past the next clock
        receive(.stop, at: 28_100)
        receive(.timingClock, at: 29_000)
        #expect(!follower.isRolling && follower.nextClock == 24)
        receive(.songPositionPointer, at: 29_100, data1: 40)  // 40 sixteenths: beat 10
        #expect(follower.beats(atSampleTime: 29_100) == 10)
        receive(.continue, at: 1_000_000)
        receive(.timingClock, at: 1_000_500)
        receive(.timingClock, at: 1_001_300)
        #expect(follower.beats(atSampleTime: 1_001_300) == 241.0 / 24)
        #expect(follower.bpm == 150)  // the pause started the window again: 800 samples a clock
        follower.receive(MIDIEvent.noteOn(60, velocity: 100), cycleSampleTime: 1_002_000)
        #expect(follower.nextClock == 242)
    }
}
