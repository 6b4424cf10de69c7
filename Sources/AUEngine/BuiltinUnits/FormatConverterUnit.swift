import AUCore

/// `aufc:conv:AUHs`: the format converter (Core Audio's AUConverter).
///
/// In a graph it converts channel layouts: up-mix (mono to every output channel; other
/// extra channels silent) and down-mix (to mono: the mean of every input channel; to fewer
/// channels: output channel `c` is the mean of input channels `c`, `c + M`, `c + 2M`…; or,
/// with ``downmixesAtEqualPower``, their sum times 1/√n).
/// Both buses have the same sample rate: every node of a graph renders the same frames per
/// cycle, and sample-rate conversion belongs to the file driver (AUFiles'
/// `SampleRateConverter`).
///
/// At the graph's edge (files, devices) ``convert(_:frameCount:into:capacity:)`` also changes
/// the sample format: any linear PCM format ``SampleConverter`` reads or writes on either bus
/// (interleaved or not, 16-bit integer, 8.24 fixed point, float).
/// - Thread: [control] for set-up; ``process(_:)`` and ``convert(_:frameCount:into:capacity:)``
///   on the render thread (or the one thread that drives an offline conversion).
public final class FormatConverterUnit: AudioUnit, @unchecked Sendable {
    /// What ``convert(_:frameCount:into:capacity:)`` did.
    /// - Thread: [control]
    public struct Conversion: Sendable, Equatable {
        /// Input frames read (the rest must be passed again).
        public var consumed: Int
        /// Output frames written.
        public var produced: Int
        /// - Thread: [control]
        public init(consumed: Int, produced: Int) {
            self.consumed = consumed
            self.produced = produced
        }
    }

    private var decoder: SampleConverter?
    private var encoder: SampleConverter?
    private var chunk = 0
    /// Planar scratch: decoded input, then mixed.
    private var decoded: OwnedAudioBuffers?
    private var mixed: OwnedAudioBuffers?
    private var rawOutput: UnsafeMutablePointer<UnsafeMutableRawPointer>?
    private var rawInput: UnsafeMutablePointer<UnsafeRawPointer>?
    /// Whether a down-mix sums at equal power (each folded channel times 1/√n: stereo to
    /// mono is the sum at -3 dB) rather than taking the mean (-6 dB); set before initialize.
    /// The converters a chain inserts by itself do.
    /// - Thread: [control & uninitialized]
    public var downmixesAtEqualPower = false

    init(description: ComponentDescription) {
        super.init(
            description: description, name: "Format Converter", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }

    /// Any linear PCM format ``SampleConverter`` handles, on either bus.
    /// - Thread: [control]
    public override func validateFormat(_ format: StreamFormat, scope: Scope, element: Element) throws(AudioUnitError) {
        _ = try SampleConverter(format: format)
    }

    /// Refuses buses of two sample rates: the converter does not resample.
    /// - Thread: [control]
    public override func allocateRenderResources() throws(AudioUnitError) {
        let input = formats(.input)[0], output = formats(.output)[0]
        guard input.sampleRate == output.sampleRate else {
            throw AudioUnitError(
                .formatNotSupported,
                "\(name) converts \(input.sampleRate) Hz to \(output.sampleRate) Hz; expected one sample rate on both buses (AUFiles' SampleRateConverter resamples)")
        }
        decoder = try SampleConverter(format: input)
        encoder = try SampleConverter(format: output)
        var frames = 4096
        try? frames = value(of: .maximumFramesPerSlice)
        chunk = frames
        decoded = OwnedAudioBuffers(channels: input.channelsPerFrame, capacity: chunk)
        mixed = OwnedAudioBuffers(channels: output.channelsPerFrame, capacity: chunk)
        rawOutput = .allocate(capacity: max(1, output.channelsPerFrame))
        rawInput = .allocate(capacity: max(1, input.channelsPerFrame))
    }

    /// - Thread: [control]
    public override func deallocateRenderResources() {
        rawOutput?.deallocate()
        rawInput?.deallocate()
        rawOutput = nil
        rawInput = nil
        decoded = nil
        mixed = nil
        decoder = nil
        encoder = nil
    }

    /// Remixes `frames` frames of `input` channels into `output` channels.
    /// - Thread: [render]
    static func remix(_ input: AudioBuffers, into output: AudioBuffers, frames: Int, equalPower: Bool = false) {
        let inCount = input.channelCount, outCount = output.channelCount
        for channel in 0..<outCount {
            let target = output.channelPointers[channel]
            if inCount == 1 {
                target.update(from: input.channelPointers[0], count: frames)
            } else if inCount < outCount {
                if channel < inCount { target.update(from: input.channelPointers[channel], count: frames) } else { target.update(repeating: 0, count: frames) }
            } else {
                // Same count, fewer (fold channels c, c + M, …) or mono (all of them): the mean.
                target.update(from: input.channelPointers[channel], count: frames)
                var contributors = 1
                var source = channel + outCount
                while source < inCount {
                    let samples = input.channelPointers[source]
                    for frame in 0..<frames { target[frame] += samples[frame] }
                    contributors += 1
                    source += outCount
                }
                if contributors > 1 {
                    let scale = equalPower ? 1 / Float(contributors).squareRoot() : 1 / Float(contributors)
                    for frame in 0..<frames { target[frame] *= scale }
                }
            }
        }
    }

    /// - Thread: [render] No allocation, no lock.
    public override func process(_ context: ProcessContext) -> AudioUnitStatus {
        Self.remix(context.inputs[0], into: context.outputs[0], frames: context.frameCount, equalPower: downmixesAtEqualPower)
        return 0
    }

    /// Converts up to `frameCount` frames of raw input (in the input bus's format: one buffer
    /// when interleaved, else one per channel) into raw output (the output bus's format),
    /// writing at most `capacity` frames. Remixes channels and converts sample formats.
    /// Returns what it read and wrote; input it did not read (when the output filled up) is
    /// to be passed again.
    /// - Thread: [render] (no allocation, no lock); requires an initialized unit.
    public func convert(_ input: UnsafeBufferPointer<UnsafeRawPointer>, frameCount: Int, into output: UnsafeBufferPointer<UnsafeMutableRawPointer>, capacity: Int) -> Conversion {
        RenderThread.run {
            guard state == .initialized, let decoder, let encoder, let decoded, let mixed, let rawOutput, let rawInput else {
                return Conversion(consumed: 0, produced: 0)
            }
            let inputFormat = decoder.format, outputFormat = encoder.format
            var consumed = 0
            var produced = 0
            while consumed < frameCount && produced < capacity {
                // Point raw views at the unread input and the unwritten output.
                for buffer in 0..<decoder.bufferCount { rawInput[buffer] = input[buffer] + consumed * inputFormat.bytesPerFrame }
                for buffer in 0..<encoder.bufferCount {
                    rawOutput[buffer] = output[buffer] + produced * outputFormat.bytesPerFrame
                }
                let inputView = UnsafeBufferPointer(start: UnsafePointer(rawInput), count: decoder.bufferCount)
                let outputView = UnsafeBufferPointer(start: UnsafePointer(rawOutput), count: encoder.bufferCount)
                let frames = min(chunk, frameCount - consumed, capacity - produced)
                decoder.decode(inputView, frameCount: frames, into: decoded.buffers(frameCount: frames))
                Self.remix(decoded.buffers(frameCount: frames), into: mixed.buffers(frameCount: frames), frames: frames)
                encoder.encode(mixed.buffers(frameCount: frames), frameCount: frames, into: outputView)
                consumed += frames
                produced += frames
            }
            return Conversion(consumed: consumed, produced: produced)
        }
    }
}
