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

    @Test("the estimator finds a decaying piano-like tone (stretched partials, exponential decay) within 0.01 cent")
    func estimatorIsExactOnADecayingTone() {
        let rate = 48_000.0, frequency = equalTempered(60)
        let tone = (0..<Int(2 * rate)).map { index -> Float in
            let t = Double(index) / rate
            // Partial k at k·f·√(1 + B·k²), B = 0.0004 (a piano string's inharmonicity), each decaying.
            return Float((1...6).reduce(0.0) { (sum: Double, k: Int) -> Double in
                let partial = Double(k) * frequency * (1 + 0.0004 * Double(k * k)).squareRoot()
                return sum + exp(-t * (1 + Double(k))) / Double(k) * sin(2 * .pi * partial * t + Double(k))
            })
        }
        let found = Spectrum(tone[...], sampleRate: rate).peakFrequency(in: 240...285)
        let expected = frequency * (1.0004).squareRoot()
        #expect(abs(Spectrum.cents(found, from: expected)) < 0.01, "\(found) Hz, expected \(expected) Hz")
    }

    @Test("a General MIDI piano C4 sounds where the bank and FluidSynth put it: each channel within 1 cent of its sample's own pitch at the bank's root key and tuning, the sum within 1 cent of the fluidsynth tool's C4; the bank intends 261.626 Hz and its recording is flat",
          .enabled(if: FluidSynthTool.installed, "the fluidsynth tool is not installed (Debian fluidsynth)"))
    func pianoMiddleC() throws {
        let unit = try makeSampler()
        defer { unit.dispose() }
        // Reverb and chorus off, as the tool is run: the chorus's delay modulation moves pitch.
        try unit.setParameter(SamplerParameter.reverb.rawValue, value: 0)
        try unit.setParameter(SamplerParameter.chorus.rawValue, value: 0)
        let rendered = try renderStereo(unit, seconds: 2.5, midi: note(60, program: 0))
        // What the bank says: FluidR3's C4 is "P200 Piano D5" (L and R, root key 62 by the
        // zone's overriding root key, correction 0) two semitones down.
        let sounds = try SoundFontZones(path: generalMIDIBank).sounds(bank: 0, program: 0, key: 60, velocity: 100)
        try #require(sounds.count == 2 && sounds.contains { $0.pan < 0 } && sounds.contains { $0.pan > 0 }, "\(sounds.map(\.name))")
        for sound in sounds {
            let channel = sound.pan < 0 ? 0 : 1
            let found = sustained(rendered[channel]).peakFrequency(in: 240...285)
            // The sample's own pitch, measured the same way over the stretch of its data that
            // the rendered 0.25 s to 2.25 s plays, then played at the bank's ratio.
            let ratio = sound.playbackRatio(key: 60), rate = sound.sampleRate
            let data = sound.data[Int(0.25 * ratio * rate)..<Int(2.25 * ratio * rate)]
            let expected = Spectrum(data, sampleRate: rate).peakFrequency(in: (240 / ratio)...(285 / ratio)) * ratio
            #expect(abs(Spectrum.cents(found, from: expected)) < 1, "\(sound.name): \(found) Hz, its sample at the bank's ratio \(expected) Hz")
            // The header says the sample is in tune: C4 is meant to be 261.626 Hz.
            #expect(abs(sound.intendedFrequency(key: 60) - equalTempered(60)) < 1e-9, "the bank intends \(sound.intendedFrequency(key: 60)) Hz")
        }
        let c4 = sustained(zip(rendered[0], rendered[1]).map { $0 + $1 }).peakFrequency(in: 240...285)
        let tool = try withScratchFolder { try FluidSynthTool.render(key: 60, program: 0, in: $0) }
        let reference = sustained(zip(tool[0], tool[1]).map { $0 + $1 }).peakFrequency(in: 240...285)
        #expect(abs(Spectrum.cents(c4, from: reference)) < 1, "the sampler's C4 \(c4) Hz, the fluidsynth tool's \(reference) Hz")
        // Both 261.342 Hz: -1.88 cents from what the bank intends, the recording's own flatness
        // (its left sample measures -1.1 cents, its right -1.7, their sum -2.0; docs/SAMPLER.md).
        let error = Spectrum.cents(c4, from: equalTempered(60))
        #expect(abs(error) < 2.5, "fundamental \(c4) Hz, \(error) cents from 261.626 Hz")
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
