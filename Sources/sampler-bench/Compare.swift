import AUCore
import AUFiles
import Foundation

/// How far two renders of one song agree, per channel: the lag that best aligns them
/// (cross-correlation of their first channel over 4 s from 10 s, within ±1,024 frames), then
/// over the frames both have after alignment the correlation coefficient, the level of each
/// and the level of their difference relative to the second render (dB: -20 means the
/// difference is a tenth of the signal in amplitude); and the largest level difference of
/// any one second (RMS in dB), which shows whether a part is louder in one of them.
struct Comparison {
    let report: String

    init(_ firstPath: String, _ secondPath: String) throws {
        let first = try AudioFileReader(path: firstPath), second = try AudioFileReader(path: secondPath)
        guard first.info.sampleRate == second.info.sampleRate, first.info.channels == second.info.channels else {
            throw CompareError("the files differ in rate or channels: \(first.info) / \(second.info)")
        }
        let a = Self.channels(try first.readAll()), b = Self.channels(try second.readAll())
        let rate = Int(first.info.sampleRate)
        let lag = Self.bestLag(a[0], b[0], from: 10 * rate, count: 4 * rate, within: 1_024)
        // a[frame + lag] lines up with b[frame].
        let start = max(0, -lag), count = min(a[0].count - lag, b[0].count) - start
        var lines = ["lag \(lag) frames (the first file against the second); \(count) frames compared (\(String(format: "%.1f", Double(count) / Double(rate))) s)"]
        for channel in a.indices {
            let x = a[channel][(start + lag)..<(start + lag + count)], y = b[channel][start..<(start + count)]
            var xy = 0.0, xx = 0.0, yy = 0.0, dd = 0.0
            for (p, q) in zip(x, y) {
                let u = Double(p), v = Double(q)
                xy += u * v
                xx += u * u
                yy += v * v
                dd += (u - v) * (u - v)
            }
            let correlation = xy / (xx * yy).squareRoot()
            let worstSecond = stride(from: 0, to: count - rate, by: rate).map { offset -> Double in
                let levelX = Self.rms(x.dropFirst(offset).prefix(rate)), levelY = Self.rms(y.dropFirst(offset).prefix(rate))
                return levelY > 1e-4 ? abs(Self.decibels(levelX / levelY)) : 0
            }.max() ?? 0
            let n = Double(count)
            lines.append(String(
                format: "channel %d: correlation %.7f, RMS %.2f / %.2f dBFS, difference %.1f dB below the second, worst 1 s level difference %.2f dB",
                channel + 1, correlation, Self.decibels((xx / n).squareRoot()), Self.decibels((yy / n).squareRoot()),
                -Self.decibels((dd / yy).squareRoot()), worstSecond))
        }
        report = lines.joined(separator: "\n")
    }

    private static func channels(_ buffers: OwnedAudioBuffers) -> [[Float]] {
        (0..<buffers.channelCount).map { Array(buffers.buffers()[$0]) }
    }

    /// The lag in -within...within at which `a[n + lag]` best matches `b[n]` over `count` frames from `from`.
    private static func bestLag(_ a: [Float], _ b: [Float], from: Int, count: Int, within: Int) -> Int {
        func score(_ lag: Int) -> Double {
            var sum = 0.0
            for frame in from..<(from + count) where frame + lag >= 0 && frame + lag < a.count && frame < b.count {
                sum += Double(a[frame + lag]) * Double(b[frame])
            }
            return sum
        }
        return (-within...within).map { ($0, score($0)) }.max { $0.1 < $1.1 }!.0
    }

    private static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
    }

    private static func decibels(_ ratio: Double) -> Double { 20 * log10(max(ratio, 1e-12)) }
}

struct CompareError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
