import AUCore

/// Renders audio at one rate (the source's) into buffers at another (the device's): it pulls
/// the source `chunkFrames` frames at a time at the source's rate and interpolates between
/// its frames (4-point, 3rd-order Hermite; no anti-aliasing filter, so content near the
/// source's Nyquist frequency folds when the device runs slower). What a device does with a
/// program, a render callback or a whole graph, at another rate than its own. All storage is
/// made on the control side: a render allocates, retains and locks nothing.
/// - Thread: [control] to make; ``render(into:pull:)`` on the render thread.
public final class PullResampler: @unchecked Sendable {
    /// Frames pulled from the source at a time.
    public static let chunkFrames = 64
    /// Source frames per device frame.
    private let step: Double
    private let channels: Int
    /// The last chunk pulled from the source (planar), and how much of it was used.
    private let chunk: OwnedAudioBuffers
    private var chunkUsed = PullResampler.chunkFrames
    /// Per channel, the four source frames around the position: x[-1], x[0], x[1], x[2].
    private let history: UnsafeMutablePointer<Float>
    /// Where the next device frame is, between x[0] (0) and x[1] (1).
    private var position = 0.0
    /// The source's sample time of the next chunk.
    private var sourceSampleTime = 0.0

    /// - Thread: [control]
    public init(sourceRate: Double, deviceRate: Double, channels: Int) {
        step = sourceRate / deviceRate
        self.channels = channels
        chunk = OwnedAudioBuffers(channels: channels, capacity: Self.chunkFrames)
        history = .allocate(capacity: max(1, channels * 4))
        history.initialize(repeating: 0, count: max(1, channels * 4))
    }

    deinit { history.deallocate() }

    /// Fills `output` (at the device's rate), pulling the source for each chunk it needs:
    /// `pull` renders ``chunkFrames`` frames at the source's rate into the buffers it is
    /// given, at the source's sample time it is given, and returns 0 or an error (the chunk
    /// is then silent and the error returned once `output` is full).
    /// - Thread: [render] No allocation, no lock.
    public func render(into output: AudioBuffers, pull: (AudioBuffers, Double) -> AudioUnitStatus) -> AudioUnitStatus {
        var status: AudioUnitStatus = 0
        for frame in 0..<output.frameCount {
            while position >= 1 {
                if chunkUsed == Self.chunkFrames {
                    let view = chunk.buffers(frameCount: Self.chunkFrames)
                    let pulled = pull(view, sourceSampleTime)
                    if pulled != 0 {
                        view.clear()
                        status = pulled
                    }
                    sourceSampleTime += Double(Self.chunkFrames)
                    chunkUsed = 0
                }
                advance()
                position -= 1
            }
            let t = Float(position)
            for channel in 0..<min(channels, output.channelCount) {
                let h = history + channel * 4
                let (xm1, x0, x1, x2) = (h[0], h[1], h[2], h[3])
                let c1 = 0.5 * (x1 - xm1)
                let c2 = xm1 - 2.5 * x0 + 2 * x1 - 0.5 * x2
                let c3 = 0.5 * (x2 - xm1) + 1.5 * (x0 - x1)
                output.channelPointers[channel][frame] = ((c3 * t + c2) * t + c1) * t + x0
            }
            for channel in channels..<max(channels, output.channelCount) { output.channelPointers[channel][frame] = 0 }
            position += step
        }
        return status
    }

    /// Moves every channel's history one source frame on.
    @inline(__always)
    private func advance() {
        let view = chunk.buffers(frameCount: Self.chunkFrames)
        for channel in 0..<channels {
            let h = history + channel * 4
            h[0] = h[1]
            h[1] = h[2]
            h[2] = h[3]
            h[3] = view.channelPointers[channel][chunkUsed]
        }
        chunkUsed += 1
    }
}
