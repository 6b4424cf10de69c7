import AUCore
import Foundation

/// What a unit is, as the tests that depend on it see it.
/// - Thread: [any]
enum UnitKind {
    /// Audio in, audio out (aufx, aumf and anything else with input buses).
    case effect
    /// Notes in, audio out (aumu).
    case instrument
    /// Audio out from nothing (augn, or a unit without input buses).
    case generator
    /// MIDI in, MIDI out (aumi).
    case midiProcessor
}

/// One test's view of the unit under test: fresh instances configured for it, the seeded
/// random source, and the settings. Every instance it made is disposed when the test ends.
/// - Thread: [control]
final class ValidationContext {
    let component: Component
    let settings: ValidationSettings
    var random: SeededRandom
    private var instances: [AudioUnit] = []

    init(component: Component, settings: ValidationSettings, test: String) {
        self.component = component
        self.settings = settings
        random = SeededRandom(seed: settings.seed, test: test)
    }

    /// What kind of unit this is, from its type and, for an effect type without inputs, its buses.
    lazy var kind: UnitKind = {
        switch component.description.type {
        case ComponentType.musicDevice: return .instrument
        case ComponentType.midiProcessor: return .midiProcessor
        case ComponentType.generator: return .generator
        default: return (try? instance().formats(.input).isEmpty) == true ? .generator : .effect
        }
    }()

    /// A new instance, uninitialized (disposed when the test ends).
    func instance() throws(AudioUnitError) -> AudioUnit {
        let unit = try component.instantiate()
        instances.append(unit)
        return unit
    }

    /// A new instance at `sampleRate` with `maximumFrames` per slice, initialized.
    func initializedUnit(sampleRate: Double = ValidationSettings.sampleRate, maximumFrames: Int = ValidationSettings.blockSize) throws -> AudioUnit {
        let unit = try instance()
        try configure(unit, sampleRate: sampleRate, maximumFrames: maximumFrames)
        try unit.initialize()
        return unit
    }

    /// Sets the rate of every bus (and the global one) and MaximumFramesPerSlice.
    func configure(_ unit: AudioUnit, sampleRate: Double, maximumFrames: Int) throws {
        try unit.setValue(maximumFrames, for: .maximumFramesPerSlice)
        try unit.setValue(sampleRate, for: .sampleRate)
    }

    /// A renderer over `unit` for blocks of up to `capacity` frames.
    func renderer(_ unit: AudioUnit, capacity: Int = ValidationSettings.blockSize) throws(AudioUnitError) -> UnitRenderer {
        try UnitRenderer(unit: unit, capacity: capacity)
    }

    /// What the test plays into the unit: noise into an effect's inputs, a chord of notes
    /// for an instrument (and a MIDI processor), nothing into a generator. Noise is the
    /// seeded source's; `frames` long.
    func stimulus(frames: Int, channels: Int) -> (input: [[Float]], midi: [MIDIEvent]) {
        var input = [[Float]](repeating: [Float](repeating: 0, count: frames), count: channels)
        if kind == .effect {
            for channel in 0..<channels { for frame in 0..<frames { input[channel][frame] = random.noise() } }
        }
        var midi: [MIDIEvent] = []
        if kind == .instrument || kind == .midiProcessor {
            for (index, note) in [60, 64, 67].enumerated() {
                midi.append(MIDIEvent(offset: Int32(index * 7), status: 0x90, data1: UInt8(note), data2: 100))
                midi.append(MIDIEvent(offset: Int32(max(frames * 3 / 4, index * 7 + 1)), status: 0x80, data1: UInt8(note), data2: 0))
            }
        }
        return (input, midi)
    }

    /// Disposes every instance the test made.
    func finish() {
        for unit in instances { unit.dispose() }
        instances.removeAll()
    }
}

/// The Core Audio name of a status (`TooManyFramesToProcess`), or the number.
func statusName(_ status: AudioUnitStatus) -> String {
    AudioUnitErrorCode(rawValue: status).map { "\($0.name) (\(status))" } ?? "status \(status)"
}

/// Output analysis shared by the tests.
enum SignalCheck {
    /// The smallest normal float: anything smaller and non-zero is a denormal.
    static let smallestNormal = Float.leastNormalMagnitude

    /// The first problem in `channels`: NaN, an infinity, or (with `denormals`) a denormal,
    /// naming the channel and frame; nil when all are finite.
    static func firstBadSample(_ channels: [[Float]], denormals: Bool = false) -> String? {
        for (channel, samples) in channels.enumerated() {
            for (frame, sample) in samples.enumerated() {
                if sample.isNaN { return "NaN at channel \(channel) frame \(frame)" }
                if sample.isInfinite { return "\(sample) at channel \(channel) frame \(frame)" }
                if denormals, sample != 0, abs(sample) < smallestNormal { return "a denormal (\(sample)) at channel \(channel) frame \(frame)" }
            }
        }
        return nil
    }

    /// The largest magnitude over every channel.
    static func peak(_ channels: [[Float]], from start: Int = 0) -> Float {
        channels.reduce(0) { result, samples in samples.dropFirst(start).reduce(result) { max($0, abs($1)) } }
    }

    /// The first frame whose magnitude exceeds `threshold` on any channel.
    static func firstFrame(above threshold: Float, in channels: [[Float]]) -> Int? {
        let frames = channels.map(\.count).max() ?? 0
        for frame in 0..<frames where channels.contains(where: { frame < $0.count && abs($0[frame]) > threshold }) { return frame }
        return nil
    }

    /// The last frame whose magnitude exceeds `threshold` on any channel.
    static func lastFrame(above threshold: Float, in channels: [[Float]]) -> Int? {
        let frames = channels.map(\.count).max() ?? 0
        for frame in stride(from: frames - 1, through: 0, by: -1) where channels.contains(where: { frame < $0.count && abs($0[frame]) > threshold }) {
            return frame
        }
        return nil
    }

    /// The largest difference between two renders, sample by sample (infinite when their shapes differ).
    static func largestDifference(_ a: [[Float]], _ b: [[Float]]) -> Float {
        guard a.count == b.count, zip(a, b).allSatisfy({ $0.count == $1.count }) else { return .infinity }
        var largest: Float = 0
        for (x, y) in zip(a, b) { for (p, q) in zip(x, y) { largest = max(largest, p.bitPattern == q.bitPattern ? 0 : abs(p - q)) } }
        return largest
    }

    /// Whether two renders are the same bit for bit.
    static func identical(_ a: [[Float]], _ b: [[Float]]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in x.count == y.count && zip(x, y).allSatisfy { $0.bitPattern == $1.bitPattern } }
    }

    /// `seconds` as frames at `sampleRate`, rounded up.
    static func frames(_ seconds: Double, _ sampleRate: Double) -> Int { Int((seconds * sampleRate).rounded(.up)) }

    /// `1.5 ms`, `2.3 s`: a duration as a report shows it.
    static func duration(_ seconds: Double) -> String {
        seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }
}
