import AUCore
import Foundation
import Synchronization

/// Peak and RMS level per channel and a clip count, measured on the render thread and read
/// on the control thread: what a player's input and output meters and each node's level
/// show. The render side folds each buffer into a window of its own memory and, every
/// ``windowFrames`` frames, hands each channel's window to the control side through a ring;
/// samples at or above full scale (|x| ≥ 1) count as clips.
/// - Thread: [render] for ``measure(_:)``; [control] for the rest.
public final class SignalLevelMeter: @unchecked Sendable {
    /// One channel's window, as the ring carries it.
    struct Window: BitwiseCopyable {
        var channel: Int32
        var frames: Int32
        var peak: Float
        var sumOfSquares: Float
    }

    /// One channel's level, in dB relative to full scale (-infinity for silence).
    /// - Thread: [control]
    public struct Level: Sendable, Equatable {
        public var peak: Double
        public var rms: Double
    }

    /// The most channels measured (more are not).
    public static let maximumChannels = 32
    /// Frames per window: about 21 ms at 48 kHz.
    public static let windowFrames = 1_024

    /// The channels measured.
    public let channelCount: Int
    private let ring: RealTimeRing<Window>
    private let peaks: UnsafeMutablePointer<Float>
    private let sums: UnsafeMutablePointer<Float>
    private var windowFrames = 0
    private let clipCount = Atomic<Int>(0)
    /// The clip count at the last ``resetClips()`` (control side).
    private var clipBase = 0
    private var latest: [Level]

    /// A meter of `channels` channels (at most ``maximumChannels``).
    /// - Thread: [control]
    public init(channels: Int) {
        channelCount = max(0, min(channels, Self.maximumChannels))
        ring = RealTimeRing(minimumCapacity: max(1, channelCount) * 64)
        peaks = .allocate(capacity: max(1, channelCount))
        peaks.initialize(repeating: 0, count: max(1, channelCount))
        sums = .allocate(capacity: max(1, channelCount))
        sums.initialize(repeating: 0, count: max(1, channelCount))
        latest = Array(repeating: Level(peak: -.infinity, rms: -.infinity), count: channelCount)
    }

    deinit {
        peaks.deallocate()
        sums.deallocate()
    }

    /// Folds `buffers` (its first ``channelCount`` channels) into the window; hands the
    /// window over once it is full (dropped when the control side has not read for long).
    /// - Thread: [render] No allocation, no lock.
    public func measure(_ buffers: AudioBuffers) {
        let channels = min(channelCount, buffers.channelCount), frames = buffers.frameCount
        var clips = 0
        for channel in 0..<channels {
            let samples = buffers[channel]
            var peak = peaks[channel], sum = sums[channel]
            for frame in 0..<frames {
                let magnitude = abs(samples[frame])
                if magnitude > peak { peak = magnitude }
                if magnitude >= 1 { clips += 1 }
                sum += samples[frame] * samples[frame]
            }
            peaks[channel] = peak.isNaN ? 0 : peak
            sums[channel] = sum
        }
        if clips > 0 { clipCount.add(clips, ordering: .relaxed) }
        windowFrames += frames
        guard windowFrames >= Self.windowFrames else { return }
        for channel in 0..<channels {
            _ = ring.push(Window(channel: Int32(channel), frames: Int32(windowFrames), peak: peaks[channel], sumOfSquares: sums[channel]))
            peaks[channel] = 0
            sums[channel] = 0
        }
        windowFrames = 0
    }

    /// Each channel's level over the windows handed over since the last call (the last one
    /// read when none came since).
    /// - Thread: [control]
    public func levels() -> [Level] {
        var peak = Array(repeating: Float(0), count: channelCount), sum = Array(repeating: Float(0), count: channelCount)
        var frames = Array(repeating: 0, count: channelCount)
        while let window = ring.pop() {
            let channel = Int(window.channel)
            guard channel < channelCount else { continue }
            peak[channel] = max(peak[channel], window.peak)
            sum[channel] += window.sumOfSquares
            frames[channel] += Int(window.frames)
        }
        for channel in 0..<channelCount where frames[channel] > 0 {
            latest[channel] = Level(peak: Self.decibels(Double(peak[channel])), rms: Self.decibels((Double(sum[channel]) / Double(frames[channel])).squareRoot()))
        }
        return latest
    }

    /// Samples at or above full scale since the last ``resetClips()``.
    /// - Thread: [control]
    public var clips: Int { clipCount.load(ordering: .relaxed) - clipBase }

    /// Starts the clip count again from zero.
    /// - Thread: [control]
    public func resetClips() { clipBase = clipCount.load(ordering: .relaxed) }

    /// 20 log10(amplitude); -infinity for 0.
    /// - Thread: [any]
    public static func decibels(_ amplitude: Double) -> Double { amplitude > 0 ? 20 * log10(amplitude) : -.infinity }
}
