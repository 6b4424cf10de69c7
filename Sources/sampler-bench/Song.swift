import AUMIDI

// The song: a beat, then 72 bars of 4/4 at 125 BPM (2:19), ten melodic channels and the drums on
// channel 10, with program changes every 16 bars (the drum kit at bars 33 and 57). Every
// event is on a sixteenth-note grid: at 125 BPM a sixteenth is 120 ms, 5,760 frames at
// 48 kHz, a whole number of FluidSynth's 64-frame blocks, so a note starts at the same frame
// whichever player sends it.

/// SplitMix64: a small generator whose sequence depends only on its seed.
struct SeededRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A number in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

let bars = 72, beatsPerBar = 4.0, sixteenth = 0.25
/// The first bar starts after one beat that holds only the controllers: the fluidsynth
/// tool's player sends what is at time 0 one 64-frame block late (at its first callback),
/// everything after on time.
let lead = 1.0
/// The chord roots of a four-bar progression (C, A minor, F, G), as MIDI keys of octave 3.
let roots: [UInt8] = [48, 45, 41, 43]
let minor: Set<UInt8> = [45]

/// A channel's part: its programs per 16-bar section, its register and how it plays.
struct Part {
    enum Style { case chords, bass, pad, melody, arpeggio }
    let channel: UInt8
    let programs: [UInt8]
    let style: Style
    let octave: UInt8
    let velocity: UInt8
    let pan: UInt8
}

let parts = [
    Part(channel: 0, programs: [0, 1, 0, 4, 0], style: .chords, octave: 12, velocity: 80, pan: 64),
    Part(channel: 1, programs: [33, 34, 38, 33, 35], style: .bass, octave: 0, velocity: 100, pan: 64),
    Part(channel: 2, programs: [48, 49, 50, 48, 44], style: .pad, octave: 12, velocity: 60, pan: 40),
    Part(channel: 3, programs: [73, 56, 65, 71, 73], style: .melody, octave: 24, velocity: 90, pan: 80),
    Part(channel: 4, programs: [25, 24, 27, 26, 25], style: .arpeggio, octave: 12, velocity: 70, pan: 100),
    Part(channel: 5, programs: [16, 17, 19, 16, 18], style: .pad, octave: 0, velocity: 50, pan: 20),
    Part(channel: 6, programs: [11, 12, 13, 8, 11], style: .arpeggio, octave: 24, velocity: 65, pan: 90),
    Part(channel: 7, programs: [52, 53, 54, 52, 91], style: .pad, octave: 24, velocity: 45, pan: 64),
    Part(channel: 8, programs: [61, 62, 57, 60, 61], style: .chords, octave: 0, velocity: 70, pan: 30),
    Part(channel: 10, programs: [40, 41, 42, 68, 40], style: .melody, octave: 12, velocity: 75, pan: 50),
]

/// The chord of bar `bar`: root, third, fifth.
func chord(_ bar: Int) -> [UInt8] {
    let root = roots[bar % roots.count]
    return [root, root + (minor.contains(root) ? 3 : 4), root + 7]
}

func note(_ track: inout MusicTrack, _ part: Part, _ key: UInt8, at beat: Double, sixteenths: Int, velocity: UInt8? = nil) {
    track.addMIDINoteEvent(at: beat, MIDINoteMessage(
        channel: part.channel, note: key, velocity: velocity ?? part.velocity, duration: Double(sixteenths) * sixteenth))
}

func melodicTrack(_ part: Part, random: inout SeededRandom) -> MusicTrack {
    var track = MusicTrack()
    track.addMIDIChannelEvent(at: 0, .controlChange(channel: part.channel, controller: 7, value: 100))
    track.addMIDIChannelEvent(at: 0, .controlChange(channel: part.channel, controller: 10, value: part.pan))
    for bar in 0..<bars {
        let start = lead + Double(bar) * beatsPerBar
        if bar % 16 == 0 {
            track.addMIDIChannelEvent(at: start, .programChange(channel: part.channel, program: part.programs[bar / 16]))
        }
        let keys = chord(bar).map { $0 + part.octave }
        switch part.style {
        case .chords:
            for beat in stride(from: 0, to: 4, by: 2) {
                for key in keys { note(&track, part, key, at: start + Double(beat), sixteenths: 6, velocity: part.velocity - UInt8(random.below(12))) }
            }
        case .bass:
            for step in stride(from: 0, to: 16, by: 2) {
                let key = step % 8 == 6 ? keys[2] : keys[0]
                note(&track, part, key - 12 * UInt8(random.below(2)), at: start + Double(step) * sixteenth, sixteenths: 2)
            }
        case .pad:
            for key in keys { note(&track, part, key, at: start, sixteenths: 15) }
        case .melody:
            var step = 0
            while step < 16 {
                let length = [1, 2, 2, 3, 4][random.below(5)]
                let scale: [UInt8] = [0, 2, 4, 5, 7, 9, 11, 12]
                if random.below(5) > 0 {
                    note(&track, part, 60 + part.octave - 12 + scale[random.below(scale.count)], at: start + Double(step) * sixteenth, sixteenths: min(length, 16 - step))
                }
                step += length
            }
        case .arpeggio:
            for step in 0..<16 where step % 2 == 0 || random.below(3) == 0 {
                note(&track, part, keys[step % 3] + 12 * UInt8(step / 8), at: start + Double(step) * sixteenth, sixteenths: 1)
            }
        }
    }
    return track
}

/// Channel 10: kick, snare, hi-hats, and a crash every eight bars; kit changes at bar 33 and 57.
func drumTrack(random: inout SeededRandom) -> MusicTrack {
    var track = MusicTrack()
    let drums: UInt8 = 9
    for bar in 0..<bars {
        let start = lead + Double(bar) * beatsPerBar
        if bar == 0 || bar == 32 || bar == 56 {
            track.addMIDIChannelEvent(at: start, .programChange(channel: drums, program: bar == 32 ? 16 : bar == 56 ? 24 : 0))
        }
        func hit(_ key: UInt8, _ step: Int, _ velocity: UInt8) {
            track.addMIDINoteEvent(at: start + Double(step) * sixteenth, MIDINoteMessage(channel: drums, note: key, velocity: velocity, duration: sixteenth))
        }
        if bar % 8 == 0 { hit(49, 0, 110) }
        for step in 0..<16 {
            if step % 8 == 0 || (step == 10 && random.below(2) == 0) { hit(36, step, 110) }
            if step % 8 == 4 { hit(38, step, 100) }
            if step % 2 == 0 { hit(step % 4 == 2 && random.below(4) == 0 ? 46 : 42, step, 60 + UInt8(random.below(30))) }
        }
    }
    return track
}

/// The whole song from `seed`.
func makeSong(seed: UInt64) -> MusicSequence {
    var random = SeededRandom(state: seed)
    // 96 ticks per quarter note: a sixteenth is 24 ticks; at 125 BPM a tick is 5 ms exactly.
    var sequence = MusicSequence(division: .ticksPerQuarterNote(96))
    sequence.tempoTrack.addExtendedTempoEvent(at: 0, bpm: 125)
    sequence.tempoTrack.addMetaEvent(at: 0, .timeSignature(MIDITimeSignature(numerator: 4, denominatorPower: 2)))
    sequence.tracks = parts.map { melodicTrack($0, random: &random) } + [drumTrack(random: &random)]
    return sequence
}
