import AUCore

/// Decides when an effect tail is over, for `--tail auto`: after the input has ended, the
/// output is rendered until every channel has stayed below the threshold (-90 dBFS by
/// default) for a whole window, or until a cap.
///
/// The quiet window is part of the tail (the output ends with it, as rendered); a tail
/// that never falls quiet (a self-oscillating delay) stops at the cap, which
/// ``endedAtCap`` reports so the caller can say so.
/// - Thread: [any]; ``accept(_:)`` does not allocate.
public struct TailDetector: Sendable {
    /// Linear threshold: a frame is loud when some channel's magnitude reaches it.
    public let threshold: Float
    public let windowFrames: Int
    public let capFrames: Int
    /// Tail frames accepted so far.
    public private(set) var tailFrames = 0
    /// Consecutive quiet frames at the end of what was accepted.
    public private(set) var quietFrames = 0
    public private(set) var isFinished = false
    public private(set) var endedAtCap = false

    /// - Thread: [any]
    public init(thresholdDBFS: Double = -90, windowFrames: Int, capFrames: Int) {
        precondition(windowFrames > 0 && capFrames >= 0, "a tail needs a window and a non-negative cap")
        threshold = Float(Decibels.toAmplitude(thresholdDBFS))
        self.windowFrames = windowFrames
        self.capFrames = capFrames
        isFinished = capFrames == 0
        endedAtCap = capFrames == 0
    }

    /// Window and cap in seconds (defaults: half a second quiet, at most 30 s of tail).
    /// - Thread: [any]
    public init(sampleRate: Double, thresholdDBFS: Double = -90, windowSeconds: Double = 0.5, capSeconds: Double = 30) {
        self.init(
            thresholdDBFS: thresholdDBFS, windowFrames: max(1, Int((windowSeconds * sampleRate).rounded())),
            capFrames: max(0, Int((capSeconds * sampleRate).rounded())))
    }

    /// Takes a block rendered after the input ended and returns how many of its frames
    /// belong to the tail: all of them until the tail is over, then the frames up to the
    /// end of the quiet window (or the cap), then 0.
    /// - Thread: [any]; allocation-free.
    public mutating func accept(_ buffers: AudioBuffers) -> Int {
        var accepted = 0
        while accepted < buffers.frameCount, !isFinished {
            var isLoud = false
            for channel in 0..<buffers.channelCount where abs(buffers.channelPointers[channel][accepted]) >= threshold {
                isLoud = true
                break
            }
            quietFrames = isLoud ? 0 : quietFrames + 1
            tailFrames += 1
            accepted += 1
            if quietFrames >= windowFrames {
                isFinished = true
            } else if tailFrames >= capFrames {
                isFinished = true
                endedAtCap = true
            }
        }
        return accepted
    }
}
