import AUPluginSDK
import Glibc

/// `aumu:synt:AUHs`: a polyphonic synthesizer played by MIDI — 16 voices, each a
/// band-limited oscillator (sine, square, sawtooth, triangle) under an ADSR envelope,
/// scaled by velocity. The oldest voice is stolen when all sound. Equal temperament,
/// A4 (note 69) = 440 Hz.
/// - Thread: control for set-up; ``process(_:)`` and ``handleMIDI(_:)`` on the render thread.
final class SynthUnit: PluginUnit {
    enum Parameter: UInt32 {
        case waveform = 0, attack, decay, sustain, release, level
    }

    static let voiceCount = 16

    static let descriptor = UnitDescriptor(
        type: .musicDevice, subtype: "synt", manufacturer: "AUHs", name: "Synth", manufacturerName: "AUHost",
        category: "Synth", inputs: [], outputs: [2])

    static let parameters = [
        .choice(id: Parameter.waveform.rawValue, identifier: "waveform", name: "Waveform", choices: Array(Waveform.names.prefix(4)), default: Waveform.sawtooth.rawValue),
        PluginParameterInfo(id: Parameter.attack.rawValue, identifier: "attack", name: "Attack", unit: .milliseconds, range: 0...5000, default: 5),
        PluginParameterInfo(id: Parameter.decay.rawValue, identifier: "decay", name: "Decay", unit: .milliseconds, range: 1...5000, default: 150),
        PluginParameterInfo(id: Parameter.sustain.rawValue, identifier: "sustain", name: "Sustain", unit: .percent, range: 0...100, default: 70),
        PluginParameterInfo(id: Parameter.release.rawValue, identifier: "release", name: "Release", unit: .milliseconds, range: 1...10_000, default: 250),
        PluginParameterInfo(id: Parameter.level.rawValue, identifier: "level", name: "Level", unit: .decibels, range: -96...0, default: -12),
    ]

    static let factoryPresets = [
        PluginPreset(name: "Pluck", values: [Parameter.waveform.rawValue: 1, Parameter.attack.rawValue: 1, Parameter.decay.rawValue: 200, Parameter.sustain.rawValue: 0, Parameter.release.rawValue: 150]),
        PluginPreset(name: "Pad", values: [Parameter.waveform.rawValue: 3, Parameter.attack.rawValue: 600, Parameter.decay.rawValue: 800, Parameter.sustain.rawValue: 80, Parameter.release.rawValue: 1500]),
    ]

    private struct Voice {
        var note: UInt8 = 0
        var gain: Float = 0
        var age: UInt64 = 0
        var oscillator = Oscillator()
        var envelope = Envelope()
    }

    private var voices = [Voice](repeating: Voice(), count: voiceCount)
    private var times = Envelope.Times()
    private var waveform = Waveform.sawtooth
    private var level = Smoother(value: decibelsToGain(-12))
    private var sampleRate = 48_000.0
    private var noteCounter: UInt64 = 0

    init() {}

    func prepare(_ setup: RenderSetup) throws(PluginError) {
        sampleRate = setup.sampleRate
        level.configure(time: 0.005, sampleRate: sampleRate)
        level.snap()
        configureVoices()
        reset()
    }

    private func configureVoices() {
        for index in voices.indices {
            voices[index].envelope.configure(times, sampleRate: sampleRate)
            voices[index].oscillator.waveform = waveform
        }
    }

    func setParameter(_ id: UInt32, value: Float) {
        switch Parameter(rawValue: id) {
        case .waveform: waveform = Waveform(rawValue: Int(value)) ?? .sawtooth
        case .attack: times.attack = Double(value) / 1000
        case .decay: times.decay = Double(value) / 1000
        case .sustain: times.sustain = value / 100
        case .release: times.release = Double(value) / 1000
        case .level: level.target = decibelsToGain(value)
        case nil: return
        }
        configureVoices()
    }

    func reset() {
        for index in voices.indices { voices[index].envelope.stop() }
        level.snap()
    }

    /// The release falls by 4.6 nepers (to 1 %) in its time and a voice stops at 1e-5: 2.5 release times.
    var tailTime: Double { times.release * log(1e5) / 4.6 }

    /// The frequency of a MIDI note in equal temperament.
    static func frequency(of note: UInt8) -> Double { 440 * pow(2, (Double(note) - 69) / 12) }

    func handleMIDI(_ message: PluginMIDIEvent) {
        if message.isNoteOn {
            startNote(message.data1, velocity: message.data2)
        } else if message.isNoteOff {
            for index in voices.indices where voices[index].note == message.data1 && voices[index].envelope.stage != .release {
                voices[index].envelope.release()
            }
        } else if message.isAllNotesOff {
            for index in voices.indices { voices[index].envelope.release() }
        }
    }

    private func startNote(_ note: UInt8, velocity: UInt8) {
        // A free voice, else the oldest one.
        var chosen = 0
        var oldest = UInt64.max
        for index in voices.indices {
            if !voices[index].envelope.isActive {
                chosen = index
                break
            }
            if voices[index].age < oldest {
                oldest = voices[index].age
                chosen = index
            }
        }
        noteCounter += 1
        voices[chosen].note = note
        voices[chosen].gain = Float(velocity) / 127
        voices[chosen].age = noteCounter
        voices[chosen].oscillator.waveform = waveform
        voices[chosen].oscillator.restart()
        voices[chosen].oscillator.setFrequency(Self.frequency(of: note), sampleRate: sampleRate)
        voices[chosen].envelope.start()
    }

    func process(_ block: AudioBlock) {
        let channels = block.outputChannelCount()
        guard channels > 0 else { return }
        let first = block.output(0)
        first.update(repeating: 0)
        for index in voices.indices where voices[index].envelope.isActive {
            let gain = voices[index].gain
            for frame in 0..<block.frameCount {
                first[frame] += voices[index].oscillator.next() * voices[index].envelope.next() * gain
            }
        }
        for frame in 0..<block.frameCount { first[frame] *= level.next() }
        for channel in 1..<max(1, channels) { _ = block.output(channel).update(from: UnsafeBufferPointer(first)) }
    }
}

@_cdecl("auhost_plugin_entry") public func auhostPluginEntry() -> UnsafeRawPointer { PluginExport.entry(SynthUnit.self) }
