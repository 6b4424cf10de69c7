import AUPluginSDK

/// `aumi:arpg:AUHs`: an arpeggiator. While keys are held it plays them one at a time, a
/// note every step (1/4, 1/8, 1/16 or 1/32 of a whole note, at the host transport's tempo,
/// 120 BPM when it gives none), up, down, up-down or in the order they were played, over 1
/// to 4 octaves; each note sounds for the gate's share of its step. The first note starts
/// at the frame the first key goes down; steps follow at exact frames (fractions carried
/// over, so the grid does not drift), whatever the host's block sizes. A note keeps the
/// channel and velocity of its key. Letting go of every key stops it (the sounding note
/// still ends at its gate). Other MIDI messages pass through. No audio.
/// - Thread: control for set-up; ``process(_:)`` and ``handleMIDI(_:)`` on the render thread.
final class ArpeggiatorUnit: PluginUnit {
    enum Parameter: UInt32 {
        case rate = 0, pattern, octaves, gate
    }

    /// Each step's length in beats (quarter notes), by the rate parameter's index.
    static let stepBeats = [1.0, 0.5, 0.25, 0.125]

    static let descriptor = UnitDescriptor(
        type: .midiProcessor, subtype: "arpg", manufacturer: "AUHs", name: "Arpeggiator", manufacturerName: "AUHost",
        category: "MIDI", inputs: [], outputs: [], sendsMIDI: true)

    static let parameters = [
        .choice(id: Parameter.rate.rawValue, identifier: "rate", name: "Rate", choices: ["1/4", "1/8", "1/16", "1/32"], default: 2),
        .choice(id: Parameter.pattern.rawValue, identifier: "pattern", name: "Pattern", choices: ArpeggioPattern.names, default: 0),
        PluginParameterInfo(id: Parameter.octaves.rawValue, identifier: "octaves", name: "Octave Range", unit: .octaves, range: 1...4, default: 1),
        PluginParameterInfo(id: Parameter.gate.rawValue, identifier: "gate", name: "Gate", unit: .percent, range: 1...100, default: 50),
    ]

    /// The most messages passed through in one slice (more are dropped).
    static let passThroughCapacity = 64

    private var keys = HeldKeys()
    private var sequence = ArpeggioSequence()
    private var pattern = ArpeggioPattern.up
    private var octaves = 1
    private var stepBeats = 0.25
    private var gate = 0.5
    private var sampleRate = 48_000.0

    /// Frames processed since `prepare` or `reset`: the clock every event is placed on.
    private var now: Int64 = 0
    /// Whether steps are being played (a key is held, or was when the last step came).
    private var isRunning = false
    /// A key went down while nothing was held: the next slice (which starts at its frame) starts the arpeggio.
    private var startsAtSlice = false
    /// The frame of the next step, with its fraction (steps are rarely whole frames long).
    private var nextStep = 0.0
    private var stepIndex = 0
    /// The note sounding and the frame of its note-off.
    private var sounding: HeldKey?
    private var soundingEnds: Int64 = 0
    /// Messages other than notes, sent at the start of the next slice (the one at their frame).
    private var passThrough = [PluginMIDIEvent](repeating: PluginMIDIEvent(status: 0, data1: 0, data2: 0), count: passThroughCapacity)
    private var passThroughCount = 0

    init() {}

    func prepare(_ setup: RenderSetup) throws(PluginError) {
        sampleRate = setup.sampleRate
        reset()
    }

    func setParameter(_ id: UInt32, value: Float) {
        switch Parameter(rawValue: id) {
        case .rate: stepBeats = Self.stepBeats[min(max(Int(value), 0), Self.stepBeats.count - 1)]
        case .pattern:
            pattern = ArpeggioPattern(rawValue: Int(value)) ?? .up
            sequence.rebuild(from: keys, pattern: pattern, octaves: octaves)
        case .octaves:
            octaves = Int(value.rounded())
            sequence.rebuild(from: keys, pattern: pattern, octaves: octaves)
        case .gate: gate = Double(value) / 100
        case nil: break
        }
    }

    func reset() {
        keys.removeAll()
        sequence.rebuild(from: keys, pattern: pattern, octaves: octaves)
        now = 0
        isRunning = false
        startsAtSlice = false
        sounding = nil
        passThroughCount = 0
    }

    func handleMIDI(_ message: PluginMIDIEvent) {
        if message.isNoteOn {
            if keys.count == 0 { startsAtSlice = true }
            keys.press(HeldKey(note: message.data1, channel: message.channel, velocity: message.data2))
        } else if message.isNoteOff {
            keys.release(note: message.data1, channel: message.channel)
        } else {
            if message.isAllNotesOff { keys.removeAll() }
            if passThroughCount < Self.passThroughCapacity {
                passThrough[passThroughCount] = message
                passThroughCount += 1
            }
            return
        }
        sequence.rebuild(from: keys, pattern: pattern, octaves: octaves)
    }

    func process(_ block: AudioBlock) {
        for index in 0..<passThroughCount { block.sendMIDI(passThrough[index]) }
        passThroughCount = 0
        if startsAtSlice {
            startsAtSlice = false
            if !isRunning && keys.count > 0 {
                isRunning = true
                nextStep = Double(now)
                stepIndex = 0
            }
        }
        let tempo = block.transport?.beatsPerMinute ?? 0
        let stepFrames = sampleRate * 60 / (tempo > 0 ? tempo : 120) * stepBeats
        let end = now + Int64(block.frameCount)
        while true {
            let step = Int64(nextStep.rounded())
            if let note = sounding, soundingEnds < end, !isRunning || soundingEnds <= step {
                block.sendMIDI(note.noteOff, at: Int(soundingEnds - now))
                sounding = nil
            } else if isRunning && step < end {
                if let note = sounding {
                    block.sendMIDI(note.noteOff, at: Int(step - now))
                    sounding = nil
                }
                guard sequence.count > 0 else {
                    isRunning = false
                    continue
                }
                stepIndex %= sequence.count
                let note = sequence[stepIndex]
                block.sendMIDI(note.noteOn, at: Int(step - now))
                sounding = note
                soundingEnds = step + max(1, Int64(stepFrames * gate))
                stepIndex += 1
                nextStep += stepFrames
            } else {
                break
            }
        }
        now = end
    }
}

@_cdecl("auhost_plugin_entry") public func auhostPluginEntry() -> UnsafeRawPointer { PluginExport.entry(ArpeggiatorUnit.self) }
