import Glibc

/// The waveforms an ``Oscillator`` draws.
/// - Thread: [any]
public enum Waveform: Int, Sendable, CaseIterable {
    case sine = 0, square, sawtooth, triangle, noise

    /// The names for an indexed parameter, in raw-value order.
    public static let names = ["Sine", "Square", "Sawtooth", "Triangle", "Noise"]
}

/// A band-limited oscillator: a phase accumulator in Double, PolyBLEP edges for the
/// square and sawtooth (so they do not alias audibly), a plain triangle, and a xorshift
/// white noise. Makes no allocation.
/// - Thread: [render] (configure on control or render; it is a plain value).
public struct Oscillator: Sendable {
    public var waveform: Waveform = .sine
    /// Phase in cycles, 0 ..< 1.
    public var phase: Double = 0
    @usableFromInline var increment: Double = 0
    @usableFromInline var noiseState: UInt32 = 0x1234_5678

    /// - Thread: [render]
    public init(waveform: Waveform = .sine) { self.waveform = waveform }

    /// Sets the frequency for a sample rate (clamped below Nyquist).
    /// - Thread: [render]
    public mutating func setFrequency(_ hertz: Double, sampleRate: Double) {
        increment = min(max(hertz, 0), sampleRate * 0.49) / sampleRate
    }

    /// Starts again from phase 0 (a new note).
    /// - Thread: [render]
    public mutating func restart() {
        phase = 0
    }

    /// The next sample, −1 ... 1.
    /// - Thread: [render]
    @inlinable
    public mutating func next() -> Float {
        let t = phase
        let dt = increment
        var value: Double
        switch waveform {
        case .sine:
            value = sin(2 * Double.pi * t)
        case .sawtooth:
            value = 2 * t - 1 - Oscillator.polyBLEP(t, dt)
        case .square:
            value = t < 0.5 ? 1 : -1
            value += Oscillator.polyBLEP(t, dt)
            var shifted = t + 0.5
            if shifted >= 1 { shifted -= 1 }
            value -= Oscillator.polyBLEP(shifted, dt)
        case .triangle:
            // Its harmonics fall as 1/n², so the plain shape aliases little.
            value = t < 0.5 ? 4 * t - 1 : 3 - 4 * t
        case .noise:
            noiseState ^= noiseState << 13
            noiseState ^= noiseState >> 17
            noiseState ^= noiseState << 5
            value = Double(noiseState) / Double(UInt32.max) * 2 - 1
        }
        phase += dt
        if phase >= 1 { phase -= 1 }
        return Float(value)
    }

    /// The PolyBLEP residual at phase `t` for a phase step `dt`.
    @inlinable
    static func polyBLEP(_ t: Double, _ dt: Double) -> Double {
        guard dt > 0 else { return 0 }
        if t < dt {
            let x = t / dt
            return x + x - x * x - 1
        }
        if t > 1 - dt {
            let x = (t - 1) / dt
            return x * x + x + x + 1
        }
        return 0
    }
}
