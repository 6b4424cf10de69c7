import AUPluginSDK
import Glibc

/// An ADSR envelope: linear attack, exponential decay to the sustain level, exponential
/// release to silence (each segment's time is to 99 % of the way).
/// - Thread: render (a plain value).
struct Envelope {
    enum Stage {
        case idle, attack, decay, sustain, release
    }

    struct Times {
        var attack = 0.005
        var decay = 0.1
        var sustain: Float = 0.7
        var release = 0.2
    }

    private(set) var stage = Stage.idle
    private(set) var value: Float = 0
    private var attackStep: Float = 1
    private var decayCoefficient: Float = 0
    private var releaseCoefficient: Float = 0
    private var sustain: Float = 0.7

    /// Sets the segment times for a sample rate.
    mutating func configure(_ times: Times, sampleRate: Double) {
        attackStep = Float(1 / max(1, times.attack * sampleRate))
        // exp(-4.6) ≈ 0.01: 99 % of the way after the segment's time.
        decayCoefficient = Float(exp(-4.6 / max(1, times.decay * sampleRate)))
        releaseCoefficient = Float(exp(-4.6 / max(1, times.release * sampleRate)))
        sustain = times.sustain
    }

    mutating func start() { stage = .attack }
    mutating func release() { if stage != .idle { stage = .release } }
    mutating func stop() {
        stage = .idle
        value = 0
    }

    var isActive: Bool { stage != .idle }

    @inline(__always)
    mutating func next() -> Float {
        switch stage {
        case .idle: return 0
        case .attack:
            value += attackStep
            if value >= 1 {
                value = 1
                stage = .decay
            }
        case .decay:
            value = sustain + (value - sustain) * decayCoefficient
            if abs(value - sustain) < 1e-4 {
                value = sustain
                stage = .sustain
            }
        case .sustain: value = sustain
        case .release:
            value *= releaseCoefficient
            if value < 1e-5 { stop() }
        }
        return value
    }
}
