import Foundation

/// A stretch of rendered audio under a Hann window, and the measures the sampler's tests
/// make on it. The transform is evaluated at any frequency (the discrete-time Fourier
/// transform), not only at FFT bins.
struct Spectrum {
    let windowed: [Double]
    let sampleRate: Double

    init(_ samples: ArraySlice<Float>, sampleRate: Double) {
        let count = samples.count
        windowed = samples.enumerated().map { index, sample in
            (0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(count - 1))) * Double(sample)
        }
        self.sampleRate = sampleRate
    }

    /// The transform's magnitude at `frequency` Hz.
    func magnitude(at frequency: Double) -> Double {
        let step = 2 * Double.pi * frequency / sampleRate
        let rotationCos = cos(step), rotationSin = sin(step)
        var phasorRe = 1.0, phasorIm = 0.0, sumRe = 0.0, sumIm = 0.0
        for value in windowed {
            sumRe += value * phasorRe
            sumIm -= value * phasorIm
            (phasorRe, phasorIm) = (phasorRe * rotationCos - phasorIm * rotationSin, phasorRe * rotationSin + phasorIm * rotationCos)
        }
        return (sumRe * sumRe + sumIm * sumIm).squareRoot()
    }

    /// The frequency of the strongest peak in `range`: a scan in `scanStep` Hz steps, then a
    /// golden-section search of the magnitude around the best step down to 0.0001 Hz. A 2 s
    /// window's main lobe is 2 Hz wide, so a 0.25 Hz scan cannot step over it, and the
    /// search converges on the lobe's true maximum.
    func peakFrequency(in range: ClosedRange<Double>, scanStep: Double = 0.25) -> Double {
        let steps = Int((range.upperBound - range.lowerBound) / scanStep)
        let scan = (0...steps).map { range.lowerBound + Double($0) * scanStep }.map { ($0, magnitude(at: $0)) }
        let best = scan.max { $0.1 < $1.1 }!.0
        var low = best - scanStep, high = best + scanStep
        let ratio = (5.0.squareRoot() - 1) / 2
        while high - low > 0.0001 {
            let a = high - ratio * (high - low), b = low + ratio * (high - low)
            if magnitude(at: a) < magnitude(at: b) { low = a } else { high = b }
        }
        return (low + high) / 2
    }

    /// The level in dB of each of the first `count` partials of a tone at `fundamental` Hz
    /// (the strongest magnitude within ±3 % of k × fundamental, so that a piano's stretched
    /// partials are found), relative to the strongest partial.
    func partialLevels(fundamental: Double, count: Int) -> [Double] {
        let levels = (1...count).map { harmonic -> Double in
            let centre = fundamental * Double(harmonic)
            let strongest = stride(from: centre * 0.97, through: centre * 1.03, by: 0.5).map { magnitude(at: $0) }.max()!
            return 20 * log10(max(strongest, 1e-12))
        }
        let top = levels.max()!
        return levels.map { $0 - top }
    }

    /// Spectral flatness, the geometric over the arithmetic mean of the power at `count`
    /// frequencies evenly spaced from `low` to `high` Hz: near 1 for white noise, near 0
    /// for a tone with a few partials.
    func flatness(from low: Double, to high: Double, count: Int) -> Double {
        let powers = (0..<count).map { index -> Double in
            let value = magnitude(at: low + (high - low) * Double(index) / Double(count - 1))
            return max(value * value, 1e-30)
        }
        let logMean = powers.reduce(0) { $0 + log($1) } / Double(count)
        return exp(logMean) / (powers.reduce(0, +) / Double(count))
    }

    /// The distance from `reference` to `frequency` in cents.
    static func cents(_ frequency: Double, from reference: Double) -> Double {
        1200 * log2(frequency / reference)
    }
}
