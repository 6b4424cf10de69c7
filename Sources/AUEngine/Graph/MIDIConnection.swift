import AUCore

/// Which channels a MIDI connection passes and where it sends them: a split keyboard takes
/// channels 1–8 to a piano and 9–16 to a bass; a remap moves every passed channel message to
/// one channel. System messages (status F0–FF) always pass unchanged.
/// - Thread: [any] (a plain value).
public struct MIDIChannelMap: Hashable, Sendable, CustomStringConvertible {
    /// Bit n set: channel n + 1 passes.
    public var accepted: UInt16
    /// The channel (1–16) every passed channel message moves to; nil keeps each channel.
    public var target: Int?

    /// Every channel, unchanged.
    /// - Thread: [any]
    public static let all = MIDIChannelMap(accepted: 0xFFFF, target: nil)

    /// - Thread: [any]
    public init(accepted: UInt16 = 0xFFFF, target: Int? = nil) {
        self.accepted = accepted
        self.target = target
    }

    /// Channels `channels` (1–16) pass, moved to `target` when given.
    /// - Thread: [any]
    public init(channels: ClosedRange<Int>, target: Int? = nil) {
        var bits: UInt16 = 0
        for channel in channels where (1...16).contains(channel) { bits |= 1 << (channel - 1) }
        self.init(accepted: bits, target: target)
    }

    /// The 16-entry table the render thread applies: the status nibble a channel goes to,
    /// or 0xFF when it is dropped.
    /// - Thread: [any]
    var table: [UInt8] {
        (0..<16).map { channel in accepted & (1 << channel) == 0 ? 0xFF : UInt8(target.map { $0 - 1 } ?? channel) }
    }

    /// - Thread: [any]
    public var description: String {
        var text = accepted == 0xFFFF ? "all channels" : "channels " + (0..<16).filter { accepted & (1 << $0) != 0 }.map { "\($0 + 1)" }.joined(separator: ",")
        if let target { text += " to channel \(target)" }
        return text
    }
}

/// A MIDI connection (AVAudioEngine's `connectMIDI`): what `source` sends reaches
/// `destination` in the same cycle, at the same frame, through `channels`. A node may feed
/// several destinations (fan-out copies) and take several sources (fan-in merges in time
/// order).
/// - Thread: [any] (a plain value).
public struct MIDIConnection: Hashable, Sendable, CustomStringConvertible {
    public var source: MIDIEndpoint
    public var destination: MIDIEndpoint
    public var channels: MIDIChannelMap

    /// - Thread: [any]
    public init(source: MIDIEndpoint, destination: MIDIEndpoint, channels: MIDIChannelMap = .all) {
        self.source = source
        self.destination = destination
        self.channels = channels
    }

    /// - Thread: [any]
    public var description: String {
        "\(source) -> \(destination) (MIDI\(channels == .all ? "" : ", \(channels)"))"
    }
}
