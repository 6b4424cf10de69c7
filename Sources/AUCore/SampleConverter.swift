/// Converts samples between a linear PCM ``StreamFormat`` (float, integer or fixed point,
/// interleaved or not) and the canonical non-interleaved float layout.
///
/// Integers map full scale to ±1.0 (`Int16.min` is -1.0); fixed point keeps its fraction bits
/// (8.24: 1.0 is 1 << 24). Float to integer rounds to nearest and clamps.
/// - Thread: [any]; `decode` and `encode` neither allocate nor lock (render-safe).
public struct SampleConverter: Sendable {
    public let format: StreamFormat
    private let bytesPerSample: Int
    private let scale: Float

    /// - Thread: [any]
    public init(format: StreamFormat) throws(AudioUnitError) {
        try format.validate()
        self.format = format
        bytesPerSample = (format.bitsPerChannel + 7) / 8
        if format.isFloat {
            scale = 1
        } else if format.formatFlags.fractionBits > 0 {
            scale = Float(1 << format.formatFlags.fractionBits)
        } else {
            scale = Float(1 << (format.bitsPerChannel - 1))
        }
    }

    /// How many raw buffers the format has: one when interleaved, else one per channel.
    /// - Thread: [any]
    public var bufferCount: Int { format.isInterleaved ? 1 : format.channelsPerFrame }

    /// Where sample (`frame`, `channel`) sits: which raw buffer and at what byte offset.
    @inline(__always)
    private func location(frame: Int, channel: Int) -> (buffer: Int, offset: Int) {
        format.isInterleaved
            ? (0, frame * format.bytesPerFrame + channel * bytesPerSample)
            : (channel, frame * bytesPerSample)
    }

    /// Reads `frameCount` frames from `raw` (``bufferCount`` buffers) into `output`.
    /// - Thread: [any]
    public func decode(_ raw: UnsafeBufferPointer<UnsafeRawPointer>, frameCount: Int, into output: AudioBuffers) {
        let channels = Swift.min(format.channelsPerFrame, output.channelCount)
        for channel in 0..<channels {
            let samples = output.channelPointers[channel]
            for frame in 0..<frameCount {
                let (buffer, offset) = location(frame: frame, channel: channel)
                samples[frame] = read(raw[buffer] + offset)
            }
        }
    }

    /// Writes `frameCount` frames of `input` into `raw` (``bufferCount`` buffers).
    /// - Thread: [any]
    public func encode(_ input: AudioBuffers, frameCount: Int, into raw: UnsafeBufferPointer<UnsafeMutableRawPointer>) {
        for channel in 0..<format.channelsPerFrame {
            let source: UnsafeMutablePointer<Float>? = channel < input.channelCount ? input.channelPointers[channel] : nil
            for frame in 0..<frameCount {
                let (buffer, offset) = location(frame: frame, channel: channel)
                write(source?[frame] ?? 0, to: raw[buffer] + offset)
            }
        }
    }

    @inline(__always)
    private func read(_ pointer: UnsafeRawPointer) -> Float {
        if format.isFloat {
            return bytesPerSample == 4
                ? pointer.loadUnaligned(as: Float.self)
                : Float(pointer.loadUnaligned(as: Double.self))
        }
        let value: Int32
        switch bytesPerSample {
        case 1: value = Int32(pointer.load(as: UInt8.self)) - 128
        case 2: value = Int32(pointer.loadUnaligned(as: Int16.self))
        case 3:
            let bytes = Int32(pointer.load(fromByteOffset: 0, as: UInt8.self))
                | Int32(pointer.load(fromByteOffset: 1, as: UInt8.self)) << 8
                | Int32(pointer.load(fromByteOffset: 2, as: UInt8.self)) << 16
            value = (bytes << 8) >> 8
        default: value = pointer.loadUnaligned(as: Int32.self)
        }
        return Float(value) / scale
    }

    @inline(__always)
    private func write(_ sample: Float, to pointer: UnsafeMutableRawPointer) {
        if format.isFloat {
            if bytesPerSample == 4 {
                pointer.storeBytes(of: sample, as: Float.self)
            } else {
                pointer.storeBytes(of: Double(sample), as: Double.self)
            }
            return
        }
        let limit = format.formatFlags.fractionBits > 0
            ? Double(Int32.max >> (32 - format.bitsPerChannel))
            : Double(scale) - 1
        let scaled = (Double(sample.isNaN ? 0 : sample) * Double(scale)).rounded()
        let value = Int32(Swift.max(-limit - 1, Swift.min(limit, scaled)))
        switch bytesPerSample {
        case 1: pointer.storeBytes(of: UInt8(truncatingIfNeeded: value + 128), as: UInt8.self)
        case 2: pointer.storeBytes(of: Int16(truncatingIfNeeded: value), as: Int16.self)
        case 3:
            for byte in 0..<3 {
                pointer.storeBytes(of: UInt8(truncatingIfNeeded: value >> (8 * byte)), toByteOffset: byte, as: UInt8.self)
            }
        default: pointer.storeBytes(of: value, as: Int32.self)
        }
    }
}
