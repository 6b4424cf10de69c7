import AUCore
import AUSampler
import Foundation
import Testing

@Suite("Sampler: loading banks, errors and state")
struct SamplerLoadingTests {
    /// Loads `path` into a sampler playing a bank and expects one error with `code` that
    /// names the file and says `cause`, with the bank still playing: the unit renders after
    /// the refusal exactly what a unit that was never asked renders.
    private func expectRefusal(_ path: String, _ code: AudioUnitErrorCode, saying cause: String) throws {
        try withScratchFolder { folder in try expectRefusal(path, code, saying: cause, bank: try TestBank.write(.sf2, into: folder)) }
    }

    private func expectRefusal(_ path: String, _ code: AudioUnitErrorCode, saying cause: String, bank: String) throws {
        let unit = try makeSampler(bank: false), untouched = try makeSampler(bank: false)
        defer {
            unit.dispose()
            untouched.dispose()
        }
        try unit.loadSoundBank(path: bank)
        try untouched.loadSoundBank(path: bank)
        let midi = note(60, seconds: 0.4)
        _ = try renderMono(unit, seconds: 0.5, midi: midi)
        _ = try renderMono(untouched, seconds: 0.5, midi: midi)
        let error = #expect(throws: AudioUnitError.self) { try unit.loadSoundBank(path: path) }
        #expect(error?.code == code, "\(String(describing: error))")
        #expect(error?.message.contains("'\(path)'") == true, "\(String(describing: error))")
        #expect(error?.message.contains(cause) == true, "\(String(describing: error))")
        #expect(try unit.value(of: SamplerUnit.soundBankURL) == bank)
        let after = try renderMono(unit, seconds: 0.5, midi: midi), expected = try renderMono(untouched, seconds: 0.5, midi: midi)
        #expect(after.contains { abs($0) > 0.01 }, "the bank no longer plays")
        #expect(after == expected, "the unit plays differently after the refusal")
    }

    @Test("a missing bank is one error naming the file; the previous bank keeps playing")
    func missingBank() throws {
        try withScratchFolder { try expectRefusal($0.appendingPathComponent("missing.sf2").path, .invalidFilePath, saying: "does not exist") }
    }

    @Test("a file that is no SoundFont (text, a WAV file) is one error naming the file; the previous bank keeps playing")
    func notASoundFont() throws {
        try withScratchFolder { folder in
            let text = folder.appendingPathComponent("notes.sf2")
            try Data("not a sound bank\n".utf8).write(to: text)
            try expectRefusal(text.path, .unknownFileType, saying: "is not a SoundFont")
            let wave = folder.appendingPathComponent("click.sf2")
            try Data("RIFF\u{24}\0\0\0WAVEfmt ".utf8).write(to: wave)
            try expectRefusal(wave.path, .unknownFileType, saying: "is not a SoundFont")
        }
    }

    @Test("a truncated bank (the General MIDI bank's first megabyte) is one error naming the file; the previous bank keeps playing")
    func truncatedBank() throws {
        try withScratchFolder { folder in
            let truncated = folder.appendingPathComponent("truncated.sf2")
            let handle = try #require(FileHandle(forReadingAtPath: generalMIDIBank))
            try #require(try handle.read(upToCount: 1 << 20)).write(to: truncated)
            try handle.close()
            try expectRefusal(truncated.path, .invalidFile, saying: "is truncated")
        }
    }

    @Test("a SoundFont whose header is whole but whose lists FluidSynth refuses is one error quoting FluidSynth")
    func refusedByFluidSynth() throws {
        func list(_ type: String) -> Data { Data("LIST".utf8) + Data([4, 0, 0, 0]) + Data(type.utf8) }
        let body = Data("sfbk".utf8) + list("INFO") + list("sdta") + list("pdta")
        try withScratchFolder { folder in
            let file = folder.appendingPathComponent("empty-lists.sf2")
            try (Data("RIFF".utf8) + Data([UInt8(body.count), 0, 0, 0]) + body).write(to: file)
            try expectRefusal(file.path, .invalidFile, saying: "could not be loaded by FluidSynth: ")
        }
    }

    @Test("an instrument the bank lacks is one error naming it and the file; the instrument in play stays")
    func missingInstrument() throws {
        let unit = try makeSampler()
        defer { unit.dispose() }
        let error = #expect(throws: AudioUnitError.self) { try unit.loadInstrument(bankMSB: SamplerInstrument.melodicBankMSB, bankLSB: 5, program: 3) }
        #expect(error?.message.contains(generalMIDIBank) == true && error?.message.contains("LSB 5 program 3") == true, "\(String(describing: error))")
        #expect(try unit.value(of: SamplerUnit.instrument) == nil)
        let empty = try makeSampler(bank: false)
        defer { empty.dispose() }
        #expect(throws: AudioUnitError.self) { try empty.loadInstrument(bankMSB: 0, bankLSB: 0, program: 0) }
    }

    @Test("state round trip: ClassInfo keeps the bank, the instrument and the parameters, and a new unit renders the same samples")
    func stateRoundTrip() throws {
        let original = try makeSampler()
        defer { original.dispose() }
        try original.loadInstrument(bankMSB: SamplerInstrument.melodicBankMSB, bankLSB: 0, program: 40)
        try original.setParameter(SamplerParameter.gain.rawValue, value: 0.5)
        try original.setParameter(SamplerParameter.tuning.rawValue, value: -30)
        try original.setParameter(SamplerParameter.reverb.rawValue, value: 0)
        try original.setParameter(SamplerParameter.chorusLevel.rawValue, value: 4)
        let state = try original.value(of: .classInfo)

        let restored = try makeSampler(bank: false)
        defer { restored.dispose() }
        try restored.setValue(state, for: .classInfo)
        #expect(try restored.value(of: SamplerUnit.soundBankURL) == generalMIDIBank)
        #expect(try restored.value(of: SamplerUnit.instrument) == SamplerInstrument(bankMSB: 0x79, bankLSB: 0, program: 40))
        #expect(try restored.parameterValue(SamplerParameter.tuning.rawValue) == -30)

        let midi = note(60, seconds: 0.5) + [.noteOn(67, velocity: 90, channel: 3, offset: 10_000)]
        let a = try renderMono(original, seconds: 1, midi: midi)
        let b = try renderMono(restored, seconds: 1, midi: midi)
        let largest = zip(a, b).map { abs($0 - $1) }.max() ?? 0
        #expect(largest == 0, "the restored unit differs by up to \(largest)")
        #expect(a.contains { abs($0) > 0.01 })
    }

    @Test("polyphony is built in: a change rebuilds the synthesizer, which keeps the bank and instrument and plays on")
    func polyphonyRebuilds() throws {
        let unit = try makeSampler()
        defer { unit.dispose() }
        try unit.loadInstrument(bankMSB: 0, bankLSB: 0, program: 73)
        // C, E and G one after the other: with two voices at most, G takes C's voice.
        let chord: [MIDIEvent] = [60, 64, 67].enumerated().map { MIDIEvent.noteOn($1, velocity: 100, offset: Int32(64 + 4800 * $0)) }
        func levels() throws -> [Double] {
            let samples = try renderMono(unit, seconds: 1, midi: chord + [60, 64, 67].map { MIDIEvent.noteOff($0, offset: 47_000) })
            let spectrum = Spectrum(samples[24_000..<46_000], sampleRate: 48_000)
            return [60, 67].map { spectrum.magnitude(at: equalTempered($0)) }
        }
        let all = try levels()
        try unit.setParameter(SamplerParameter.polyphony.rawValue, value: 2)
        let two = try levels()
        #expect(try unit.value(of: SamplerUnit.instrument) == SamplerInstrument(bankMSB: 0, bankLSB: 0, program: 73))
        #expect(all[0] > all[1] / 10, "with 256 voices C and G sound: \(all)")
        #expect(two[0] < two[1] / 100, "with 2 voices C is taken: \(two)")
    }
}
