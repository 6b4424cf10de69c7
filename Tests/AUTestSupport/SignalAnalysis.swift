/// The lag (in frames, 0...maxLag) at which `delayed` best matches `reference`, by
/// cross-correlation over the frames both hold at every lag.
public func bestLag(_ delayed: [Float], _ reference: [Float], maxLag: Int) -> Int {
    let length = min(delayed.count - maxLag, reference.count)
    var best = (lag: 0, score: -Float.infinity)
    for lag in 0...maxLag {
        var score: Float = 0
        for index in 0..<length { score += delayed[index + lag] * reference[index] }
        if score > best.score { best = (lag, score) }
    }
    return best.lag
}

/// The root mean square of `samples` (0 for none).
public func rms(_ samples: ArraySlice<Float>) -> Float {
    (samples.reduce(0) { $0 + $1 * $1 } / Float(max(1, samples.count))).squareRoot()
}
