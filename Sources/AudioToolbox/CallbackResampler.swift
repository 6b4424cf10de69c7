internal import AUCore

// A standalone output unit on JACK whose program sets another sample rate than the server's:
// the unit renders at the server's rate and this resampler pulls the program's render
// callback at the program's rate, 64 frames at a time, and interpolates between its frames
// (4-point, 3rd-order Hermite; no anti-aliasing filter, so content near the program's Nyquist
// frequency folds when it plays at a lower rate). All storage is made on the control side:
// the render allocates, retains and locks nothing of its own.

/// The program's callback at the program's rate, turned into the engine's callback at the
/// device's.
/// - Thread: [control] to make; ``render(_:_:_:_:)`` on the render thread.
final class CallbackResampler: @unchecked Sendable {
    static let chunkFrames = 64
    private let callback: CRenderCallback
    /// Program frames per device frame.
    private let step: Double
    private let channels: Int
    /// The last chunk pulled from the program (planar), and how much of it was used.
    private let chunk: OwnedAudioBuffers
    private var chunkUsed = CallbackResampler.chunkFrames
    /// Per channel, the four program frames around the position: x[-1], x[0], x[1], x[2].
    private let history: UnsafeMutablePointer<Float>
    /// Where the next device frame is, between x[0] (0) and x[1] (1).
    private var position = 0.0
    private var programSampleTime = 0.0

    init(_ callback: AURenderCallbackStruct, storage: CallbackStorage, programRate: Double, deviceRate: Double, channels: Int) {
        self.callback = CRenderCallback(callback, storage: storage)
        step = programRate / deviceRate
        self.channels = channels
        chunk = OwnedAudioBuffers(channels: channels, capacity: Self.chunkFrames)
        history = .allocate(capacity: channels * 4)
        history.initialize(repeating: 0, count: channels * 4)
    }

    deinit { history.deallocate() }

    /// The engine's callback.
    var engineCallback: RenderCallback {
        let resampler = Unmanaged.passUnretained(self)
        return RenderCallback { flags, timestamp, bus, buffers in
            resampler._withUnsafeGuaranteedRef { $0.render(&flags, timestamp, bus, buffers) }
        }
    }

    /// Moves every channel's history one program frame on, pulling a chunk when the last is used.
    /// - Thread: [render]
    private func advance(_ flags: inout RenderFlags, _ hostTime: UInt64, _ bus: Element) -> AudioUnitStatus {
        if chunkUsed == Self.chunkFrames {
            let view = chunk.buffers(frameCount: Self.chunkFrames)
            let status = callback.call(&flags, RenderTimestamp(sampleTime: programSampleTime, hostTime: hostTime), bus, view)
            if status != 0 { view.clear() }
            programSampleTime += Double(Self.chunkFrames)
            chunkUsed = 0
        }
        let view = chunk.buffers(frameCount: Self.chunkFrames)
        for channel in 0..<channels {
            let h = history + channel * 4
            h[0] = h[1]
            h[1] = h[2]
            h[2] = h[3]
            h[3] = view.channelPointers[channel][chunkUsed]
        }
        chunkUsed += 1
        return 0
    }

    /// - Thread: [render]
    func render(_ flags: inout RenderFlags, _ timestamp: RenderTimestamp, _ bus: Element, _ output: AudioBuffers) -> AudioUnitStatus {
        for frame in 0..<output.frameCount {
            while position >= 1 {
                let status = advance(&flags, timestamp.hostTime, bus)
                if status != 0 { return status }
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
            position += step
        }
        return 0
    }
}
