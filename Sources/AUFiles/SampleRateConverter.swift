import AUCore

/// The libsamplerate converter a ``SampleRateConverter`` uses.
/// - Thread: [any] (a plain value).
public enum SampleRateQuality: String, CaseIterable, Sendable {
    /// `SRC_SINC_BEST_QUALITY`: 97 dB SNR, 97% bandwidth; the default for offline work.
    case best
    /// `SRC_SINC_MEDIUM_QUALITY`: 97 dB SNR, 90% bandwidth, several times faster.
    case medium
    /// `SRC_SINC_FASTEST`: 97 dB SNR, 80% bandwidth.
    case fastest

    var converter: Int32 {
        switch self {
        case .best: SamplerateState.sincBest
        case .medium: SamplerateState.sincMedium
        case .fastest: SamplerateState.sincFastest
        }
    }
}

/// A streaming sample-rate converter for non-interleaved float blocks (libsamplerate, one
/// converter state per channel).
///
/// Feed blocks of any size with ``process(_:emit:)``; converted frames come back through
/// `emit` as they are ready (a view of an internal buffer, valid during the call). At the end,
/// ``finish(emit:)`` flushes the filter so that the whole output is exactly
/// `round(input frames × ratio)` frames, time-aligned with the input (libsamplerate's sinc
/// converters compensate their own delay). Equal rates pass samples through untouched.
/// The output buffer is allocated in `init`; processing does not allocate.
/// - Thread: [control] (the offline driver's thread); one converter per stream.
public final class SampleRateConverter {
    public let channels: Int
    public let inputRate: Double
    public let outputRate: Double
    /// `outputRate / inputRate`.
    public let ratio: Double
    public let quality: SampleRateQuality
    /// Input frames consumed so far.
    public private(set) var inputFrames = 0
    /// Output frames emitted so far.
    public private(set) var outputFrames = 0

    private let states: [SamplerateState]
    private let output: OwnedAudioBuffers
    private let silence = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var isFinished = false

    /// The output length for `frames` input frames: `round(frames × ratio)`.
    /// - Thread: [control]
    public func outputLength(forInputFrames frames: Int) -> Int {
        Int((Double(frames) * ratio).rounded())
    }

    /// - Parameter maxInputFrames: the usual block size; sizes the output buffer (larger
    ///   blocks work too, in several `emit` calls).
    /// - Thread: [control]
    public init(
        channels: Int, inputRate: Double, outputRate: Double, quality: SampleRateQuality = .best,
        maxInputFrames: Int = 4096
    ) throws(AudioUnitError) {
        precondition(channels > 0 && maxInputFrames > 0, "a converter needs channels and a block size")
        let ratio = outputRate / inputRate
        guard inputRate > 0, outputRate > 0, ratio.isFinite, SamplerateState.isValid(ratio: ratio) else {
            throw AudioUnitError(
                .formatNotSupported,
                "cannot convert \(inputRate) Hz to \(outputRate) Hz; expected positive rates at most 256 times apart")
        }
        var states: [SamplerateState] = []
        if ratio != 1 {
            for _ in 0..<channels {
                switch SamplerateState.make(converter: quality.converter) {
                case .success(let state): states.append(state)
                case .failure(let failure):
                    throw AudioUnitError(.failedInitialization, "cannot create a \(quality) sample-rate converter (libsamplerate: \(failure.message))")
                }
            }
        }
        self.channels = channels
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.ratio = ratio
        self.quality = quality
        self.states = states
        output = OwnedAudioBuffers(channels: channels, capacity: Int((Double(maxInputFrames) * ratio).rounded(.up)) + 64)
        silence.initialize(to: 0)
    }

    deinit { silence.deallocate() }

    /// Converts `input` (exactly ``channels`` channels) and emits what is ready.
    /// - Thread: [control]; allocation-free.
    public func process(
        _ input: AudioBuffers, emit: (AudioBuffers) throws(AudioUnitError) -> Void
    ) throws(AudioUnitError) {
        precondition(input.channelCount == channels, "\(input.channelCount) channels into a \(channels)-channel converter")
        guard !isFinished else { throw AudioUnitError(.cannotDoInCurrentContext, "sample-rate converter used after finish") }
        if states.isEmpty {
            inputFrames += input.frameCount
            outputFrames += input.frameCount
            if input.frameCount > 0 { try emit(input) }
            return
        }
        var offset = 0
        while offset < input.frameCount {
            let (used, generated) = try step(input: input, offset: offset, end: false)
            offset += used
            inputFrames += used
            if generated > 0 {
                outputFrames += generated
                try emit(output.buffers(frameCount: generated))
            }
            if used == 0 && generated == 0 {
                throw AudioUnitError(.invalidOfflineRender, "sample-rate converter made no progress at input frame \(inputFrames)")
            }
        }
    }

    /// Flushes the converter and emits the last frames, so that the total output is exactly
    /// ``outputLength(forInputFrames:)`` of the total input (trimmed, or padded with silence
    /// in the rare case libsamplerate ends a frame short).
    /// - Thread: [control]; allocation-free.
    public func finish(emit: (AudioBuffers) throws(AudioUnitError) -> Void) throws(AudioUnitError) {
        guard !isFinished else { return }
        isFinished = true
        let target = outputLength(forInputFrames: inputFrames)
        if !states.isEmpty {
            while outputFrames < target {
                let (_, generated) = try step(input: nil, offset: 0, end: true)
                guard generated > 0 else { break }
                let kept = min(generated, target - outputFrames)
                outputFrames += kept
                try emit(output.buffers(frameCount: kept))
            }
        }
        while outputFrames < target {
            let count = min(output.capacity, target - outputFrames)
            let padding = output.buffers(frameCount: count)
            padding.clear()
            outputFrames += count
            try emit(padding)
        }
    }

    /// One `src_process` per channel; every channel must use and make the same counts.
    private func step(input: AudioBuffers?, offset: Int, end: Bool) throws(AudioUnitError) -> (Int, Int) {
        var counts: (Int, Int)?
        for channel in 0..<channels {
            let source = input.map { UnsafePointer($0.channelPointers[channel] + offset) } ?? UnsafePointer(silence)
            let frames = input.map { $0.frameCount - offset } ?? 0
            switch states[channel].process(
                input: source, inputFrames: frames, output: output.buffers().channelPointers[channel],
                outputCapacity: output.capacity, ratio: ratio, endOfInput: end)
            {
            case .failure(let failure):
                throw AudioUnitError(.invalidOfflineRender, "sample-rate conversion \(inputRate) → \(outputRate) Hz failed (libsamplerate: \(failure.message))")
            case .success(let result):
                if let counts, counts != (result.used, result.generated) {
                    throw AudioUnitError(.invalidOfflineRender, "sample-rate converter channels went out of step")
                }
                counts = (result.used, result.generated)
            }
        }
        return counts ?? (0, 0)
    }
}
