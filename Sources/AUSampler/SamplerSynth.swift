import AUCore
import CFluidSynth
import CFluidSynthLoader
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
    /// The Universal Real Time master volume (SysEx 7F dev 04 01), 0…1: FluidSynth's gain is
    /// the gain parameter times it (render thread).
    private var masterVolume: Float = 1

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
        guard au_fluidsynth_load() == 0 else {
            throw AudioUnitError(.failedInitialization, "the sampler needs FluidSynth: \(String(cString: au_fluidsynth_load_error()))")
        }
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

    /// Renders `frameCount` frames from sample time `callStart` into `output` (two channels)
    /// with `events` applied at their offsets and the SysEx messages of `sysEx` due in the
    /// call at theirs, after bringing the synthesizer to the parameters' values and to the
    /// requested instrument. No allocation, no lock, no system call.
    func render(frameCount: Int, output: AudioBuffers, events: UnsafeBufferPointer<MIDIEvent>, sysEx: SysExQueue, callStart: Int64) {
        let requested = requestedInstrument.load(ordering: .acquiring)
        if requested != appliedInstrument {
            select(requested)
            appliedInstrument = requested
        }
        parameters._withUnsafeGuaranteedRef { apply($0) }
        var done = 0
        for event in events {
            let at = min(max(Int(event.offset), done), frameCount)
            applySysEx(sysEx, through: at, callStart: callStart, frameCount: frameCount, output: output, done: &done)
            write(output, to: at, done: &done)
            play(event)
        }
        applySysEx(sysEx, through: frameCount - 1, callStart: callStart, frameCount: frameCount, output: output, done: &done)
        write(output, to: frameCount, done: &done)
    }

    /// Renders the call's frames `done..<at` (methods, not local functions: a local function
    /// capturing `done` puts it in a heap box).
    @inline(__always)
    private func write(_ output: AudioBuffers, to at: Int, done: inout Int) {
        guard at > done else { return }
        fluid_synth_write_float(synth, Int32(at - done), output.channelPointers[0] + done, 0, 1, output.channelPointers[1] + done, 0, 1)
        done = at
    }

    /// Applies the SysEx messages due at or before frame `at` of the call, each at its frame.
    @inline(__always)
    private func applySysEx(_ sysEx: SysExQueue, through at: Int, callStart: Int64, frameCount: Int, output: AudioBuffers, done: inout Int) {
        while let message = sysEx.nextDue(before: callStart + Int64(at) + 1) {
            write(output, to: message.sampleTime <= callStart ? 0 : min(Int(message.sampleTime - callStart), frameCount), done: &done)
            play(sysEx: sysEx.bytes(of: message))
        }
    }

    /// One SysEx message (F0 … F7), what a GM/GS sampler honours: the Universal Real Time
    /// master volume, and GM System On/Off, GM2 System On, GS Reset and XG System On, each a
    /// system reset (FluidSynth's: every voice off, every channel's controllers and program
    /// back to their defaults) that also brings the master volume back to full and, with one
    /// instrument on every channel, selects it again. Any other message is ignored
    /// (FluidSynth's own SysEx handling takes tuning dumps, which allocate, and not GS Reset).
    private func play(sysEx message: UnsafeBufferPointer<UInt8>) {
        guard message.count >= 4, message[0] == 0xF0, message[message.count - 1] == 0xF7 else { return }
        // Pointer arithmetic, not a slice (whose metadata the runtime would allocate here).
        let body = UnsafeBufferPointer(start: message.baseAddress! + 1, count: message.count - 2)
        if body.count == 6, body[0] == 0x7F, body[2] == 0x04, body[3] == 0x01 {
            masterVolume = Float(Int(body[5] & 0x7F) << 7 | Int(body[4] & 0x7F)) / 16_383
            fluid_synth_set_gain(synth, appliedValues[Int(SamplerParameter.gain.rawValue)] * masterVolume)
            return
        }
        guard Self.isReset(body) else { return }
        fluid_synth_system_reset(synth)
        masterVolume = 1
        fluid_synth_set_gain(synth, appliedValues[Int(SamplerParameter.gain.rawValue)])
        if appliedInstrument != Self.generalMIDI { select(appliedInstrument) }
    }

    /// GM System On / Off and GM2 System On (7E dev 09 01|02|03), GS Reset (41 dev 42 12 40
    /// 00 7F 00 41) or XG System On (43 1n 4C 00 00 7E 00), between F0 and F7.
    private static func isReset(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
        switch body.count {
        case 4: body[0] == 0x7E && body[2] == 0x09 && body[3] >= 1 && body[3] <= 3
        case 9: body[0] == 0x41 && body[2] == 0x42 && body[3] == 0x12 && body[4] == 0x40 && body[5] == 0x00 && body[6] == 0x7F && body[7] == 0x00
        case 7: body[0] == 0x43 && body[1] & 0xF0 == 0x10 && body[2] == 0x4C && body[3] == 0 && body[4] == 0 && body[5] == 0x7E && body[6] == 0
        default: false
        }
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
        case .gain: fluid_synth_set_gain(synth, value * masterVolume)
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
