/// The levels of one channel: sample peak, RMS and true peak, linear (full scale 1.0) and
/// in decibels.
/// - Thread: [any] (a plain value).
public struct ChannelLevels: Sendable, Equatable {
    /// The largest sample magnitude.
    public var samplePeak: Double
    /// The root mean square over every frame.
    public var rms: Double
    /// The largest magnitude of the 4× oversampled signal (BS.1770), never below ``samplePeak``.
    public var truePeak: Double

    /// - Thread: [any]
    public init(samplePeak: Double, rms: Double, truePeak: Double) {
        self.samplePeak = samplePeak
        self.rms = rms
        self.truePeak = truePeak
    }

    /// - Thread: [any]
    public var samplePeakDBFS: Double { Decibels.fromAmplitude(samplePeak) }
    /// - Thread: [any]
    public var rmsDBFS: Double { Decibels.fromAmplitude(rms) }
    /// - Thread: [any]
    public var truePeakDBTP: Double { Decibels.fromAmplitude(truePeak) }
}

/// The levels of a file: per channel and overall (peaks are the loudest channel's; RMS is
/// over every sample of every channel), with the clipping predicates the render command
/// warns with.
/// - Thread: [any] (a plain value).
public struct AudioLevels: Sendable, Equatable, CustomStringConvertible {
    public var channels: [ChannelLevels]
    /// Frames measured.
    public var frames: Int
    /// Whether the true peak was measured (4× oversampled); when not, each channel's
    /// ``ChannelLevels/truePeak`` is its sample peak, and ``description`` and
    /// ``clippingWarning`` leave the true peak out.
    public var measuresTruePeak = true

    /// - Thread: [any]
    public init(channels: [ChannelLevels], frames: Int, measuresTruePeak: Bool = true) {
        self.channels = channels
        self.frames = frames
        self.measuresTruePeak = measuresTruePeak
    }

    /// - Thread: [any]
    public var samplePeak: Double { channels.map(\.samplePeak).max() ?? 0 }
    /// - Thread: [any]
    public var truePeak: Double { channels.map(\.truePeak).max() ?? 0 }
    /// - Thread: [any]
    public var rms: Double {
        guard !channels.isEmpty else { return 0 }
        let meanSquare = channels.map { $0.rms * $0.rms }.reduce(0, +) / Double(channels.count)
        return meanSquare.squareRoot()
    }

    /// - Thread: [any]
    public var samplePeakDBFS: Double { Decibels.fromAmplitude(samplePeak) }
    /// - Thread: [any]
    public var rmsDBFS: Double { Decibels.fromAmplitude(rms) }
    /// - Thread: [any]
    public var truePeakDBTP: Double { Decibels.fromAmplitude(truePeak) }

    /// Some sample reaches full scale: an integer file clamps it (and a float file played
    /// by most systems does too).
    /// - Thread: [any]
    public var isClipping: Bool { samplePeak >= 1 }

    /// The true peak exceeds `ceilingDBTP` (0 dBTP by default): converters and lossy
    /// encoders may clip between the samples even when no sample does.
    /// - Thread: [any]
    public func exceedsTruePeak(ceilingDBTP: Double = 0) -> Bool { truePeakDBTP > ceilingDBTP }

    /// The warning to print, or `nil` when the levels are safe.
    /// - Thread: [any]
    public var clippingWarning: String? {
        if isClipping {
            return "clipping: sample peak \(Decibels.format(samplePeakDBFS)) dBFS reaches full scale"
        }
        if measuresTruePeak, exceedsTruePeak() {
            return "possible inter-sample clipping: true peak \(Decibels.format(truePeakDBTP)) dBTP is above 0 dBTP"
        }
        return nil
    }

    /// `peak -3.01 dBFS, RMS -6.02 dBFS, true peak -3.00 dBTP` (the true peak only when measured).
    /// - Thread: [any]
    public var description: String {
        let levels = "peak \(Decibels.format(samplePeakDBFS)) dBFS, RMS \(Decibels.format(rmsDBFS)) dBFS"
        return measuresTruePeak ? "\(levels), true peak \(Decibels.format(truePeakDBTP)) dBTP" : levels
    }
}
