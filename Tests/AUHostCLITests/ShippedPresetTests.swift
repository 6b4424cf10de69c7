import AUCore
import AUEngine
import AUHost
import AUHostCLI
import AUPresets
import AUTestSupport
import Foundation
import Testing

/// The chain presets shipped in Presets/, rendered offline through ``ChainGraph`` over
/// generated signals (the synth patch over MIDI notes), with numeric checks.
enum ShippedPresets {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Presets")

    /// Every `.json` file in Presets/, sorted.
    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static let sampleRate = 48_000.0
    static let seconds = 3.0
    static let blockSize = 512
    /// No sample may go beyond 0 dBFS.
    static let clipBound: Float = 1.0
    /// Chains ending in a limiter set to -1 dBFS stay below -1 dBFS plus this much (dB).
    static let limiterMargin = 0.3

    /// The rendered output, one array per channel.
    struct Rendered {
        var input: [[Float]]
        var output: [[Float]]
        var chainHasInput: Bool
        var latency: Int
        /// What reached the graph's MIDI output: (frame, event).
        var midiOutput: [(frame: Int, event: MIDIEvent)]
    }

    /// Loads `file`, builds its graph and renders `input` (or, for a chain without audio
    /// input, silence of the same length) in blocks, sending `midi` (frame, event) to the
    /// graph's MIDI input at its frame (which routes it as the preset says).
    static func render(
        _ file: String, registry: ComponentRegistry, input makeInput: (Int) -> [[Float]], midi: [(frame: Int, event: MIDIEvent)] = []
    ) throws -> Rendered {
        let loaded = try PresetLoader(registry: registry).load(file: path(file))
        let chain = try ChainGraph(loaded, registry: registry, sampleRate: loaded.preset.sampleRate ?? sampleRate, maximumFrames: blockSize)
        defer { chain.dispose() }
        try chain.graph.start()
        let hasInput = loaded.connections.contains { if case .graphInput = $0.source { true } else { false } }
        let outputChannels = try #require(chain.graph.outputFormat?.channelsPerFrame)
        let frames = Int(seconds * chain.sampleRate)
        let input = makeInput(chain.inputChannels)
        #expect(input.count == chain.inputChannels)
        #expect(midi.isEmpty || chain.graph.takesMIDIInput, "MIDI for a chain that takes none")
        var midiOutput: [(frame: Int, event: MIDIEvent)] = []

        let inputBuffers = OwnedAudioBuffers(channels: chain.inputChannels, capacity: blockSize)
        let outputBuffers = OwnedAudioBuffers(channels: outputChannels, capacity: blockSize)
        var output = Array(repeating: [Float](), count: outputChannels)
        var start = 0
        while start < frames {
            let count = min(blockSize, frames - start)
            for (frame, event) in midi where frame >= start && frame < start + count {
                var event = event
                event.offset = Int32(frame - start)
                #expect(chain.graph.sendMIDIEvent(event))
            }
            let inputView = inputBuffers.buffers(frameCount: count)
            for channel in 0..<chain.inputChannels {
                for frame in 0..<count { inputView[channel][frame] = input[channel][start + frame] }
            }
            let outputView = outputBuffers.buffers(frameCount: count)
            let status = chain.graph.render(
                frameCount: count, timestamp: RenderTimestamp(sampleTime: Double(start)),
                input: hasInput ? inputView : nil, output: outputView)
            #expect(status == 0, "render status \(status) at frame \(start)")
            for channel in 0..<outputChannels { output[channel] += outputView[channel] }
            midiOutput += chain.graph.midiOutputFromRender.map { (start + Int($0.offset), $0) }
            start += count
        }
        return Rendered(input: input, output: output, chainHasInput: hasInput, latency: chain.latencyFrames, midiOutput: midiOutput)
    }

    // MARK: Signals

    /// Program material: three-note chords in 0.5 s bursts with decaying envelopes, a bass
    /// line, a little noise; the right channel is like the left but not equal. Peak about `peak`.
    static func music(channels: Int, frames: Int, peak: Float = 0.5) -> [[Float]] {
        var random = Fuzz.SeededGenerator(state: 7)
        let chords: [[Double]] = [[220, 277.18, 329.63], [196, 246.94, 293.66], [174.61, 220, 261.63], [164.81, 207.65, 246.94]]
        return (0..<channels).map { channel in
            (0..<frames).map { frame in
                let t = Double(frame) / sampleRate
                let beat = Int(t / 0.5)
                let inBeat = t - Double(beat) * 0.5
                let envelope = exp(-inBeat * 4)
                let chord = chords[beat % chords.count]
                var sample = 0.0
                for (index, frequency) in chord.enumerated() {
                    let pan = channel == 0 ? 1.0 - 0.2 * Double(index) : 0.6 + 0.2 * Double(index)
                    sample += pan * sin(2 * .pi * frequency * t + Double(channel) * 0.3) / 3
                }
                sample = 0.7 * envelope * sample + 0.25 * sin(2 * .pi * chord[0] / 2 * t)
                sample += 0.01 * random.nextSigned()
                return Float(sample) * peak
            }
        }
    }

    /// A sine at `frequency` with a decaying envelope restarted every second (a picked string).
    static func plucks(channels: Int, frames: Int, frequency: Double, peak: Float) -> [[Float]] {
        let mono = (0..<frames).map { frame -> Float in
            let t = Double(frame) / sampleRate
            let envelope = exp(-(t.truncatingRemainder(dividingBy: 1)) * 2)
            return Float(envelope * sin(2 * .pi * frequency * t)) * peak
        }
        return Array(repeating: mono, count: channels)
    }

    /// Speech-like bursts (a 150 Hz buzz with formant-like partials, 0.5 s on, 0.7 s off)
    /// over a -60 dBFS noise floor; `gaps` are the frame ranges well inside the pauses.
    static func speech(channels: Int, frames: Int) -> (signal: [[Float]], bursts: [Range<Int>], gaps: [Range<Int>]) {
        var random = Fuzz.SeededGenerator(state: 11)
        let period = Int(1.2 * sampleRate), on = Int(0.5 * sampleRate)
        let mono = (0..<frames).map { frame -> Float in
            let t = Double(frame) / sampleRate
            var sample = 0.001 * random.nextSigned() * 1.7  // about -60 dBFS RMS
            if frame % period < on {
                let syllable = 0.6 + 0.4 * sin(2 * .pi * 4 * t)
                var voice = 0.0
                for (harmonic, weight) in [(1.0, 1.0), (2.0, 0.6), (4.0, 0.5), (8.0, 0.35), (16.0, 0.2), (40.0, 0.1)] {
                    voice += weight * sin(2 * .pi * 150 * harmonic * t)
                }
                sample += 0.12 * syllable * voice
            }
            return Float(sample)
        }
        var bursts: [Range<Int>] = [], gaps: [Range<Int>] = []
        var start = 0
        while start + period <= frames {
            bursts.append((start + on / 5)..<(start + on))
            gaps.append((start + period - Int(0.25 * sampleRate))..<(start + period - Int(0.02 * sampleRate)))
            start += period
        }
        return (Array(repeating: mono, count: channels), bursts, gaps)
    }

    // MARK: Measures

    static func rms(_ samples: some Collection<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    static func peak(_ channels: [[Float]]) -> Float {
        channels.map { $0.map(abs).max() ?? 0 }.max() ?? 0
    }

    static func decibels(_ value: Double) -> Double { 20 * log10(max(value, 1e-12)) }

    /// The power of `samples` at `frequency` (Goertzel), normalized like a mean square.
    static func power(_ samples: ArraySlice<Float>, at frequency: Double) -> Double {
        let coefficient = 2 * cos(2 * .pi * frequency / sampleRate)
        var previous = 0.0, beforePrevious = 0.0
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return 2 * power / Double(samples.count * samples.count)
    }

    /// Side energy over mid energy of a stereo signal.
    static func sideToMid(_ channels: [[Float]], in range: Range<Int>) -> Double {
        var side = 0.0, mid = 0.0
        for frame in range {
            let left = Double(channels[0][frame]), right = Double(channels[1][frame])
            mid += (left + right) * (left + right)
            side += (left - right) * (left - right)
        }
        return side / max(mid, 1e-20)
    }

}

@Suite struct ShippedPresetTests {
    @Test func theShippedChainsArePresent() {
        for name in ["vocal", "guitar-amp", "mastering", "podcast-cleanup", "stereo-widener", "synth-patch", "reference", "test-signal", "arpeggiated-synth", "two-part-band", "gm-sampler"] {
            #expect(ShippedPresets.files.contains("\(name).json"), "Presets/\(name).json is missing")
        }
    }

    /// Every shipped preset loads, builds, and renders a few seconds to finite, audible
    /// output without clipping; then the chain-specific check for the ones that have one.
    @Test(arguments: ShippedPresets.files)
    func rendersOffline(file: String) throws {
        typealias S = ShippedPresets
        let registry = HostRegistry.make()
        let preset = try PresetLoader.read(file: S.path(file))
        #expect(!preset.name.isEmpty && !(preset.description ?? "").isEmpty, "\(file): give the chain a name and a description")
        let frames = Int(S.seconds * S.sampleRate)

        var midi: [(frame: Int, event: MIDIEvent)] = []
        var speechRanges: (bursts: [Range<Int>], gaps: [Range<Int>]) = ([], [])
        let makeInput: (Int) -> [[Float]]
        switch file {
        case "synth-patch.json":
            // An A minor chord held 1.5 s, then the echo and the hall ring out.
            for note: UInt8 in [57, 60, 64] {
                midi.append((0, .noteOn(note, velocity: 100)))
                midi.append((Int(1.5 * S.sampleRate), .noteOff(note)))
            }
            makeInput = { channels in Array(repeating: Array(repeating: 0, count: frames), count: channels) }
        case "two-part-band.json", "gm-sampler.json":
            // A chord held 1.5 s through the graph's MIDI input: both instruments play it.
            for note: UInt8 in [45, 57, 64] {
                midi.append((0, .noteOn(note, velocity: 100)))
                midi.append((Int(1.5 * S.sampleRate), .noteOff(note)))
            }
            makeInput = { channels in Array(repeating: Array(repeating: 0, count: frames), count: channels) }
        case "arpeggiated-synth.json":
            // An A minor chord held 2 s: the arpeggiator plays it up over two octaves.
            for note: UInt8 in [57, 60, 64] {
                midi.append((0, .noteOn(note, velocity: 100)))
                midi.append((Int(2 * S.sampleRate), .noteOff(note)))
            }
            makeInput = { channels in Array(repeating: Array(repeating: 0, count: frames), count: channels) }
        case "guitar-amp.json":
            makeInput = { S.plucks(channels: $0, frames: frames, frequency: 196, peak: 0.5) }
        case "podcast-cleanup.json":
            let speech = S.speech(channels: 1, frames: frames)
            speechRanges = (speech.bursts, speech.gaps)
            makeInput = { channels in Array(repeating: speech.signal[0], count: channels) }
        case "vocal.json":
            // A voice-like 1 kHz tone in bursts over 40 Hz rumble at -30 dBFS.
            makeInput = { channels in
                let mono = (0..<frames).map { frame -> Float in
                    let t = Double(frame) / S.sampleRate
                    let voice = (frame / 12_000) % 2 == 0 ? 0.3 * sin(2 * .pi * 1000 * t) : 0
                    return Float(voice + 0.0316 * sin(2 * .pi * 40 * t))
                }
                return Array(repeating: mono, count: channels)
            }
        case "mastering.json":
            makeInput = { S.music(channels: $0, frames: frames, peak: 0.95) }
        default:
            makeInput = { S.music(channels: $0, frames: frames) }
        }

        let rendered = try S.render(file, registry: registry, input: makeInput, midi: midi)
        let output = rendered.output
        #expect(output.allSatisfy { $0.count == frames })
        #expect(output.allSatisfy { $0.allSatisfy(\.isFinite) }, "\(file): NaN or infinity in the output")
        let level = S.decibels(S.rms(output.flatMap { $0 }))
        #expect(level > -50, "\(file): output RMS \(level) dBFS: silent")
        let peak = S.peak(output)
        #expect(peak <= S.clipBound, "\(file): peak \(S.decibels(Double(peak))) dBFS is beyond 0 dBFS")
        // The instrument and the generator chains start the chain themselves.
        let generated = ["synth-patch.json", "test-signal.json", "arpeggiated-synth.json", "two-part-band.json", "gm-sampler.json"]
        #expect(rendered.chainHasInput == !generated.contains(file))

        switch file {
        case "mastering.json", "podcast-cleanup.json", "stereo-widener.json", "reference.json", "two-branches.json":
            // Each ends in the x42 limiter at -1 dBFS (sample peak; true peak is looser).
            let ceiling = -1 + S.limiterMargin
            #expect(S.decibels(Double(peak)) <= ceiling, "\(file): peak \(S.decibels(Double(peak))) dBFS above \(ceiling)")
        default: break
        }

        switch file {
        case "arpeggiated-synth.json":
            // Sixteenths at 120 BPM (6,000 frames) from the first frame while the chord is
            // held: A3 C4 E4 A4 C5 E5, again; on the graph's MIDI output, at exact frames.
            let ons = rendered.midiOutput.filter { $0.event.status & 0xF0 == 0x90 && $0.event.data2 > 0 }
            let expected = (0..<16).map { (frame: $0 * 6_000, note: [57, 60, 64, 69, 72, 76][$0 % 6]) }
            #expect(ons.map { [$0.frame, Int($0.event.data1)] } == expected.map { [$0.frame, $0.note] }, "\(ons.map { ($0.frame, $0.event.data1) })")
        case "vocal.json":
            // The high-pass takes the 40 Hz rumble down against the 1 kHz voice.
            let window = (frames / 2)..<frames
            func rumbleToVoice(_ signal: [Float]) -> Double {
                S.power(signal[window], at: 40) / S.power(signal[window], at: 1000)
            }
            let reduction = S.decibels((rumbleToVoice(output[0]) / rumbleToVoice(rendered.input[0])).squareRoot())
            #expect(reduction < -8, "rumble against voice changed by \(reduction) dB; expected at least 8 dB less")
        case "guitar-amp.json":
            // The amp adds harmonics: far less of the energy stays at the 196 Hz fundamental.
            // 0.1 to 0.3 s into the first pluck, where the envelope is nearly flat.
            let window = 4800..<14_400
            func fundamentalShare(_ signal: [Float]) -> Double {
                S.power(signal[window], at: 196) / pow(S.rms(signal[window]), 2)
            }
            let before = fundamentalShare(rendered.input[0]), after = fundamentalShare(output[0])
            #expect(before > 0.9, "the input is a near-pure sine (\(before))")
            #expect(after < before - 0.1, "fundamental share \(before) -> \(after): no distortion")
        case "podcast-cleanup.json":
            // The gate (with the rest) pulls the pauses down against the speech.
            func gapToSpeech(_ signal: [Float]) -> Double {
                let gaps = speechRanges.gaps.flatMap { signal[$0] }, speech = speechRanges.bursts.flatMap { signal[$0] }
                return S.decibels(S.rms(gaps) / S.rms(speech))
            }
            let before = gapToSpeech(rendered.input[0]), after = gapToSpeech(output[0])
            #expect(after < before - 10, "pauses against speech: \(before) dB in, \(after) dB out; expected 10 dB lower")
        case "stereo-widener.json":
            let window = (frames / 4)..<frames
            let before = S.sideToMid(rendered.input, in: window), after = S.sideToMid(output, in: window)
            #expect(after > 1.5 * before, "side/mid energy \(before) -> \(after); expected the side to grow")
        case "test-signal.json":
            // A 110 Hz tone: its fundamental stands far above a frequency between harmonics.
            let window = 24_000..<72_000
            let fundamental = S.power(output[0][window], at: 110), between = S.power(output[0][window], at: 165)
            #expect(fundamental > 0.1 * pow(S.rms(output[0][window]), 2))
            #expect(fundamental > 100 * between, "110 Hz: \(fundamental), 165 Hz: \(between)")
        case "synth-patch.json":
            // Notes sound while held; after the release, the echo and hall still ring but lower.
            let held = S.rms(output[0][4800..<72_000]), tail = S.rms(output[0][96_000..<132_000])
            #expect(S.decibels(held) > -40, "held chord at \(S.decibels(held)) dBFS")
            #expect(tail > 0 && tail < held, "tail \(S.decibels(tail)) dBFS against held \(S.decibels(held)) dBFS")
        default: break
        }
    }
}

extension Fuzz.SeededGenerator {
    /// Uniform in -1...1.
    mutating func nextSigned() -> Double { Double(next() >> 11) / Double(1 << 52) - 1 }
}
