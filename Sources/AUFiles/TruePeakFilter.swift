/// The 4× oversampling interpolator of ITU-R BS.1770-4, Annex 2: a 48-tap FIR in four
/// phases of 12 taps; the largest magnitude of the four interpolated points per input
/// sample, over a channel, is its true peak.
///
/// One instance measures one channel; history carries over between blocks, so block
/// boundaries change nothing. ``flush()`` runs the last samples out through the filter.
/// - Thread: [control]; ``process(_:count:)`` does not allocate.
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
    /// Samples filtered per pass: the window holds `taps - 1` of history plus one chunk.
    static let chunk = 256

    /// The coefficients, reversed per phase so that they meet the window oldest first.
    private let coefficients: UnsafeMutablePointer<Float>
    /// The last `taps - 1` samples (oldest first), then the chunk being filtered.
    private let window: UnsafeMutablePointer<Float>
    /// One phase's interpolated points for the chunk, and the largest magnitude of each
    /// point over the four phases.
    private let sums: UnsafeMutablePointer<Float>
    private let largest: UnsafeMutablePointer<Float>
    /// The largest interpolated magnitude so far.
    private(set) var peak: Double = 0

    init() {
        coefficients = .allocate(capacity: 4 * Self.taps)
        for phase in 0..<4 {
            for k in 0..<Self.taps {
                (coefficients + phase * Self.taps + (Self.taps - 1 - k)).initialize(to: Float(Self.phases[phase][k]))
            }
        }
        window = .allocate(capacity: Self.taps - 1 + Self.chunk)
        window.initialize(repeating: 0, count: Self.taps - 1 + Self.chunk)
        sums = .allocate(capacity: Self.chunk)
        sums.initialize(repeating: 0, count: Self.chunk)
        largest = .allocate(capacity: Self.chunk)
        largest.initialize(repeating: 0, count: Self.chunk)
    }

    deinit {
        coefficients.deallocate()
        window.deallocate()
        sums.deallocate()
        largest.deallocate()
    }

    /// Runs `count` samples through the interpolator, a chunk at a time. Each phase is a
    /// loop over the chunk's points per tap (`sums[i] += c[k] · window[i + k]`), which
    /// vectorizes; the magnitudes are folded point by point, and reduced once per chunk.
    func process(_ samples: UnsafePointer<Float>, count: Int) {
        var done = 0
        while done < count {
            let frames = min(Self.chunk, count - done)
            (window + Self.taps - 1).update(from: samples + done, count: frames)
            filterChunk(frames)
            done += frames
        }
    }

    /// Runs 12 zeros through, so that the last real samples reach every tap.
    func flush() {
        (window + Self.taps - 1).update(repeating: 0, count: Self.taps)
        filterChunk(Self.taps)
    }

    /// Filters the `frames` new samples in the window and moves the history on.
    private func filterChunk(_ frames: Int) {
        largest.update(repeating: 0, count: frames)
        for phase in 0..<4 {
            let taps = coefficients + phase * Self.taps
            sums.update(repeating: 0, count: frames)
            for k in 0..<Self.taps {
                let coefficient = taps[k]
                let source = window + k
                for index in 0..<frames { sums[index] += coefficient * source[index] }
            }
            for index in 0..<frames {
                let magnitude = abs(sums[index])
                largest[index] = magnitude > largest[index] ? magnitude : largest[index]
            }
        }
        var chunkPeak: Float = 0
        for index in 0..<frames { chunkPeak = max(chunkPeak, largest[index]) }
        peak = max(peak, Double(chunkPeak))
        // Forward copy: the history moves down, never over samples still to be read.
        for index in 0..<(Self.taps - 1) { window[index] = window[frames + index] }
    }
}
