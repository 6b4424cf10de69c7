import AUMIDI
import AUTestSupport

/// The fuzzers' seeded generator (SplitMix64), shared by every suite.
typealias SplitMix64 = Fuzz.SeededGenerator

/// Sequences and hand-written bytes shared by the tests.
enum Fixtures {
    /// A format-1 sequence with every kind of event a file holds: tempo changes, time and key
    /// signatures, every meta kind, notes on several channels, every channel message, sysex
    /// in both forms. Tempos divide 60,000,000 so they survive the microsecond rounding.
    static func everyKindSequence() -> MusicSequence {
        var sequence = MusicSequence(division: .ticksPerQuarterNote(480))
        var tempo = MusicTrack()
        tempo.addMetaEvent(at: 0, .sequenceNumber(7))
        tempo.addMetaEvent(at: 0, .text(.trackName, string: "Tempo"))
        tempo.addMetaEvent(at: 0, .text(.copyright, string: "(c) AUHost"))
        tempo.addMetaEvent(at: 0, .smpteOffset(hours: 0x61, minutes: 2, seconds: 3, frames: 4,
                                               subframes: 5))
        tempo.addExtendedTempoEvent(at: 0, bpm: 120)
        tempo.addMetaEvent(at: 0, .timeSignature(MIDITimeSignature(numerator: 4, denominatorPower: 2)))
        tempo.addMetaEvent(at: 0, .keySignature(sharpsOrFlats: -3, isMinor: true))
        tempo.addExtendedTempoEvent(at: 4, bpm: 96)
        tempo.addMetaEvent(at: 8, .timeSignature(MIDITimeSignature(
            numerator: 6, denominatorPower: 3, clocksPerClick: 36, thirtySecondNotesPerQuarter: 8)))
        tempo.addMetaEvent(at: 8, .text(.marker, string: "B"))
        tempo.addMetaEvent(at: 8, .text(.cuePoint, string: "door"))
        tempo.addExtendedTempoEvent(at: 10.5, bpm: 150)
        sequence.tempoTrack = tempo

        var first = MusicTrack()
        first.addMetaEvent(at: 0, .text(.trackName, string: "Piano ♪"))
        first.addMetaEvent(at: 0, .text(.instrumentName, string: "Grand"))
        first.addMetaEvent(at: 0, .channelPrefix(0))
        first.addMetaEvent(at: 0, .port(1))
        first.addMIDIChannelEvent(at: 0, .programChange(channel: 0, program: 5))
        first.addMIDIChannelEvent(at: 0, .controlChange(channel: 0, controller: 7, value: 100))
        for step in 0..<8 {
            let time = Double(step) * 0.5
            first.addMIDINoteEvent(at: time, MIDINoteMessage(
                channel: 0, note: UInt8(60 + step), velocity: UInt8(40 + step * 10),
                releaseVelocity: UInt8(step * 3), duration: 0.5))
        }
        first.addMIDINoteEvent(at: 1, MIDINoteMessage(channel: 9, note: 36, velocity: 127,
                                                       duration: 1.0 / 3.0))
        first.addMIDIChannelEvent(at: 1.25, .polyPressure(channel: 0, note: 62, pressure: 33))
        first.addMIDIChannelEvent(at: 1.5, .channelPressure(channel: 0, pressure: 90))
        first.addMIDIChannelEvent(at: 2, .pitchBend(channel: 0, value: 0x2ABC))
        first.addMIDIChannelEvent(at: 2.25, .noteOff(channel: 3, note: 10, velocity: 9))
        first.addSysexEvent(at: 3, MIDISysexEvent(kind: .sysex, data: [0x7E, 0x7F, 0x09, 0x01, 0xF7]))
        first.addSysexEvent(at: 3, MIDISysexEvent(kind: .escape, data: [0xF3, 0x01]))
        first.addMetaEvent(at: 3.5, .text(.lyric, string: "la"))
        first.addMetaEvent(at: 3.5, .text(.text, [0xFF, 0x00, 0x41]))
        first.addMetaEvent(at: 3.5, .sequencerSpecific([0x00, 0x00, 0x41, 0x01]))
        first.addMetaEvent(at: 3.5, .raw(type: 0x60, data: [1, 2, 3]))
        first.addMetaEvent(at: 3.5, .raw(type: 0x51, data: [1, 2]))
        first.addMetaEvent(at: 3.5, .text(.programName, string: "Prog"))
        first.addMetaEvent(at: 3.5, .text(.deviceName, string: "Dev"))
        first.length = 40

        var second = MusicTrack()
        second.addMetaEvent(at: 0, .text(.trackName, string: "Strings"))
        // A chord, a zero-length note, overlapping notes of different keys, channels 5 and 15.
        for note: UInt8 in [48, 52, 55] {
            second.addMIDINoteEvent(at: 0, MIDINoteMessage(channel: 5, note: note, velocity: 80,
                                                            releaseVelocity: 64, duration: 4))
        }
        second.addMIDINoteEvent(at: 4, MIDINoteMessage(channel: 5, note: 60, velocity: 1, duration: 0))
        second.addMIDINoteEvent(at: 4, MIDINoteMessage(channel: 15, note: 127, velocity: 127,
                                                        releaseVelocity: 127, duration: 2.75))
        second.addMIDINoteEvent(at: 5, MIDINoteMessage(channel: 15, note: 0, velocity: 64, duration: 1))
        // The same key again right where the previous one ends.
        second.addMIDINoteEvent(at: 6, MIDINoteMessage(channel: 5, note: 48, velocity: 70, duration: 1))
        second.addMIDINoteEvent(at: 7, MIDINoteMessage(channel: 5, note: 48, velocity: 71, duration: 1))
        second.addMIDIChannelEvent(at: 7, .controlChange(channel: 15, controller: 64, value: 127))
        second.addMIDIChannelEvent(at: 12, .pitchBend(channel: 15, value: 16383))

        sequence.tracks = [first, second]
        return sequence
    }

    /// A sequence fit for format 0: the tempo track holds only tempo, time and key signatures.
    static func singleTrackSequence() -> MusicSequence {
        var sequence = MusicSequence(division: .ticksPerQuarterNote(96))
        sequence.tempoTrack.addExtendedTempoEvent(at: 0, bpm: 100)
        sequence.tempoTrack.addMetaEvent(at: 0, .timeSignature(
            MIDITimeSignature(numerator: 3, denominatorPower: 2)))
        sequence.tempoTrack.addMetaEvent(at: 0, .keySignature(sharpsOrFlats: 2, isMinor: false))
        sequence.tempoTrack.addExtendedTempoEvent(at: 6, bpm: 75)
        var track = MusicTrack()
        track.addMetaEvent(at: 0, .text(.trackName, string: "Solo"))
        for step in 0..<12 {
            track.addMIDINoteEvent(at: Double(step) / 2, MIDINoteMessage(
                channel: UInt8(step % 3), note: UInt8(60 + step), velocity: 90, duration: 0.5))
        }
        track.addMIDIChannelEvent(at: 3, .controlChange(channel: 1, controller: 10, value: 0))
        track.addSysexEvent(at: 5, MIDISysexEvent(kind: .sysex, data: [0x43, 0x10, 0xF7]))
        track.addMetaEvent(at: 5.5, .text(.marker, string: "end"))
        sequence.tracks = [track]
        return sequence
    }

    /// A format-2 sequence: three independent tracks, each with its own tempo meta events.
    static func independentSequence() -> MusicSequence {
        var sequence = MusicSequence(division: .ticksPerQuarterNote(240))
        for index in 0..<3 {
            var track = MusicTrack()
            track.addMetaEvent(at: 0, .text(.trackName, string: "Pattern \(index)"))
            track.addMetaEvent(at: 0, .tempo(microsecondsPerQuarterNote: UInt32(400_000 + index * 100_000)))
            for step in 0..<4 {
                track.addMIDINoteEvent(at: Double(step), MIDINoteMessage(
                    channel: UInt8(index), note: UInt8(40 + step * index), velocity: 100,
                    duration: 0.75))
            }
            sequence.tracks.append(track)
        }
        return sequence
    }

    /// A Standard MIDI File of `tracks` chunk bodies (each gets "MTrk" and its length).
    static func file(format: UInt16 = 1, trackCount: Int? = nil, division: [UInt8] = [0x01, 0xE0],
                     tracks: [[UInt8]]) -> [UInt8] {
        let count = trackCount ?? tracks.count
        var bytes: [UInt8] = [0x4D, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, UInt8(format),
                              UInt8(count >> 8), UInt8(count & 0xFF)] + division
        for track in tracks {
            let length = track.count
            bytes += [0x4D, 0x54, 0x72, 0x6B, UInt8(length >> 24), UInt8((length >> 16) & 0xFF),
                      UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)] + track
        }
        return bytes
    }
}
