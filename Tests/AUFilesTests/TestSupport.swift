import AUCore
import AUFiles
import Foundation

extension OwnedAudioBuffers {
    /// Calls `body` with a view of all the frames while `self` is certainly alive (a view
    /// does not keep its owner: `make().buffers()` on a temporary dangles).
    func withView<R>(_ body: (AudioBuffers) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(buffers()) }
    }
}

enum Signals {
    /// `amplitude · sin(2π·frequency·n/rate + phase)` on every channel (channel c gets an
    /// extra phase of c·0.5 rad, so channels differ), with an optional raised-cosine fade in
    /// and out of `fadeFrames` (an abrupt start is a step, and a step overshoots between
    /// samples).
    static func sine(
        frequency: Double, sampleRate: Double, frames: Int, channels: Int = 1, amplitude: Double = 0.5, phase: Double = 0,
        fadeFrames: Int = 0
    ) -> OwnedAudioBuffers {
        let owned = OwnedAudioBuffers(channels: channels, capacity: frames)
        let buffers = owned.buffers()
        for channel in 0..<channels {
            for frame in 0..<frames {
                let angle = 2 * Double.pi * frequency * Double(frame) / sampleRate + phase + Double(channel) * 0.5
                let edge = min(frame, frames - 1 - frame)
                let fade = edge < fadeFrames ? 0.5 - 0.5 * cos(Double.pi * Double(edge) / Double(fadeFrames)) : 1
                buffers[channel][frame] = Float(amplitude * fade * sin(angle))
            }
        }
        return owned
    }

    /// Deterministic pseudo-random samples in -amplitude...amplitude (a linear congruential
    /// generator: the same every run).
    static func noise(frames: Int, channels: Int, amplitude: Float = 0.9, seed: UInt64 = 1) -> OwnedAudioBuffers {
        let owned = OwnedAudioBuffers(channels: channels, capacity: frames)
        var state = seed
        for channel in 0..<channels {
            for frame in 0..<frames {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let unit = Float(state >> 40) / Float(1 << 24)
                owned.buffers()[channel][frame] = (unit * 2 - 1) * amplitude
            }
        }
        return owned
    }

    /// Writes all of `source` to `path` in blocks of `block` frames and finishes.
    static func write(
        _ source: OwnedAudioBuffers, to path: String, encoding: AudioFileEncoding, sampleRate: Double = 48000,
        block: Int = 1000, overwrite: Bool = false
    ) throws(AudioUnitError) {
        let writer = try AudioFileWriter(
            path: path, encoding: encoding, sampleRate: sampleRate, channels: source.channelCount, overwrite: overwrite)
        try forEachBlock(of: source, size: block) { (view) throws(AudioUnitError) in try writer.write(view) }
        try writer.finish()
    }

    /// Calls `body` with consecutive views of at most `size` frames.
    static func forEachBlock(
        of source: OwnedAudioBuffers, size: Int, _ body: (AudioBuffers) throws(AudioUnitError) -> Void
    ) throws(AudioUnitError) {
        let all = source.buffers()
        var pointers = (0..<source.channelCount).map { all.channelPointers[$0] }
        var offset = 0
        while offset < source.capacity {
            let count = min(size, source.capacity - offset)
            for channel in 0..<pointers.count { pointers[channel] = all.channelPointers[channel] + offset }
            let result: Result<Void, AudioUnitError> = pointers.withUnsafeMutableBufferPointer { list in
                do throws(AudioUnitError) {
                    try body(AudioBuffers(channelPointers: list, frameCount: count))
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
            offset += count
        }
    }

    /// Collects emitted blocks into one array per channel.
    final class Collector {
        var channels: [[Float]]
        init(channels: Int) { self.channels = Array(repeating: [], count: channels) }
        func append(_ buffers: AudioBuffers) {
            for channel in 0..<channels.count { channels[channel].append(contentsOf: buffers[channel]) }
        }
    }

    static func array(_ owned: OwnedAudioBuffers, channel: Int) -> [Float] { Array(owned.buffers()[channel]) }
}

enum Analysis {
    /// Frequency from the positive-going zero crossings in `samples[range]` (linear
    /// interpolation between samples).
    static func frequency(_ samples: [Float], sampleRate: Double, range: Range<Int>) -> Double {
        var crossings: [Double] = []
        for index in range.lowerBound + 1..<range.upperBound where samples[index - 1] < 0 && samples[index] >= 0 {
            let before = Double(samples[index - 1]), after = Double(samples[index])
            crossings.append(Double(index - 1) + (-before) / (after - before))
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) / ((last - first) / sampleRate)
    }

    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// Normalised correlation of two equal-length signals.
    static func correlation(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Double {
        var ab = 0.0, aa = 0.0, bb = 0.0
        for (x, y) in zip(a, b) {
            ab += Double(x) * Double(y)
            aa += Double(x) * Double(x)
            bb += Double(y) * Double(y)
        }
        return ab / (aa * bb).squareRoot()
    }
}
