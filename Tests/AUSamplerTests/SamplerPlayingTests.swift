import AUCore
import AUSampler
import Foundation
import Testing

@Suite("Sampler: playing the General MIDI bank")
struct SamplerPlayingTests {
    @Test("the estimator finds a synthetic 261.63 Hz tone with harmonics within 0.01 cent")
    func estimatorIsExact() {
        let rate = 48_000.0, frequency = equalTempered(60)
        let tone = (0..<Int(2 * rate)).map { index -> Float in
            let t = Double(index) / rate
            return Float(0.5 * sin(2 * .pi * frequency * t) + 0.3 * sin(2 * .pi * 2 * frequency * t + 1) + 0.2 * sin(2 * .pi * 3 * frequency * t + 2))
        }
        let found = Spectrum(tone[...], sampleRate: rate).peakFrequency(in: 240...285)
        #expect(abs(Spectrum.cents(found, from: frequency)) < 0.01, "\(found) Hz")
    }

    @Test("a General MIDI piano C4 (note 60, program 0) has its fundamental at 261.63 Hz within the bank's own tuning")
    func pianoMiddleC() throws {
        let unit = try makeSampler()
        defer { unit.dispose() }
        let c4 = sustained(try renderMono(unit, seconds: 2.5, midi: note(60, program: 0))).peakFrequency(in: 240...285)
        let d4 = sustained(try renderMono(unit, seconds: 2.5, midi: note(62))).peakFrequency(in: 270...320)
        let error = Spectrum.cents(c4, from: equalTempered(60))
        // FluidR3's C4 is its D4 sample ("P200 Piano D5", root key 62) two semitones down;
        // the recording itself is flat (measured on the sample data: -1.1 cents left, -2.5 right).
        #expect(abs(error) < 2.5, "fundamental \(c4) Hz, \(error) cents from 261.626 Hz")
        let transposition = Spectrum.cents(c4, from: d4)
        #expect(abs(transposition + 200) < 0.5, "C4 \(c4) Hz is \(transposition) cents from D4 \(d4) Hz")
    }

    @Test("an exactly tuned bank (a 440 Hz sine at root key 69) plays C4 at 261.626 Hz within 0.01 cent, as SF2 and as SF3")
    func exactPitch() throws {
        for format in [TestBank.Format.sf2, .sf3] {
            let unit = try makeSampler(bank: false)
            defer { unit.dispose() }
            try withScratchFolder { try unit.loadSoundBank(path: try TestBank.write(format, into: $0)) }
            let samples = try renderMono(unit, seconds: 2.5, midi: note(60))
            let found = sustained(samples).peakFrequency(in: 240...285)
            let error = Spectrum.cents(found, from: equalTempered(60))
            #expect(abs(error) < 0.01, "\(format): \(found) Hz, \(error) cents from 261.626 Hz")
        }
    }

    @Test("tuning +100 cents plays C4 at C#4's 277.18 Hz within 0.01 cent, with the bank built at the unit's 44.1 kHz")
    func tuningAndSampleRate() throws {
        let unit = try makeSampler()
        defer { unit.dispose() }
        unit.uninitialize()
        try unit.setValue(44_100, for: .sampleRate)
        try unit.initialize()
        try unit.setParameter(SamplerParameter.tuning.rawValue, value: 100)
        try withScratchFolder { try unit.loadSoundBank(path: try TestBank.write(.sf2, into: $0)) }
        let samples = try renderMono(unit, seconds: 2.5, midi: note(60, sampleRate: 44_100))
        let found = sustained(samples, sampleRate: 44_100).peakFrequency(in: 255...300)
        let error = Spectrum.cents(found, from: equalTempered(61))
        #expect(abs(error) < 0.01, "fundamental \(found) Hz, \(error) cents from 277.18 Hz")
    }

    /// The partial levels of C4 on channel 1 after a program change to `program`.
    private func partials(program: UInt8, unit: SamplerUnit) throws -> [Double] {
        let samples = try renderMono(unit, seconds: 2.5, midi: note(60, program: program))
        return sustained(samples).partialLevels(fundamental: equalTempered(60), count: 8)
    }

    @Test("a program change switches the instrument: piano and flute C4 differ by more than 6 dB per partial on average")
    func programChange() throws {
        let unit = try makeSampler()
        defer { unit.dispose() }
        let piano = try partials(program: 0, unit: unit)
        let flute = try partials(program: 73, unit: unit)
        let pianoAgain = try partials(program: 0, unit: unit)
        let difference = zip(piano, flute).map { abs($0 - $1) }.reduce(0, +) / Double(piano.count)
        let repeatDifference = zip(piano, pianoAgain).map { abs($0 - $1) }.reduce(0, +) / Double(piano.count)
        #expect(difference > 6, "piano \(piano) flute \(flute): mean difference \(difference) dB")
        #expect(repeatDifference < 1, "the piano again differs by \(repeatDifference) dB")
    }

    @Test("channel 10 plays drums: note 38 there is noise-like (spectral flatness), on channel 1 a piano tone")
    func channelTenIsDrums() throws {
        let unit = try makeSampler()
        defer { unit.dispose() }
        func measure(channel: UInt8) throws -> Double {
            let samples = try renderMono(unit, seconds: 0.5, midi: note(38, channel: channel, seconds: 0.4))
            return flatness(samples, from: 64)
        }
        let drum = try measure(channel: 9)
        let piano = try measure(channel: 0)
        // Measured: 0.100 for the snare, 0.003 for the piano's D2.
        #expect(drum > 0.05 && drum > 10 * piano, "snare flatness \(drum), piano \(piano)")
    }

    @Test("an instrument (LoadInstrument) plays on every channel: the flute on channel 10 plays C4 at its pitch")
    func oneInstrumentOnEveryChannel() throws {
        let unit = try makeSampler()
        defer { unit.dispose() }
        try unit.loadInstrument(bankMSB: SamplerInstrument.melodicBankMSB, bankLSB: 0, program: 73)
        #expect(try unit.value(of: SamplerUnit.instrument) == SamplerInstrument(bankMSB: 0x79, bankLSB: 0, program: 73))
        func flute(channel: UInt8) throws -> (frequency: Double, flatness: Double) {
            let samples = try renderMono(unit, seconds: 2.5, midi: note(60, channel: channel, program: 0))
            return (sustained(samples).peakFrequency(in: 240...285), flatness(samples, from: 12_000))
        }
        let first = try flute(channel: 0), tenth = try flute(channel: 9)
        #expect(abs(Spectrum.cents(tenth.frequency, from: first.frequency)) < 0.5, "channel 1 plays \(first.frequency) Hz, channel 10 \(tenth.frequency) Hz")
        #expect(tenth.flatness < 0.02, "channel 10's flatness \(tenth.flatness)")
    }

    @Test("before any bank the unit renders silence")
    func silenceWithoutBank() throws {
        let unit = try makeSampler(bank: false)
        defer { unit.dispose() }
        let samples = try renderMono(unit, seconds: 0.5, midi: note(60, seconds: 0.4))
        #expect(samples.allSatisfy { $0 == 0 })
        #expect(try unit.value(of: SamplerUnit.soundBankURL) == "")
    }

    @Test("the registry lists aumu:samp:AUHs and makes a sampler")
    func registry() throws {
        let registry = ComponentRegistry(providers: [SamplerUnits()])
        let description = ComponentDescription(parsing: "aumu:samp:AUHs")!
        #expect(registry.count(matching: description) == 1)
        let unit = try #require(try registry.components(matching: description).first?.instantiate())
        #expect(unit is SamplerUnit)
        #expect(unit.acceptsMIDIInput)
        unit.dispose()
    }
}
