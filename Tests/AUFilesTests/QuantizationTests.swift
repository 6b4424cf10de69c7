import AUCore
import AUTestSupport
import Foundation
import Testing
@testable import AUFiles

/// Integer quantization (vectorized C since issue 32) gives, sample for sample, what the
/// scalar Swift of before gave: ``reference(_:bits:)`` is that code. Writes gathered into
/// large ones (`buffersWrites`) give the same file as one write per block.
@Suite struct QuantizationTests {
    /// The quantizer before issue 32: scale, NaN to 0, clamp to full scale, round half
    /// away from zero by truncating `v ± 0.5` in float.
    static func reference(_ sample: Float, bits: Int) -> Int32 {
        let scale = Float(1 << (bits - 1))
        var value = sample * scale
        if value.isNaN { value = 0 }
        if value > scale - 1 { value = scale - 1 } else if value < -scale { value = -scale }
        return Int32(value + (value < 0 ? -0.5 : 0.5))
    }

    /// Samples that probe every branch: halves and near-halves of a step, full scale and
    /// past it, NaN and infinities, denormals, and noise.
    static func samples(count: Int, bits: Int) -> [Float] {
        let step = 1 / Float(1 << (bits - 1))
        var values: [Float] = [0, -0.0, .nan, .infinity, -.infinity, 1, -1, 1.5, -2, .leastNonzeroMagnitude, -.leastNonzeroMagnitude]
        for k in [0, 1, 2, 100, 1000, (1 << (bits - 1)) - 2] {
            let base = Float(k) * step
            for offset: Float in [0.5, 0.4999, 0.5001, -0.5, 1.5, 2.5] { values += [base + offset * step, -(base + offset * step)] }
        }
        var state: UInt64 = 0x2545_f491_4f6c_dd1d
        while values.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Float(Int64(bitPattern: state >> 11) % 3_000_000) / 1_000_000 - 0.5 + Float(state & 1) * step / 2)
        }
        return Array(values.prefix(count))
    }

    /// A WAV file's data chunk as signed integers of `bits` bits.
    static func dataSamples(_ path: String, bits: Int) throws -> [Int32] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if bytes[offset..<offset + 4].elementsEqual("data".utf8) {
                let width = bits / 8
                return stride(from: offset + 8, to: offset + 8 + size, by: width).map { start in
                    var value: UInt32 = 0
                    for byte in 0..<width { value |= UInt32(bytes[start + byte]) << (8 * (byte + 4 - width)) }
                    return Int32(bitPattern: value) >> (32 - bits)
                }
            }
            offset += 8 + size + size % 2
        }
        throw AudioUnitError(.invalidFile, "\(path): no data chunk")
    }

    @Test(arguments: [16, 24])
    func quantizedSamplesAreTheScalarCodes(bits: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let frames = 5000
        // Three file channels from two buffer channels: the third is written silent.
        let left = Self.samples(count: frames, bits: bits), right = Array(left.reversed())
        let source = OwnedAudioBuffers(channels: 2, capacity: frames)
        for frame in 0..<frames {
            source.buffers()[0][frame] = left[frame]
            source.buffers()[1][frame] = right[frame]
        }
        let depth: BitDepth = bits == 16 ? .int16 : .int24
        var files: [[Int32]] = []
        for buffered in [false, true] {
            let path = folder.file("q\(bits)-\(buffered).wav")
            let writer = try AudioFileWriter(
                path: path, encoding: AudioFileEncoding(format: .wav, bitDepth: depth), sampleRate: 48000, channels: 3,
                maxFramesPerWrite: 1024, buffersWrites: buffered)
            // Blocks of odd sizes, so that gathered writes straddle them.
            var done = 0
            for size in [1, 63, 64, 1000, 7, 2048, 1817] where done < frames {
                let count = min(size, frames - done)
                let pointers = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: 2)
                defer { pointers.deallocate() }
                for channel in 0..<2 { pointers[channel] = source.buffers().channelPointers[channel] + done }
                try writer.write(AudioBuffers(channelPointers: pointers, frameCount: count))
                done += count
            }
            try writer.finish()
            #expect(writer.framesWritten == frames)
            let expectedClipped = (left + right).filter { !$0.isNaN && ($0 * Float(1 << (bits - 1)) > Float(1 << (bits - 1)) - 1 || $0 < -1) }.count
            #expect(writer.clippedSampleCount == expectedClipped)
            files.append(try Self.dataSamples(path, bits: bits))
        }
        let got = try #require(files.first)
        try #require(got.count == frames * 3)
        var mismatches: [String] = []
        for frame in 0..<frames {
            let expected = [Self.reference(left[frame], bits: bits), Self.reference(right[frame], bits: bits), 0]
            for channel in 0..<3 where got[frame * 3 + channel] != expected[channel] {
                mismatches.append("frame \(frame) channel \(channel): \(got[frame * 3 + channel]) for \(channel == 0 ? left[frame] : right[frame]), expected \(expected[channel])")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) samples differ: \(mismatches.prefix(4))")
        #expect(files[0] == files[1], "gathered writes give the same samples")
    }
}
