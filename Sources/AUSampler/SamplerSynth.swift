import AUCore
import CFluidSynth
import Synchronization

/// One FluidSynth synthesizer with one sound bank loaded: built, loaded and checked on the
/// control side (``init(bank:sampleRate:polyphony:instrument:parameters:)``), then handed to the render
/// thread, which alone calls it from then on (FluidSynth's own locking is off:
/// `synth.threadsafe-api` 0). Freed on the control side once no render reads it.
///
/// FluidSynth renders in blocks of 64 frames: a MIDI event applied between two writes
/// sounds from the next block FluidSynth computes (at most 63 frames later), as in the
/// `fluidsynth` tool.
final class SamplerSynth: @unchecked Sendable {
    let bank: SoundBankFile
    let sampleRate: Double
    let polyphony: Int
    /// The instruments of the bank: SoundFont bank number × 128 + program.
    let presets: Set<Int>
    private let settings: OpaquePointer
    private let synth: OpaquePointer
    private let soundFontID: Int32
    /// The unit's parameter table, which outlives the synthesizer.
    private let parameters: Unmanaged<ParameterTable>

    /// What plays on the channels, as one word: ``generalMIDI`` (each channel its own
    /// program, channel 10 drums) or one instrument, SoundFont bank × 128 + program. The
    /// control side asks, the render thread reads it at the start of each call;
    /// ``appliedInstrument`` is what it played last.
    private let requestedInstrument: Atomic<Int>
    private var appliedInstrument: Int
    /// The parameter values the synthesizer has (render thread), NaN before the first call.
    private let appliedValues: UnsafeMutablePointer<Float>
    /// Where ``appliedValues`` were last compared with the parameter table.
    private let parameterCursor = ParameterChangeCursor()

    private static let channels: Int32 = 16
    /// How many parameters (`allCases` builds an array at every call).
    private static let parameterCount = SamplerParameter.allCases.count
    private static let generalMIDI = -1

    /// Builds a synthesizer at `sampleRate` with `polyphony` voices, loads `bank` into it
    /// and selects `instrument` on every channel (nil: General MIDI). Throws one error naming
    /// the file when FluidSynth refuses it (quoting what FluidSynth said) or the instrument
    /// is not in the bank.
    init(
        bank: SoundBankFile, sampleRate: Double, polyphony: Int, instrument: SamplerInstrument?, parameters: Unmanaged<ParameterTable>
    ) throws(AudioUnitError) {
        let build = FluidSynthLog.capturing { () -> (OpaquePointer, OpaquePointer?, Int32) in
            let settings = new_fluid_settings()!
            fluid_settings_setint(settings, "synth.threadsafe-api", 0)
            fluid_settings_setint(settings, "synth.dynamic-sample-loading", 0)
            fluid_settings_setint(settings, "synth.cpu-cores", 1)
            fluid_settings_setint(settings, "synth.polyphony", Int32(polyphony))
            fluid_settings_setnum(settings, "synth.sample-rate", sampleRate)
            guard let synth = new_fluid_synth(settings) else { return (settings, nil, FLUID_FAILED) }
            return (settings, synth, fluid_synth_sfload(synth, bank.path, 1))
        }
        let (settings, made, soundFontID) = build.result
        guard let synth = made, soundFontID != FLUID_FAILED else {
            if let made { delete_fluid_synth(made) }
            delete_fluid_settings(settings)
            let said = build.messages.isEmpty ? "" : ": " + build.messages.joined(separator: "; ")
            throw AudioUnitError(.invalidFile, "sound bank '\(bank.path)' could not be loaded by FluidSynth\(said)")
        }
        var presets = Set<Int>()
        let soundFont = fluid_synth_get_sfont_by_id(synth, soundFontID)
        fluid_sfont_iteration_start(soundFont)
        while let preset = fluid_sfont_iteration_next(soundFont) {
            presets.insert(Int(fluid_preset_get_banknum(preset)) * 128 + Int(fluid_preset_get_num(preset)))
        }
        self.bank = bank
        self.sampleRate = sampleRate
        self.polyphony = polyphony
        self.presets = presets
        self.settings = settings
        self.synth = synth
        self.soundFontID = soundFontID
        self.parameters = parameters
        appliedValues = .allocate(capacity: Self.parameterCount)
        appliedValues.initialize(repeating: .nan, count: Self.parameterCount)
        requestedInstrument = Atomic(Self.generalMIDI)
        appliedInstrument = Self.generalMIDI
        if let instrument {
            let code = try choice(for: instrument)
            select(code)
            appliedInstrument = code
            requestedInstrument.store(code, ordering: .relaxed)
        }
    }

    deinit {
        delete_fluid_synth(synth)
        delete_fluid_settings(settings)
        appliedValues.deallocate()
    }

    /// The instrument's code (``requestedInstrument``), or the error naming it and the bank.
    func choice(for instrument: SamplerInstrument) throws(AudioUnitError) -> Int {
        guard let soundFontBank = instrument.soundFontBank, presets.contains(soundFontBank * 128 + Int(instrument.program)) else {
            throw AudioUnitError(.invalidPropertyValue, "sound bank '\(bank.path)' has no instrument at \(instrument)")
        }
        return soundFontBank * 128 + Int(instrument.program)
    }

    /// Asks the render thread to play `code` on every channel from its next call.
    func request(_ code: Int) {
        requestedInstrument.store(code, ordering: .releasing)
    }

    /// Selects one instrument on every channel.
    private func select(_ code: Int) {
        forEachChannel { fluid_synth_program_select(synth, $0, soundFontID, Int32(code / 128), Int32(code % 128)) }
    }

    /// Calls `body` with each MIDI channel, 0…15 (a counted loop: iterating a `Range<Int32>`
    /// unspecialized, in a debug build, allocates).
    private func forEachChannel(_ body: (Int32) -> Void) {
        var channel: Int32 = 0
        while channel < Self.channels {
            body(channel)
            channel += 1
        }
    }

    /// Silences every voice at once (`AudioUnitReset`).
    func silence() {
        fluid_synth_all_sounds_off(synth, -1)
    }

    // MARK: - Render thread

    /// Renders `frameCount` frames into `output` (two channels) with `events` applied at
    /// their offsets, after bringing the synthesizer to the parameters' values and to the
    /// requested instrument. No allocation, no lock, no system call.
    func render(frameCount: Int, output: AudioBuffers, events: UnsafeBufferPointer<MIDIEvent>) {
        let requested = requestedInstrument.load(ordering: .acquiring)
        if requested != appliedInstrument {
            select(requested)
            appliedInstrument = requested
        }
        parameters._withUnsafeGuaranteedRef { apply($0) }
        let left = output.channelPointers[0], right = output.channelPointers[1]
        var done = 0
        for event in events {
            let at = min(max(Int(event.offset), done), frameCount)
            if at > done { fluid_synth_write_float(synth, Int32(at - done), left + done, 0, 1, right + done, 0, 1) }
            done = at
            play(event)
        }
        if frameCount > done { fluid_synth_write_float(synth, Int32(frameCount - done), left + done, 0, 1, right + done, 0, 1) }
    }

    /// One channel message; with one instrument on every channel, program changes and bank
    /// selects are ignored.
    private func play(_ event: MIDIEvent) {
        let channel = Int32(event.status & 0x0F), data1 = Int32(event.data1), data2 = Int32(event.data2)
        let oneInstrument = appliedInstrument != Self.generalMIDI
        switch event.status & 0xF0 {
        case 0x80: fluid_synth_noteoff(synth, channel, data1)
        case 0x90 where data2 == 0: fluid_synth_noteoff(synth, channel, data1)
        case 0x90: fluid_synth_noteon(synth, channel, data1, data2)
        case 0xA0: fluid_synth_key_pressure(synth, channel, data1, data2)
        case 0xB0 where oneInstrument && (data1 == 0 || data1 == 32): break
        case 0xB0: fluid_synth_cc(synth, channel, data1, data2)
        case 0xC0 where !oneInstrument: fluid_synth_program_change(synth, channel, data1)
        case 0xD0: fluid_synth_channel_pressure(synth, channel, data1)
        case 0xE0: fluid_synth_pitch_bend(synth, channel, data1 | data2 << 7)
        default: break
        }
    }

    /// Sets what changed since the last call (every parameter on the first). The reverb's
    /// and the chorus's amounts go in one call each, with all four values.
    private func apply(_ parameters: ParameterTable) {
        guard parameterCursor.advance(over: parameters) else { return }
        var reverbChanged = false, chorusChanged = false
        for slot in 0..<Self.parameterCount {
            let value = parameters.value(at: slot)
            guard value != appliedValues[slot], let parameter = SamplerParameter(rawValue: ParameterID(slot)) else { continue }
            appliedValues[slot] = value
            switch parameter {
            case .reverbRoomSize, .reverbDamping, .reverbWidth, .reverbLevel: reverbChanged = true
            case .chorusVoices, .chorusLevel, .chorusSpeed, .chorusDepth: chorusChanged = true
            default: set(parameter, value)
            }
        }
        if reverbChanged {
            au_fluid_synth_set_reverb(
                synth, applied(.reverbRoomSize), applied(.reverbDamping), applied(.reverbWidth), applied(.reverbLevel))
        }
        if chorusChanged {
            au_fluid_synth_set_chorus(
                synth, Int32(applied(.chorusVoices).rounded()), applied(.chorusLevel), applied(.chorusSpeed), applied(.chorusDepth))
        }
    }

    private func applied(_ parameter: SamplerParameter) -> Double {
        Double(appliedValues[Int(parameter.rawValue)])
    }

    /// One parameter that FluidSynth sets by itself.
    private func set(_ parameter: SamplerParameter, _ value: Float) {
        let all: Int32 = -1
        switch parameter {
        case .gain: fluid_synth_set_gain(synth, value)
        case .tuning:
            let semitones = (value / 100).rounded(.towardZero)
            forEachChannel { channel in
                fluid_synth_set_gen(synth, channel, Int32(GEN_COARSETUNE.rawValue), semitones)
                fluid_synth_set_gen(synth, channel, Int32(GEN_FINETUNE.rawValue), value - 100 * semitones)
            }
        case .polyphony, .reverbRoomSize, .reverbDamping, .reverbWidth, .reverbLevel, .chorusVoices, .chorusLevel, .chorusSpeed, .chorusDepth:
            break // polyphony is built in (a change builds another synthesizer); the amounts go together (apply)
        case .interpolation: fluid_synth_set_interp_method(synth, all, SamplerParameter.interpolationMethod(value))
        case .reverb: fluid_synth_reverb_on(synth, all, value >= 0.5 ? 1 : 0)
        case .chorus: fluid_synth_chorus_on(synth, all, value >= 0.5 ? 1 : 0)
        }
    }
}
