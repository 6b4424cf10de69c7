import AUCore
import AUSampler
import Testing

/// A preset's `bank` and `program` (program 1-based, as General MIDI numbers them) choose the
/// very instrument a MIDI program change (0-based data) chooses on a General MIDI channel:
/// the two render the same samples. At the edges of the range, and for drum kits on
/// channel 10, where a program one off plays another instrument (or none).
@Suite("Sampler: a preset's bank and program are General MIDI's programs")
struct SamplerProgramTests {
    /// SoundFont bank, 1-based program, the key to play: piano, bright piano, piccolo,
    /// flute, gunshot, the standard kit's snare, the TR-808 kit's snare (kit 26).
    static let cases: [(bank: Int, program: Int, key: UInt8)] = [
        (0, 1, 60), (0, 2, 60), (0, 73, 72), (0, 74, 72), (0, 128, 60), (128, 1, 38), (128, 26, 38),
    ]

    @Test(arguments: cases.indices)
    func bankAndProgramEqualAProgramChange(index: Int) throws {
        let (bank, program, key) = Self.cases[index]
        // Drum kits play on General MIDI's channel 10.
        let channel: UInt8 = bank == 128 ? 9 : 0
        let chosen = try makeSampler()
        defer { chosen.dispose() }
        try chosen.setPropertyParameter(SamplerUnit.Property.bank, to: .int(bank))
        try chosen.setPropertyParameter(SamplerUnit.Property.program, to: .int(program))
        let generalMIDI = try makeSampler()
        defer { generalMIDI.dispose() }

        let byPreset = try renderStereo(chosen, seconds: 1, midi: note(key, channel: channel, seconds: 0.5))
        let byProgramChange = try renderStereo(generalMIDI, seconds: 1, midi: note(key, channel: channel, program: UInt8(program - 1), seconds: 0.5))
        // The same synthesizer settings and voices: equal to the last bit (tolerance 0).
        for side in 0..<2 {
            let largest = zip(byPreset[side], byProgramChange[side]).map { abs($0 - $1) }.max() ?? .infinity
            #expect(largest == 0, "bank \(bank) program \(program), channel \(side): differs by up to \(largest)")
        }
        #expect(byPreset[0].contains { abs($0) > 0.01 }, "bank \(bank) program \(program) is silent")
    }
}
