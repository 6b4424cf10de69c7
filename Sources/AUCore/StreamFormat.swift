/// Linear PCM format flags (`AudioFormatFlags` for `kAudioFormatLinearPCM`).
/// - Thread: [any]
public struct FormatFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    /// - Thread: [any]
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let isFloat = FormatFlags(rawValue: 1 << 0)
    public static let isBigEndian = FormatFlags(rawValue: 1 << 1)
    public static let isSignedInteger = FormatFlags(rawValue: 1 << 2)
    public static let isPacked = FormatFlags(rawValue: 1 << 3)
    public static let isAlignedHigh = FormatFlags(rawValue: 1 << 4)
    public static let isNonInterleaved = FormatFlags(rawValue: 1 << 5)
    public static let isNonMixable = FormatFlags(rawValue: 1 << 6)

    /// `kLinearPCMFormatFlagsSampleFractionShift` / `…Mask`: where fixed point keeps its
    /// number of fraction bits (24 for 8.24).
    static let fractionShift: UInt32 = 7
    static let fractionMask: UInt32 = 0x3F << fractionShift

    /// Flags for a fixed-point format with `bits` fraction bits.
    /// - Thread: [any]
    public static func fractionBits(_ bits: Int) -> FormatFlags {
        FormatFlags(rawValue: (UInt32(bits) << fractionShift) & fractionMask)
    }

    /// The number of fraction bits of a fixed-point format (0 for plain integers).
    /// - Thread: [any]
    public var fractionBits: Int { Int((rawValue & Self.fractionMask) >> Self.fractionShift) }
}

/// The stream format of a bus (Core Audio's `AudioStreamBasicDescription`), linear PCM only.
///
/// The canonical format inside AUHost is 32-bit float, native-endian, non-interleaved:
/// ``canonical(sampleRate:channels:)``. Interleaved 16-bit integer and 8.24 fixed point are
/// representable and convertible with ``SampleConverter``.
/// - Thread: [any] (a plain value).
public struct StreamFormat: Hashable, Sendable, CustomStringConvertible {
    public var sampleRate: Double
    public var formatID: FourCharCode
    public var formatFlags: FormatFlags
    public var bytesPerPacket: Int
    public var framesPerPacket: Int
    public var bytesPerFrame: Int
    public var channelsPerFrame: Int
    public var bitsPerChannel: Int

    /// `kAudioFormatLinearPCM`.
    public static let linearPCM: FourCharCode = "lpcm"

    /// - Thread: [any]
    public init(
        sampleRate: Double, formatID: FourCharCode = StreamFormat.linearPCM, formatFlags: FormatFlags,
        bytesPerPacket: Int, framesPerPacket: Int, bytesPerFrame: Int, channelsPerFrame: Int,
        bitsPerChannel: Int
    ) {
        self.sampleRate = sampleRate
        self.formatID = formatID
        self.formatFlags = formatFlags
        self.bytesPerPacket = bytesPerPacket
        self.framesPerPacket = framesPerPacket
        self.bytesPerFrame = bytesPerFrame
        self.channelsPerFrame = channelsPerFrame
        self.bitsPerChannel = bitsPerChannel
    }

    /// Packed linear PCM with the given sample layout; the byte counts are derived.
    /// - Thread: [any]
    public init(sampleRate: Double, channels: Int, bitsPerChannel: Int, flags: FormatFlags) {
        let bytesPerSample = (bitsPerChannel + 7) / 8
        let bytesPerFrame = flags.contains(.isNonInterleaved) ? bytesPerSample : bytesPerSample * channels
        self.init(
            sampleRate: sampleRate, formatFlags: flags.union(.isPacked), bytesPerPacket: bytesPerFrame,
            framesPerPacket: 1, bytesPerFrame: bytesPerFrame, channelsPerFrame: channels,
            bitsPerChannel: bitsPerChannel)
    }

    /// 32-bit float, native-endian, non-interleaved: what every unit renders.
    /// - Thread: [any]
    public static func canonical(sampleRate: Double, channels: Int) -> StreamFormat {
        StreamFormat(sampleRate: sampleRate, channels: channels, bitsPerChannel: 32, flags: [.isFloat, .isNonInterleaved])
    }

    /// Interleaved signed 16-bit integer, native-endian (CD audio's layout).
    /// - Thread: [any]
    public static func int16Interleaved(sampleRate: Double, channels: Int) -> StreamFormat {
        StreamFormat(sampleRate: sampleRate, channels: channels, bitsPerChannel: 16, flags: [.isSignedInteger])
    }

    /// 8.24 signed fixed point in 32 bits, non-interleaved (the old iOS canonical unit format).
    /// - Thread: [any]
    public static func fixed824(sampleRate: Double, channels: Int) -> StreamFormat {
        StreamFormat(
            sampleRate: sampleRate, channels: channels, bitsPerChannel: 32,
            flags: [.isSignedInteger, .isNonInterleaved, .fractionBits(24)])
    }

    /// - Thread: [any]
    public var isInterleaved: Bool { !formatFlags.contains(.isNonInterleaved) }
    /// - Thread: [any]
    public var isFloat: Bool { formatFlags.contains(.isFloat) }
    /// - Thread: [any]
    public var isCanonical: Bool {
        self == .canonical(sampleRate: sampleRate, channels: channelsPerFrame)
    }

    /// Checks that the description is self-consistent and is one AUHost can convert;
    /// the error says which field is wrong and what was expected.
    /// - Thread: [any]
    public func validate() throws(AudioUnitError) {
        func fail(_ text: String) -> AudioUnitError {
            AudioUnitError(.formatNotSupported, "invalid stream format \(self): \(text)")
        }
        guard formatID == Self.linearPCM else { throw fail("format ID '\(formatID)' is not 'lpcm'") }
        guard sampleRate.isFinite, sampleRate > 0, sampleRate <= 1_536_000 else {
            throw fail("sample rate \(sampleRate) is not in 1...1536000 Hz")
        }
        guard (1...64).contains(channelsPerFrame) else { throw fail("\(channelsPerFrame) channels is not in 1...64") }
        guard framesPerPacket == 1 else { throw fail("linear PCM has 1 frame per packet, not \(framesPerPacket)") }
        let isFloat = formatFlags.contains(.isFloat)
        let isSigned = formatFlags.contains(.isSignedInteger)
        if isFloat && isSigned { throw fail("a format cannot be both float and signed integer") }
        if formatFlags.contains(.isBigEndian) { throw fail("big-endian samples are not supported") }
        if isFloat {
            guard bitsPerChannel == 32 || bitsPerChannel == 64 else { throw fail("float samples are 32 or 64 bits, not \(bitsPerChannel)") }
            guard formatFlags.fractionBits == 0 else { throw fail("float samples have no fraction bits") }
        } else {
            guard [8, 16, 24, 32].contains(bitsPerChannel) else { throw fail("integer samples are 8, 16, 24 or 32 bits, not \(bitsPerChannel)") }
            guard isSigned || bitsPerChannel == 8 else { throw fail("unsigned integers are supported at 8 bits only") }
            guard formatFlags.fractionBits < bitsPerChannel else {
                throw fail("\(formatFlags.fractionBits) fraction bits do not fit in \(bitsPerChannel) bits")
            }
        }
        let bytesPerSample = (bitsPerChannel + 7) / 8
        let expectedFrameBytes = isInterleaved ? bytesPerSample * channelsPerFrame : bytesPerSample
        guard bytesPerFrame == expectedFrameBytes else {
            throw fail("bytes per frame is \(bytesPerFrame), expected \(expectedFrameBytes)")
        }
        guard bytesPerPacket == bytesPerFrame else {
            throw fail("bytes per packet is \(bytesPerPacket), expected \(bytesPerFrame)")
        }
    }

    /// `48000 Hz, 2 ch, Float32, non-interleaved`.
    /// - Thread: [any]
    public var description: String {
        var sample: String
        if formatFlags.contains(.isFloat) {
            sample = "Float\(bitsPerChannel)"
        } else if formatFlags.fractionBits > 0 {
            sample = "\(bitsPerChannel - formatFlags.fractionBits).\(formatFlags.fractionBits) fixed"
        } else {
            sample = formatFlags.contains(.isSignedInteger) ? "Int\(bitsPerChannel)" : "UInt\(bitsPerChannel)"
        }
        if formatID != Self.linearPCM { sample = "'\(formatID)' \(sample)" }
        let isWhole = sampleRate.isFinite && sampleRate == sampleRate.rounded() && abs(sampleRate) < 1e15
        let rate = isWhole ? String(Int(sampleRate)) : String(sampleRate)
        return "\(rate) Hz, \(channelsPerFrame) ch, \(sample), \(isInterleaved ? "interleaved" : "non-interleaved")"
    }
}
