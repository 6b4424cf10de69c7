import AUMIDI
import Testing

@Suite("CAClock")
struct CAClockTests {
    /// 120 BPM, 90 BPM from beat 4 (second 2), 150 BPM from beat 7 (second 4); 4/4, then
    /// 3/4 from beat 8 (bar 3); beat 0 at 01:00:00:00, 25 fps; 48 kHz.
    func clock() -> CAClock {
        var sequence = MusicSequence()
        sequence.tempoTrack.addExtendedTempoEvent(at: 0, bpm: 120)
        sequence.tempoTrack.addExtendedTempoEvent(at: 4, bpm: 90)
        sequence.tempoTrack.addExtendedTempoEvent(at: 7, bpm: 150)
        sequence.tempoTrack.addMetaEvent(at: 8, .timeSignature(MIDITimeSignature(numerator: 3, denominatorPower: 2)))
        var clock = CAClock(sequence: sequence, sampleRate: 48_000)
        clock.smpteFormat = .type25
        clock.smpteOffset = 3600
        return clock
    }

    /// One moment in every format, hand-computed.
    static let moments: [(beats: Double, seconds: Double, samples: Double, bar: CABarBeatTime, smpte: String, subframes: Int)] = [
        (0, 0, 0, CABarBeatTime(bar: 1, beat: 1), "01:00:00:00", 0),
        (4, 2, 96_000, CABarBeatTime(bar: 2, beat: 1), "01:00:02:00", 0),
        (7, 4, 192_000, CABarBeatTime(bar: 2, beat: 4), "01:00:04:00", 0),
        (9.5, 5, 240_000, CABarBeatTime(bar: 3, beat: 2, subbeat: 240), "01:00:05:00", 0),
        (10.75, 5.5, 264_000, CABarBeatTime(bar: 3, beat: 3, subbeat: 360), "01:00:05:12", 40),
        (12, 6, 288_000, CABarBeatTime(bar: 4, beat: 2), "01:00:06:00", 0),
    ]

    @Test("every format translates to every other, exact across three tempos", arguments: 0..<moments.count)
    func everyFormatToEveryOther(index: Int) throws {
        let clock = clock()
        let moment = Self.moments[index]
        let smpte = try SMPTETime(parsing: moment.smpte, type: .type25)
        let times: [CAClockTime] = [
            .samples(moment.samples), .seconds(moment.seconds), .beats(moment.beats),
            .barBeatTime(moment.bar),
            .smpteTime(try SMPTETime(frameCount: smpte.frameCount, subframes: moment.subframes, type: .type25)),
        ]
        for source in times {
            for target in times {
                #expect(try clock.translate(source, to: target.format) == target, "\(source) to \(target.format)")
            }
        }
    }

    @Test("beats -> samples -> beats at every 1/24 beat agrees with the tempo map")
    func roundTripAgainstTheTempoMap() throws {
        let clock = clock()
        for tick in 0..<(14 * 24) {
            let beats = Double(tick) / 24
            guard case .samples(let samples) = try clock.translate(.beats(beats), to: .samples),
                  case .beats(let back) = try clock.translate(.samples(samples), to: .beats)
            else { Issue.record("wrong formats"); return }
            #expect(samples == clock.tempoMap.sampleFrames(forBeats: beats, sampleRate: 48_000))
            #expect(abs(back - beats) < 1e-9)
        }
    }

    @Test("start, play rate, stop and locate move the timeline from their sample times")
    func runningTimeline() throws {
        var clock = clock()
        #expect(try clock.currentTime(.seconds, atSampleTime: 5_000) == .seconds(0))
        clock.start(atSampleTime: 1_000)
        #expect(clock.isRunning)
        #expect(try clock.currentTime(.seconds, atSampleTime: 49_000) == .seconds(1))
        let accepted = clock.setPlayRate(2, atSampleTime: 49_000)
        let zero = clock.setPlayRate(0, atSampleTime: 60_000)
        let nan = clock.setPlayRate(.nan, atSampleTime: 60_000)
        #expect(accepted && !zero && !nan)
        #expect(clock.playRate == 2)
        #expect(try clock.currentTime(.seconds, atSampleTime: 97_000) == .seconds(3))
        clock.stop(atSampleTime: 121_000)
        #expect(try clock.currentTime(.beats, atSampleTime: 400_000) == .beats(7))  // 4 s
        try clock.setCurrentTime(.barBeatTime(CABarBeatTime(bar: 3, beat: 2, subbeat: 240)), atSampleTime: 500_000)
        #expect(try clock.currentTime(.seconds, atSampleTime: 900_000) == .seconds(5))
        clock.start(atSampleTime: 500_000)
        #expect(try clock.currentTime(.beats, atSampleTime: 524_000) == .beats(12))  // 1 s at rate 2
        #expect(try clock.translate(.seconds(6), to: .samples) == .samples(524_000))
        #expect(try clock.currentTime(.smpteTime, atSampleTime: 524_000).format == .smpteTime)
    }

    @Test("SMPTE through the clock: drop-frame numbering, the offset, and no time before 00:00:00:00")
    func smpteThroughTheClock() throws {
        var clock = CAClock(sampleRate: 48_000, smpteFormat: .type2997Drop)
        // Frame 1800 at 29.97 starts at 1800 * 1001 / 30000 s = sample 2,882,880.
        let smpte = try clock.translate(.samples(2_882_880), to: .smpteTime)
        #expect(smpte == .smpteTime(try SMPTETime(parsing: "00:01:00;02", type: .type2997Drop)))
        #expect(try clock.translate(smpte, to: .samples) == .samples(2_882_880))
        #expect(throws: SMPTETimeError.secondsOutOfRange(-1)) { try clock.translate(.seconds(-1), to: .smpteTime) }
        // An offset of timecode 00:00:10;00: 300 frames, 10.01 s.
        clock.smpteOffset = try SMPTETime(parsing: "00:00:10;00", type: .type2997Drop).timeInSeconds
        #expect(try clock.smpteTime(forSeconds: -1).description == "00:00:09;00")
        #expect(clock.seconds(for: try SMPTETime(parsing: "00:00:10;00", type: .type2997Drop)) == 0)
    }
}
