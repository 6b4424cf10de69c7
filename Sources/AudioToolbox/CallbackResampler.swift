internal import AUCore
internal import AUEngine

// A standalone output unit on JACK whose program sets another sample rate than the server's:
// the unit renders at the server's rate and the engine's PullResampler pulls the program's
// render callback at the program's rate, 64 frames at a time.

/// The program's callback at the program's rate, turned into the engine's callback at the
/// device's.
/// - Thread: [control] to make; the engine callback on the render thread.
final class CallbackResampler: @unchecked Sendable {
    static let chunkFrames = PullResampler.chunkFrames
    private let callback: CRenderCallback
    private let resampler: PullResampler

    init(_ callback: AURenderCallbackStruct, storage: CallbackStorage, programRate: Double, deviceRate: Double, channels: Int) {
        self.callback = CRenderCallback(callback, storage: storage)
        resampler = PullResampler(sourceRate: programRate, deviceRate: deviceRate, channels: channels)
    }

    /// The engine's callback.
    var engineCallback: RenderCallback {
        let resampler = Unmanaged.passUnretained(self)
        return RenderCallback { flags, timestamp, bus, buffers in
            resampler._withUnsafeGuaranteedRef { $0.render(&flags, timestamp, bus, buffers) }
        }
    }

    /// Fills `output` at the device's rate; a chunk the program's callback fails is silent.
    /// - Thread: [render]
    private func render(_ flags: inout RenderFlags, _ timestamp: RenderTimestamp, _ bus: Element, _ output: AudioBuffers) -> AudioUnitStatus {
        _ = resampler.render(into: output) { chunk, sampleTime in
            callback.call(&flags, RenderTimestamp(sampleTime: sampleTime, hostTime: timestamp.hostTime), bus, chunk)
        }
        return 0
    }
}
