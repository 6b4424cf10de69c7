import Glibc
import AUPluginSDK

/// The filter shapes of the RBJ Audio EQ Cookbook.
/// - Thread: any.
enum FilterShape: Int, CaseIterable {
    case peak = 0, lowShelf, highShelf, lowPass, highPass, bandPass, notch

    static let names = ["Peak", "Low Shelf", "High Shelf", "Low Pass", "High Pass", "Band Pass", "Notch"]
}

/// A biquad's normalised coefficients (a0 = 1), designed from the RBJ Audio EQ Cookbook
/// (Robert Bristow-Johnson): shelves and peaks take a gain, all take a Q.
/// - Thread: any (a plain value; designing calls sin/cos/pow, no allocation).
struct BiquadCoefficients: Equatable {
    var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0

    static let identity = BiquadCoefficients()

    init() {}

    init(shape: FilterShape, frequency: Double, gainDecibels: Double, q: Double, sampleRate: Double) {
        let f0 = min(max(frequency, 1), sampleRate * 0.49)
        let w0 = 2 * Double.pi * f0 / sampleRate
        let cosW = cos(w0), sinW = sin(w0)
        let alpha = sinW / (2 * max(q, 0.01))
        let a = pow(10, gainDecibels / 40)
        var b0 = 1.0, b1 = 0.0, b2 = 0.0, a0 = 1.0, a1 = 0.0, a2 = 0.0
        switch shape {
        case .peak:
            b0 = 1 + alpha * a; b1 = -2 * cosW; b2 = 1 - alpha * a
            a0 = 1 + alpha / a; a1 = -2 * cosW; a2 = 1 - alpha / a
        case .lowShelf:
            let k = 2 * a.squareRoot() * alpha
            b0 = a * ((a + 1) - (a - 1) * cosW + k)
            b1 = 2 * a * ((a - 1) - (a + 1) * cosW)
            b2 = a * ((a + 1) - (a - 1) * cosW - k)
            a0 = (a + 1) + (a - 1) * cosW + k
            a1 = -2 * ((a - 1) + (a + 1) * cosW)
            a2 = (a + 1) + (a - 1) * cosW - k
        case .highShelf:
            let k = 2 * a.squareRoot() * alpha
            b0 = a * ((a + 1) + (a - 1) * cosW + k)
            b1 = -2 * a * ((a - 1) + (a + 1) * cosW)
            b2 = a * ((a + 1) + (a - 1) * cosW - k)
            a0 = (a + 1) - (a - 1) * cosW + k
            a1 = 2 * ((a - 1) - (a + 1) * cosW)
            a2 = (a + 1) - (a - 1) * cosW - k
        case .lowPass:
            b0 = (1 - cosW) / 2; b1 = 1 - cosW; b2 = (1 - cosW) / 2
            a0 = 1 + alpha; a1 = -2 * cosW; a2 = 1 - alpha
        case .highPass:
            b0 = (1 + cosW) / 2; b1 = -(1 + cosW); b2 = (1 + cosW) / 2
            a0 = 1 + alpha; a1 = -2 * cosW; a2 = 1 - alpha
        case .bandPass:
            b0 = alpha; b1 = 0; b2 = -alpha
            a0 = 1 + alpha; a1 = -2 * cosW; a2 = 1 - alpha
        case .notch:
            b0 = 1; b1 = -2 * cosW; b2 = 1
            a0 = 1 + alpha; a1 = -2 * cosW; a2 = 1 - alpha
        }
        self.b0 = b0 / a0
        self.b1 = b1 / a0
        self.b2 = b2 / a0
        self.a1 = a1 / a0
        self.a2 = a2 / a0
    }
}

/// One biquad section's running state (transposed direct form II, in Double).
/// - Thread: render.
struct BiquadState {
    var z1 = 0.0, z2 = 0.0

    @inline(__always)
    mutating func process(_ x: Double, _ c: BiquadCoefficients) -> Double {
        let y = c.b0 * x + z1
        z1 = flushDenormal(c.b1 * x - c.a1 * y + z2)
        z2 = flushDenormal(c.b2 * x - c.a2 * y)
        return y
    }
}
