import AUMIDI
import Testing

@Suite("Time-signature map")
struct MusicTimeSignatureMapTests {
    /// 4/4 for two bars, 3/4 for two bars (from beat 8), then 6/8 (from beat 14).
    func changingMeter() -> MusicSequence {
        var sequence = MusicSequence()
        sequence.tempoTrack.addMetaEvent(at: 0, .timeSignature(MIDITimeSignature(numerator: 4, denominatorPower: 2)))
        sequence.tempoTrack.addMetaEvent(at: 8, .timeSignature(MIDITimeSignature(numerator: 3, denominatorPower: 2)))
        sequence.tempoTrack.addMetaEvent(at: 14, .timeSignature(MIDITimeSignature(numerator: 6, denominatorPower: 3)))
        return sequence
    }

    @Test("beats to bar:beat:subbeat over 4/4, 3/4 and 6/8")
    func beatsToBarBeatTime() {
        let map = changingMeter().timeSignatureMap
        func position(_ beats: Double) -> String { map.barBeatTime(forBeats: beats, subbeatDivisor: 480).description }
        #expect(position(0) == "1:1:0")
        #expect(position(7.75) == "2:4:360")
        #expect(position(8) == "3:1:0")
        #expect(position(9.5) == "3:2:240")
        #expect(position(11) == "4:1:0")
        #expect(position(14) == "5:1:0")
        #expect(position(15.5) == "5:4:0")   // three eighths into a 6/8 bar
        #expect(position(15.75) == "5:4:240")
        #expect(position(17) == "6:1:0")     // a 6/8 bar is 3 quarter notes
        #expect(position(-1) == "0:4:0")
        #expect(changingMeter().barBeatTime(forBeats: 1.0 / 3.0, subbeatDivisor: 3).description == "1:1:1")
    }

    @Test("bar:beat:subbeat to beats: the inverse")
    func barBeatTimeToBeats() {
        let map = changingMeter().timeSignatureMap
        #expect(map.beats(for: CABarBeatTime(bar: 1, beat: 1)) == 0)
        #expect(map.beats(for: CABarBeatTime(bar: 2, beat: 4, subbeat: 360)) == 7.75)
        #expect(map.beats(for: CABarBeatTime(bar: 3, beat: 2, subbeat: 240)) == 9.5)
        #expect(map.beats(for: CABarBeatTime(bar: 5, beat: 4)) == 15.5)
        #expect(map.beats(for: CABarBeatTime(bar: 6, beat: 1)) == 17)
        #expect(changingMeter().beats(for: CABarBeatTime(bar: 5, beat: 1)) == 14)
        #expect(map.timeSignature(atBeats: 15) == (6, 8))
    }

    @Test("defaults to 4/4; a change inside a bar starts a new bar")
    func defaultAndMidBarChange() {
        #expect(MusicSequence().barBeatTime(forBeats: 9, subbeatDivisor: 4).description == "3:2:0")
        var sequence = MusicSequence()
        sequence.tempoTrack.addMetaEvent(at: 6, .timeSignature(MIDITimeSignature(numerator: 2, denominatorPower: 2)))
        #expect(sequence.barBeatTime(forBeats: 5, subbeatDivisor: 4).description == "2:2:0")
        #expect(sequence.barBeatTime(forBeats: 6, subbeatDivisor: 4).description == "3:1:0")
        #expect(sequence.barBeatTime(forBeats: 8, subbeatDivisor: 4).description == "4:1:0")
    }

    @Test("CABarBeatTime(parsing:) reads BAR, BAR:BEAT and BAR:BEAT:SUBBEAT as description writes them, and nothing else")
    func parsesBarBeatTime() {
        #expect(CABarBeatTime(parsing: "3") == CABarBeatTime(bar: 3, beat: 1))
        #expect(CABarBeatTime(parsing: "3:2") == CABarBeatTime(bar: 3, beat: 2))
        #expect(CABarBeatTime(parsing: "5:4:240") == CABarBeatTime(bar: 5, beat: 4, subbeat: 240))
        #expect(CABarBeatTime(parsing: "12:1:479")?.subbeat == 479)
        #expect(CABarBeatTime(parsing: "2:1:1919", subbeatDivisor: 1920) == CABarBeatTime(bar: 2, beat: 1, subbeat: 1919, subbeatDivisor: 1920))
        for position in [CABarBeatTime(bar: 1, beat: 1), CABarBeatTime(bar: 17, beat: 3, subbeat: 5)] {
            #expect(CABarBeatTime(parsing: position.description) == position)
        }
        // Bars and beats count from 1; subbeats stay below the divisor; only digits and colons.
        for text in ["", "x", "0", "0:1", "3:0", "1:1:480", "1:1:1:1", "1:", ":1", "1::0", "-1", "1:-1", "+2", "1.5", " 1", "1:1 ", "１", "99999999999999999999"] {
            #expect(CABarBeatTime(parsing: text) == nil, "\(text.debugDescription) parsed")
        }
    }
}
