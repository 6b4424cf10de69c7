import AUCore
import Foundation
import Synchronization

/// `aumu:samp:AUHs`, Core Audio's AUSampler on FluidSynth: a music device with one stereo
/// output that plays SoundFont banks (SF2, SF3). With a bank alone
/// (``loadSoundBank(path:instrument:)``) it is a 16-channel General MIDI module: program
/// changes choose each channel's instrument and channel 10 plays drums; with an instrument
/// (``loadInstrument(_:)``, Core Audio's `LoadInstrument`) it plays that one instrument on
/// every channel. Until a bank is loaded it renders silence.
///
/// A bank is loaded on the calling (control) thread into a new synthesizer, which is then
/// published to the render thread with one atomic exchange; the synthesizer it replaces is
/// freed on the control side once no render reads it. A load that fails throws one error
/// naming the file and leaves the previous bank playing. See docs/SAMPLER.md.
/// - Thread: [control] for set-up and loading; ``process(_:)`` on the render thread.
public final class SamplerUnit: AudioUnit, @unchecked Sendable {
    /// The loaded bank's absolute path, "" when none (Core Audio's `SoundBankURL`), global
    /// scope, read-only: it changes through ``loadSoundBank(path:instrument:)``.
    public static let soundBankURL = PropertyKey<String>(custom: PropertyID(rawValue: 64100), size: { $0.utf8.count })
    /// The instrument played on every channel, nil for General MIDI (Core Audio's
    /// `LoadInstrument`), global scope, read-only: it changes through ``loadInstrument(_:)``.
    public static let instrument = PropertyKey<SamplerInstrument?>(custom: PropertyID(rawValue: 64101))

    /// The synthesizer the render thread plays, nil before a bank is loaded (control side;
    /// held under the lock, which also makes loads one at a time).
    private let current = Mutex<SamplerSynth?>(nil)
    /// ``current`` as the render thread reads it.
    private let renderSynth = RenderSnapshot<Unmanaged<SamplerSynth>>()
    /// SysEx on its way to the render (``SysExQueue``, published as ``SysExQueue/property``).
    public let sysEx = SysExQueue()
    /// ``sysEx`` as the render thread reads it (no retain).
    private let renderSysEx: Unmanaged<SysExQueue>
    /// The SoundFont made from audio files (``loadAudioFiles(_:)``) while it is the bank loaded.
    private var audioFileBank: AudioFileBank?
    /// The `bank` and `program` property parameters given so far (``setPropertyParameter(_:to:)``).
    var pendingBank: Int?
    var pendingProgram: Int?

    /// - Thread: [control]
    public init(description: ComponentDescription) {
        renderSysEx = Unmanaged.passUnretained(sysEx)
        super.init(
            description: description, name: "Sampler", inputs: [], outputs: [.canonical(channels: 2, name: "Output")],
            parameters: SamplerParameter.infos)
        declareProperty(Self.soundBankURL, initialValue: "", isWritable: false)
        declareProperty(Self.instrument, initialValue: nil, isWritable: false)
        declareProperty(SysExQueue.property, initialValue: sysEx, isWritable: false)
    }

    // MARK: - Loading

    /// Loads the SoundFont at `path` (SF2 or SF3; relative to the current directory) and
    /// plays it as a General MIDI module, or `instrument` on every channel. The file is
    /// checked, read by FluidSynth into a new synthesizer at the output's sample rate and
    /// swapped in; until then, and when it fails, the previous bank keeps playing.
    /// - Throws: one ``AudioUnitError`` naming the file: `InvalidFilePath` (missing or
    ///   unreadable), `UnknownFileType` (not a SoundFont), `InvalidFile` (truncated, or
    ///   refused by FluidSynth), `InvalidPropertyValue` (no such instrument in the bank).
    /// - Thread: [control]
    public func loadSoundBank(path: String, instrument: SamplerInstrument? = nil) throws(AudioUnitError) {
        try requireLive()
        let bank = try SoundBankFile(validating: path)
        try current.withLock { current throws(AudioUnitError) in
            try install(makeSynth(bank, instrument: instrument), in: &current)
        }
        audioFileBank = nil
        try announce(path: bank.path, instrument: instrument)
    }

    /// Plays audio files as one instrument (Core Audio's `kAUSamplerProperty_LoadAudioFiles`):
    /// each zone on its root key, at its own pitch there, on every channel. The zones become
    /// a SoundFont (``AudioFileSoundFont``) written to a file of the temporary folder, which
    /// lives as long as it is the bank loaded (a rebuild at another rate reads it again) and
    /// which the state (`ClassInfo`) carries whole.
    /// - Thread: [control]
    public func loadAudioFiles(_ zones: [SamplerAudioZone]) throws(AudioUnitError) {
        try loadAudioFileBank(AudioFileBank(soundFont: AudioFileSoundFont.data(zones)))
    }

    private func loadAudioFileBank(_ bank: AudioFileBank) throws(AudioUnitError) {
        try loadSoundBank(path: bank.path, instrument: SamplerInstrument(bankMSB: SamplerInstrument.melodicBankMSB, bankLSB: 0, program: 0))
        audioFileBank = bank
    }

    /// Plays `instrument` of the loaded bank on every channel (Core Audio's
    /// `LoadInstrument`) from the next render call, without loading the bank again.
    /// - Throws: `InvalidPropertyValue` naming the file when the bank has no such
    ///   instrument, `FileNotSpecified` when no bank is loaded.
    /// - Thread: [control]
    public func loadInstrument(_ instrument: SamplerInstrument) throws(AudioUnitError) {
        try requireLive()
        let path = try current.withLock { current throws(AudioUnitError) -> String in
            guard let synth = current else {
                throw AudioUnitError(.fileNotSpecified, "\(name): no sound bank is loaded to take \(instrument) from")
            }
            synth.request(try synth.choice(for: instrument))
            return synth.bank.path
        }
        try announce(path: path, instrument: instrument)
    }

    /// `LoadInstrument` by its three numbers: ``loadInstrument(_:)``.
    /// - Thread: [control]
    public func loadInstrument(bankMSB: UInt8, bankLSB: UInt8, program: UInt8) throws(AudioUnitError) {
        try loadInstrument(SamplerInstrument(bankMSB: bankMSB, bankLSB: bankLSB, program: program))
    }

    /// Unloads the bank: the unit renders silence again.
    /// - Thread: [control]
    public func unloadSoundBank() throws(AudioUnitError) {
        try requireLive()
        uninstall()
        audioFileBank = nil
        try announce(path: "", instrument: nil)
    }

    /// Publishes `synth` (nil: none) to the render thread and frees the one it replaces once
    /// no render reads it. The replaced synthesizer is held to the end explicitly: an
    /// optimized build may otherwise release it as soon as it leaves `current`, before the
    /// publish has waited out the render that still plays it.
    private func install(_ synth: SamplerSynth?, in current: inout SamplerSynth?) {
        let replaced = current
        renderSynth.publish(synth.map { [Unmanaged.passUnretained($0)] } ?? [])
        current = synth
        withExtendedLifetime(replaced) {}
    }

    /// Unpublishes the synthesizer and frees it once no render reads it.
    private func uninstall() {
        current.withLock { current in install(nil, in: &current) }
    }

    /// Builds the current bank again (same file and instrument) when the sample rate or
    /// the polyphony it was built with is not the unit's any more. The channels start again
    /// from the bank's defaults: programs chosen by MIDI program changes are not kept.
    private func rebuildIfStale() throws(AudioUnitError) {
        try current.withLock { current throws(AudioUnitError) in
            guard let synth = current, synth.sampleRate != outputSampleRate || synth.polyphony != polyphonyValue else { return }
            let instrument = try value(of: Self.instrument)
            try install(makeSynth(synth.bank, instrument: instrument), in: &current)
        }
    }

    private func announce(path: String, instrument: SamplerInstrument?) throws(AudioUnitError) {
        try updateProperty(Self.soundBankURL, to: path)
        try updateProperty(Self.instrument, to: instrument)
    }

    private func requireLive() throws(AudioUnitError) {
        guard state != .disposed else { throw AudioUnitError(.instanceInvalidated, "\(name) has been disposed") }
    }

    /// A synthesizer for `bank` at the unit's sample rate and polyphony, reading its parameters.
    private func makeSynth(_ bank: SoundBankFile, instrument: SamplerInstrument?) throws(AudioUnitError) -> SamplerSynth {
        try SamplerSynth(
            bank: bank, sampleRate: outputSampleRate, polyphony: polyphonyValue, instrument: instrument,
            parameters: Unmanaged.passUnretained(parameters))
    }

    private var outputSampleRate: Double { formats(.output)[0].sampleRate }
    private var polyphonyValue: Int { Int(parameters.value(at: Int(SamplerParameter.polyphony.rawValue)).rounded()) }

    // MARK: - AudioUnit hooks

    /// Two channels, 32-bit float, non-interleaved, at any sample rate.
    /// - Thread: [control]
    override public func validateFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) {
        try format.validate()
        guard format.isFloat, !format.isInterleaved, format.bitsPerChannel == 32, format.channelsPerFrame == 2 else {
            throw AudioUnitError(.formatNotSupported, "\(name) renders two channels of 32-bit float, non-interleaved, not \(format)")
        }
    }

    /// A bank loaded at another sample rate is built again at the output's.
    /// - Thread: [control & uninitialized]
    override public func allocateRenderResources() throws(AudioUnitError) {
        try rebuildIfStale()
    }

    /// A polyphony change builds the synthesizer again with that many voices (FluidSynth
    /// allocates them). If the bank cannot be read any more the previous synthesizer plays on.
    /// - Thread: [control]
    override public func parameterDidChange(_ index: Int, value: Float) {
        guard index == Int(SamplerParameter.polyphony.rawValue) else { return }
        try? rebuildIfStale()
    }

    /// Starts again as a new synthesizer would (`AudioUnitReset`): the bank (FluidSynth keeps
    /// its samples loaded), the instrument, the rate and the polyphony built anew, so no
    /// voice, controller or program change, and no reverb or chorus of before is left.
    /// Silencing the voices left what a new synthesizer has not (`auhost validate`'s `reset`
    /// heard the next notes 0.006 apart). If the bank cannot be read any more, the voices are
    /// silenced instead.
    /// - Thread: [control] (never concurrently with a render).
    override public func resetState() {
        current.withLock { current in
            guard let synth = current else { return }
            do {
                try install(makeSynth(synth.bank, instrument: value(of: Self.instrument)), in: &current)
            } catch {
                synth.silence()
            }
        }
    }

    /// Three seconds for the notes' release and the reverb to die away.
    /// - Thread: [control]
    override public var tailTime: Double { 3 }

    /// Plays the published synthesizer, the slice's MIDI and SysEx at their offsets; silence
    /// without one.
    /// - Thread: [render] No allocation, no lock, no system call.
    override public func process(_ context: ProcessContext) -> AudioUnitStatus {
        let output = context.outputs[0]
        let start = Int64(context.timestamp.sampleTime.rounded(.down))
        let rendered = renderSynth.read { synths -> Bool in
            // baseAddress, not first: an unspecialized (debug) `first` allocates its coroutine frame.
            guard let synth = synths.baseAddress?.pointee else { return false }
            renderSysEx._withUnsafeGuaranteedRef { sysEx in
                synth._withUnsafeGuaranteedRef {
                    $0.render(frameCount: context.frameCount, output: output, events: context.midiEvents, sysEx: sysEx, callStart: start)
                }
            }
            return true
        }
        if !rendered {
            output.clear()
            // No bank: nothing takes them.
            renderSysEx._withUnsafeGuaranteedRef { sysEx in while sysEx.nextDue(before: start + Int64(context.frameCount)) != nil {} }
        }
        return 0
    }

    /// `soundbank`, `bank` and `program` (SamplerUnit+Properties.swift).
    /// - Thread: [control]
    override public var propertyParameters: [PropertyParameterInfo] { Self.propertyInfos }

    /// Loads the bank or chooses the instrument (SamplerUnit+Properties.swift).
    /// - Thread: [control]
    override public func setPropertyParameter(_ identifier: String, to value: PropertyParameterValue) throws(AudioUnitError) {
        try setProperty(identifier, to: value)
    }

    /// The bank's path, or the instrument's bank or program.
    /// - Thread: [control]
    override public func propertyParameterValue(_ identifier: String) -> PropertyParameterValue? { property(identifier) }

    /// The bank and the instrument are all the custom state.
    /// - Thread: [control]
    override public var parametersHoldCustomState: Bool { true }

    /// Unpublishes and frees the synthesizer.
    /// - Thread: [control]
    override public func disposeResources() {
        uninstall()
    }

    // MARK: - State

    /// The bank's path and the instrument, in `ClassInfo` beside the parameter values; a
    /// bank made from audio files is kept whole instead of its temporary path.
    private struct SavedBank: Codable {
        var soundBank: String?
        var instrument: SamplerInstrument?
        var audioFileSoundFont: Data?
    }

    /// The bank's path and the instrument as JSON.
    /// - Thread: [control]
    override public func saveCustomState() throws(AudioUnitError) -> Data? {
        let path = try value(of: Self.soundBankURL)
        var saved = SavedBank(soundBank: path.isEmpty ? nil : path, instrument: try value(of: Self.instrument))
        if let audioFileBank {
            saved.soundBank = nil
            saved.audioFileSoundFont = audioFileBank.soundFont
        }
        do {
            return try JSONEncoder().encode(saved)
        } catch {
            throw AudioUnitError(.invalidPropertyValue, "\(name): the sound bank state could not be encoded", underlying: error)
        }
    }

    /// Loads the saved bank and instrument again (or unloads, when the state has none).
    /// - Thread: [control]
    override public func restoreCustomState(_ data: Data) throws(AudioUnitError) {
        let saved: SavedBank
        do {
            saved = try JSONDecoder().decode(SavedBank.self, from: data)
        } catch {
            throw AudioUnitError(.invalidPropertyValue, "\(name): ClassInfo's sampler state is not a sound bank and instrument", underlying: error)
        }
        if let soundFont = saved.audioFileSoundFont {
            try loadAudioFileBank(AudioFileBank(soundFont: [UInt8](soundFont)))
        } else if let path = saved.soundBank {
            try loadSoundBank(path: path, instrument: saved.instrument)
        } else {
            try unloadSoundBank()
        }
    }
}
