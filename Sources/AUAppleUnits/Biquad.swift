import Foundation

// One second-order section (the Audio EQ Cookbook's biquads), as Apple's filters and
// AUNBandEQ's bands use it: the design of each shape at a frequency, Q and gain, and the
// run over a block in transposed direct form II with a state of two floats per channel.

/// A normalized biquad: y = b0 x + b1 x₋₁ + b2 x₋₂ − a1 y₋₁ − a2 y₋₂.
struct Biquad: Equatable {
    var b0: Float = 1, b1: Float = 0, b2: Float = 0, a1: Float = 0, a2: Float = 0

    enum Shape { case lowPass, highPass, bandPass, notch, peaking, lowShelf, highShelf }

    /// Q of a slope-1 shelf and of a Butterworth section.
    static let butterworthQ = 1 / Float(2).squareRoot()

    /// The angular frequency of `frequency` at `rate`, frequencies above 0.49 × the rate held there.
    static func omega(_ frequency: Float, rate: Float) -> Float { 2 * Float.pi * min(frequency, 0.49 * rate) / rate }

    /// The Q of a band `octaves` wide at `omega` (the cookbook's bandwidth in octaves).
    static func q(octaves: Float, omega: Float) -> Float {
        1 / (2 * sinhf(logf(2) / 2 * max(octaves, 0.001) * omega / sinf(omega)))
    }

    /// The section of `shape` at `omega` with `q` and a gain in dB (peaking and shelves).
    init(_ shape: Shape, omega: Float, q: Float, gain: Float = 0) {
        let cosine = cosf(omega), alpha = sinf(omega) / (2 * max(q, 0.001))
        let a = powf(10, gain / 40)
        var b: (Float, Float, Float), den: (Float, Float, Float)
        switch shape {
        case .lowPass, .highPass:
            let sign: Float = shape == .lowPass ? 1 : -1
            let edge = (1 - sign * cosine) / 2
            b = (edge, sign * (1 - sign * cosine), edge)
            den = (1 + alpha, -2 * cosine, 1 - alpha)
        case .bandPass:
            b = (alpha, 0, -alpha)
            den = (1 + alpha, -2 * cosine, 1 - alpha)
        case .notch:
            b = (1, -2 * cosine, 1)
            den = (1 + alpha, -2 * cosine, 1 - alpha)
        case .peaking:
            b = (1 + alpha * a, -2 * cosine, 1 - alpha * a)
            den = (1 + alpha / a, -2 * cosine, 1 - alpha / a)
        case .lowShelf, .highShelf:
            let s: Float = shape == .lowShelf ? 1 : -1
            let root = 2 * a.squareRoot() * alpha
            b = (a * ((a + 1) - s * (a - 1) * cosine + root), 2 * s * a * ((a - 1) - s * (a + 1) * cosine),
                 a * ((a + 1) - s * (a - 1) * cosine - root))
            den = ((a + 1) + s * (a - 1) * cosine + root, -2 * s * ((a - 1) + s * (a + 1) * cosine), (a + 1) + s * (a - 1) * cosine - root)
        }
        (b0, b1, b2, a1, a2) = (b.0 / den.0, b.1 / den.0, b.2 / den.0, den.1 / den.0, den.2 / den.0)
    }

    init() {}

    /// Filters `frames` samples from `source` into `destination` (they may be the same),
    /// carrying `state` (z1, z2) across calls; a state below 1e-30 is flushed to 0 (no denormals).
    /// - Thread: [render]
    func run(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Float>, _ frames: Int, _ state: UnsafeMutablePointer<Float>) {
        var z1 = state[0], z2 = state[1]
        for frame in 0..<frames {
            let x = source[frame]
            let y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            destination[frame] = y
        }
        state[0] = abs(z1) < 1e-30 ? 0 : z1
        state[1] = abs(z2) < 1e-30 ? 0 : z2
    }
}
