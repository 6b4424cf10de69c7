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

/// The median interval, in frames, between `samples`' rising zero crossings (interpolated
/// between frames); nil with fewer than `minimumCount` intervals. A live recording cut by an
/// xrun (a period the recorder missed) spoils the one or two intervals around the cut, never
/// the median: what a count of crossings over the whole recording would not survive.
public func medianRisingPeriod(_ samples: ArraySlice<Float>, minimumCount: Int = 5) -> Double? {
    var crossings: [Double] = []
    for index in (samples.startIndex + 1)..<samples.endIndex where samples[index - 1] < 0 && samples[index] >= 0 {
        crossings.append(Double(index - 1) + Double(-samples[index - 1] / (samples[index] - samples[index - 1])))
    }
    let periods: [Double] = zip(crossings.dropFirst(), crossings).map { $0 - $1 }.sorted()
    return periods.count >= minimumCount ? periods[periods.count / 2] : nil
}
