import AUMIDI
import Testing

@Suite("Tempo map")
struct MusicTempoMapTests {
    /// 120 BPM for 4 beats, then 60 BPM.
    func twoTempos() -> MusicSequence {
        var sequence = MusicSequence()
        sequence.tempoTrack.addExtendedTempoEvent(at: 0, bpm: 120)
        sequence.tempoTrack.addExtendedTempoEvent(at: 4, bpm: 60)
        return sequence
    }

    @Test("beats to seconds and frames across a tempo change (hand-computed)")
    func beatsToSecondsAndFrames() {
        let map = twoTempos().tempoMap
        #expect(map.seconds(forBeats: 0) == 0)
        #expect(map.seconds(forBeats: 3) == 1.5)
        #expect(map.seconds(forBeats: 4) == 2)
        #expect(map.seconds(forBeats: 6) == 4)  // 4 beats * 0.5 s + 2 beats * 1 s
        #expect(map.sampleFrame(forBeats: 6, sampleRate: 48_000) == 192_000)
        #expect(map.sampleFrames(forBeats: 6, sampleRate: 48_000) == 192_000)
        #expect(map.sampleFrame(forBeats: 4.5, sampleRate: 44_100) == 110_250)  // 2.5 s
        #expect(map.bpm(atBeats: 3.9) == 120)
        #expect(map.bpm(atBeats: 4) == 60)
        #expect(twoTempos().seconds(forBeats: 6) == 4)
    }

    @Test("seconds and frames to beats: the inverse")
    func secondsToBeats() {
        let map = twoTempos().tempoMap
        #expect(map.beats(forSeconds: 1) == 2)
        #expect(map.beats(forSeconds: 2) == 4)
        #expect(map.beats(forSeconds: 4) == 6)
        #expect(map.beats(forSampleFrame: 192_000, sampleRate: 48_000) == 6)
        #expect(map.beats(forSampleFrames: 24_000, sampleRate: 48_000) == 1)
        #expect(twoTempos().beats(forSeconds: 3) == 5)
        #expect(MusicTempoMap.seconds(forSampleFrames: 96_000, sampleRate: 48_000) == 2)
        #expect(MusicTempoMap.sampleFrame(forSeconds: 2.5, sampleRate: 48_000) == 120_000)
    }

    @Test("three tempos, no tempo at 0, the default 120 BPM")
    func moreTempos() {
        var sequence = twoTempos()
        sequence.tempoTrack.addExtendedTempoEvent(at: 8, bpm: 240)
        #expect(sequence.seconds(forBeats: 8) == 6)
        #expect(sequence.seconds(forBeats: 10) == 6.5)
        #expect(sequence.beats(forSeconds: 6.5) == 10)
        #expect(MusicSequence().seconds(forBeats: 3) == 1.5)
        var late = MusicSequence()
        late.tempoTrack.addExtendedTempoEvent(at: 2, bpm: 30)
        #expect(late.seconds(forBeats: 2) == 1)
        #expect(late.seconds(forBeats: 3) == 3)
        #expect(late.beats(forSeconds: 3) == 3)
    }

    @Test("a thousand tempo changes do not drift; rounding keeps whole frames")
    func noDrift() {
        var sequence = MusicSequence()
        for beat in 0..<1000 { sequence.tempoTrack.addExtendedTempoEvent(at: Double(beat), bpm: beat % 2 == 0 ? 120 : 60) }
        let map = sequence.tempoMap
        #expect(map.seconds(forBeats: 1000) == 750)
        #expect(map.beats(forSeconds: 750) == 1000)
        #expect(map.sampleFrame(forBeats: 999.5, sampleRate: 48_000) == 35_976_000)
        // 0.7 beat at 120 BPM is 0.35 s: 15435 frames at 44.1 kHz, though the Double product
        // is 15434.999999999998 (plain rounding down would give 15434).
        #expect(MusicSequence().tempoMap.sampleFrames(forBeats: 0.7, sampleRate: 44_100) < 15_435)
        #expect(MusicSequence().tempoMap.sampleFrame(forBeats: 0.7, sampleRate: 44_100) == 15_435)
        #expect(MusicSequence().tempoMap.sampleFrame(forBeats: 0.99999, sampleRate: 2) == 0)
    }

    @Test("invalid tempos are ignored; huge frame counts clamp instead of trapping")
    func invalidTempos() {
        var sequence = MusicSequence()
        sequence.tempoTrack.addExtendedTempoEvent(at: 1, bpm: 0)
        sequence.tempoTrack.addExtendedTempoEvent(at: 2, bpm: .infinity)
        sequence.tempoTrack.addExtendedTempoEvent(at: 3, bpm: -5)
        #expect(sequence.seconds(forBeats: 4) == 2)
        #expect(sequence.tempoMap.sampleFrame(forBeats: 1e300, sampleRate: 48_000) == .max)
        #expect(sequence.tempoMap.sampleFrame(forBeats: .nan, sampleRate: 48_000) == 0)
    }
}
