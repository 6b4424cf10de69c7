import AUCore
import AUFiles
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

// What the offline render tests share: audio in and out, the command run in-process, and
// measurements of what came out (their scratch folder is AUTestSupport's TemporaryFolder).

/// Writes `channels` × `frames` samples from `sample(channel, frame)` as 32-bit float
/// (or `encoding`) through AUFiles.
func writeAudio(
    _ path: String, sampleRate: Double, channels: Int, frames: Int,
    encoding: AudioFileEncoding? = nil, _ sample: (Int, Int) -> Float
) throws {
    let buffers = OwnedAudioBuffers(channels: channels, capacity: frames)
    for channel in 0..<channels {
        for frame in 0..<frames { buffers.buffers()[channel][frame] = sample(channel, frame) }
    }
    let writer = try AudioFileWriter(
        path: path, encoding: try encoding ?? AudioFileEncoding(format: .wav, bitDepth: .float32),
        sampleRate: sampleRate, channels: channels)
    try writer.write(buffers.buffers())
    try writer.finish()
}

/// A file's samples as `[channel][frame]`, with its rate.
func readAudio(_ path: String) throws -> (rate: Double, samples: [[Float]]) {
    let reader = try AudioFileReader(path: path)
    let owned = try reader.readAll()
    let samples = (0..<owned.channelCount).map { Array(owned.buffers()[$0]) }
    return (reader.info.sampleRate, samples)
}

/// Runs `auhost render` in-process over every unit on the machine.
func render(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
    let output = TextOutput()
    let errors = TextOutput()
    let status = AUHostCLI.run(["render"] + arguments, output: output, errors: errors)
    return (status, output.captured, errors.captured)
}

func preset(_ nodes: String, chain: [String], sampleRate: Double? = nil) -> String {
    let rate = sampleRate.map { "\"sampleRate\": \($0), " } ?? ""
    return """
        {"auhost": 1, "name": "test", \(rate)"nodes": [\(nodes)], "chain": [\(chain.map { "\"\($0)\"" }.joined(separator: ", "))]}
        """
}

func largestIndex(_ samples: [Float]) -> Int {
    samples.indices.max { abs(samples[$0]) < abs(samples[$1]) } ?? -1
}

/// The frequency of a sine from its upward zero crossings (interpolated).
func frequency(_ samples: [Float], sampleRate: Double) -> Double {
    var crossings: [Double] = []
    for index in 1..<samples.count where samples[index - 1] < 0 && samples[index] >= 0 {
        let fraction = Double(-samples[index - 1] / (samples[index] - samples[index - 1]))
        crossings.append(Double(index - 1) + fraction)
    }
    guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
    return Double(crossings.count - 1) / ((last - first) / sampleRate)
}

/// The native Gain at -6.02 dB (half), unsmoothed: the render tests' plain chain.
let gainNode = #"{"id": "gain", "unit": "aufx:gain:AUHs", "parameters": {"gain": -6.0206, "smoothing": 0}}"#
