import AUCore
import AUSampler
import AUTestSupport
import Foundation

/// The General MIDI bank of Debian's fluid-soundfont-gm, which the tests play.
let generalMIDIBank = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

/// A sampler at `sampleRate`, initialized, with the General MIDI bank loaded unless `bank` is false.
func makeSampler(sampleRate: Double = 48_000, bank: Bool = true) throws -> SamplerUnit {
    let unit = SamplerUnit(description: SamplerUnits.description)
    try unit.setValue(sampleRate, for: .sampleRate)
    try unit.initialize()
    if bank { try unit.loadSoundBank(path: generalMIDIBank) }
    return unit
}

/// Renders `seconds` of `unit` offline in 512-frame blocks with `midi` (absolute frame
/// offsets) and returns the two channels: left, right.
func renderStereo(_ unit: SamplerUnit, seconds: Double, midi: [MIDIEvent]) throws -> [[Float]] {
    let rate = unit.formats(.output)[0].sampleRate
    var renderer = OfflineUnitRenderer(unit: unit, blockSize: 512)
    return try renderer.render(frameCount: Int(seconds * rate), midi: midi)[0]
}

/// ``renderStereo(_:seconds:midi:)`` with the two channels summed: left + right.
func renderMono(_ unit: SamplerUnit, seconds: Double, midi: [MIDIEvent]) throws -> [Float] {
    let output = try renderStereo(unit, seconds: seconds, midi: midi)
    return zip(output[0], output[1]).map { $0 + $1 }
}

/// One note of `seconds` on `channel`, after a program change when `program` is given.
func note(_ key: UInt8, channel: UInt8 = 0, program: UInt8? = nil, seconds: Double = 2.5, sampleRate: Double = 48_000) -> [MIDIEvent] {
    let change = program.map { [MIDIEvent(offset: 0, status: 0xC0 | channel, data1: $0)] } ?? []
    return change + [
        .noteOn(key, velocity: 100, channel: channel, offset: 64),
        .noteOff(key, channel: channel, offset: Int32(seconds * sampleRate)),
    ]
}

/// The frequency of MIDI note `key` in equal temperament at A4 = 440 Hz.
func equalTempered(_ key: Int) -> Double {
    440 * pow(2, Double(key - 69) / 12)
}

/// The rendered stretch from 0.25 s to 2.25 s, where a note started at 0 has its attack
/// behind it and sounds still.
func sustained(_ samples: [Float], sampleRate: Double = 48_000) -> Spectrum {
    Spectrum(samples[Int(0.25 * sampleRate)..<Int(2.25 * sampleRate)], sampleRate: sampleRate)
}

/// The spectral flatness from 200 Hz to 8 kHz of the 8,192 frames from `start` (0.17 s at
/// 48 kHz): 0.1 for the General MIDI snare's noise, 0.003 for a piano note.
func flatness(_ samples: [Float], from start: Int) -> Double {
    Spectrum(samples[start..<(start + 8192)], sampleRate: 48_000).flatness(from: 200, to: 8000, count: 400)
}

/// Calls `body` with a new empty folder, removed afterwards.
func withScratchFolder<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let folder = try TemporaryFolder(prefix: "ausampler")
    defer { folder.remove() }
    return try body(folder.url)
}
