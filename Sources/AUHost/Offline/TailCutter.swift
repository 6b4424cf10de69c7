import AUCore
import AUFiles

/// Decides, block by block, how many of the frames rendered after the input (and after
/// the chain's latency) belong to the output: a ``TailLength`` applied at the chain's rate.
/// - Thread: [control] (the offline loop); ``accept(_:)`` does not allocate.
struct TailCutter {
    /// Tail frames kept so far.
    private(set) var frames = 0
    private(set) var isFinished: Bool
    /// True when `auto` gave up at its cap with the output still above the threshold.
    var endedAtCap: Bool { detector?.endedAtCap ?? false }

    /// Kept whatever they sound like (the fixed length, or auto's reported minimum).
    private let minimumFrames: Int
    /// Auto's quiet-window detector, fed once the minimum is kept.
    private var detector: TailDetector?

    /// - Parameter reportedTail: the chain's TailTime in seconds (may be infinite).
    init(_ length: TailLength, sampleRate: Double, reportedTail: Double) {
        switch length {
        case .seconds(let seconds):
            minimumFrames = TailLength.frames(seconds, sampleRate: sampleRate)
            detector = nil
        case .auto:
            let reported = TailLength.usableReportedTail(reportedTail)
            let cap = length.longestSeconds(reportedTail: reportedTail)
            minimumFrames = TailLength.frames(reported, sampleRate: sampleRate)
            detector = TailDetector(
                thresholdDBFS: TailLength.quietThresholdDBFS,
                windowFrames: TailLength.quietWindowFrames(sampleRate: sampleRate),
                capFrames: max(1, TailLength.frames(cap, sampleRate: sampleRate) - minimumFrames))
        }
        isFinished = minimumFrames == 0 && detector == nil
    }

    /// Takes a block of the chain's output past the input's end; returns how many of its
    /// leading frames to keep (all of them until the tail is over).
    mutating func accept(_ block: AudioBuffers) -> Int {
        guard !isFinished else { return 0 }
        let fixed = min(block.frameCount, max(0, minimumFrames - frames))
        frames += fixed
        guard fixed < block.frameCount else {
            if frames == minimumFrames, detector == nil { isFinished = true }
            return fixed
        }
        guard var detector else {
            isFinished = true
            return fixed
        }
        let rest = withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>.self, capacity: block.channelCount) { pointers in
            detector.accept(block.window(from: fixed, count: block.frameCount - fixed, pointers: pointers))
        }
        isFinished = detector.isFinished
        self.detector = detector
        frames += rest
        return fixed + rest
    }
}
