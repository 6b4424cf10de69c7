/// The 4× oversampling interpolator of ITU-R BS.1770-4, Annex 2: a 48-tap FIR in four
/// phases of 12 taps; the largest magnitude of the four interpolated points per input
/// sample, over a channel, is its true peak.
///
/// One instance measures one channel; history carries over between blocks, so block
/// boundaries change nothing. ``flush()`` runs the last samples out through the filter.
/// - Thread: control; ``process(_:count:)`` does not allocate.
final class TruePeakFilter {
    /// Annex 2's phases, `y[4n+p] = Σ_k phase[p][k] · x[n−k]`.
    static let phases: [[Double]] = [
        [0.0017089843750, 0.0109863281250, -0.0196533203125, 0.0332031250000, -0.0594482421875, 0.1373291015625,
         0.9721679687500, -0.1022949218750, 0.0476074218750, -0.0266113281250, 0.0148925781250, -0.0083007812500],
        [-0.0291748046875, 0.0292968750000, -0.0517578125000, 0.0891113281250, -0.1665039062500, 0.4650878906250,
         0.7797851562500, -0.2003173828125, 0.1015625000000, -0.0582275390625, 0.0330810546875, -0.0189208984375],
        [-0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625000000, -0.2003173828125, 0.7797851562500,
         0.4650878906250, -0.1665039062500, 0.0891113281250, -0.0517578125000, 0.0292968750000, -0.0291748046875],
        [-0.0083007812500, 0.0148925781250, -0.0266113281250, 0.0476074218750, -0.1022949218750, 0.9721679687500,
         0.1373291015625, -0.0594482421875, 0.0332031250000, -0.0196533203125, 0.0109863281250, 0.0017089843750],
    ]
    static let taps = 12

    /// The coefficients, reversed per phase so that they meet the history oldest first.
    private let coefficients: UnsafeMutablePointer<Double>
    /// The last 12 samples, written twice (at `position` and `position + 12`) so that the
    /// window ending at the newest sample is always contiguous.
    private let history: UnsafeMutablePointer<Double>
    private var position = 0
    /// The largest interpolated magnitude so far.
    private(set) var peak: Double = 0

    init() {
        coefficients = .allocate(capacity: 4 * Self.taps)
        for phase in 0..<4 {
            for k in 0..<Self.taps {
                (coefficients + phase * Self.taps + (Self.taps - 1 - k)).initialize(to: Self.phases[phase][k])
            }
        }
        history = .allocate(capacity: 2 * Self.taps)
        history.initialize(repeating: 0, count: 2 * Self.taps)
    }

    deinit {
        coefficients.deallocate()
        history.deallocate()
    }

    /// Runs `count` samples through the interpolator.
    func process(_ samples: UnsafePointer<Float>, count: Int) {
        for index in 0..<count { push(Double(samples[index])) }
    }

    /// Runs 12 zeros through, so that the last real samples reach every tap.
    func flush() {
        for _ in 0..<Self.taps { push(0) }
    }

    @inline(__always)
    private func push(_ sample: Double) {
        position = position == Self.taps - 1 ? 0 : position + 1
        history[position] = sample
        history[position + Self.taps] = sample
        // Oldest first: x[n-11] ... x[n].
        let window = history + position + 1
        var largest = peak
        for phase in 0..<4 {
            let taps = coefficients + phase * Self.taps
            var sum: Double = 0
            for k in 0..<Self.taps { sum += taps[k] * window[k] }
            largest = max(largest, abs(sum))
        }
        peak = largest
    }
}
