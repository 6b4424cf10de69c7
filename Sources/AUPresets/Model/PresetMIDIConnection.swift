import Foundation

/// One entry of a preset's `midi` list: the MIDI of `from` (a node id, or `input`, the
/// graph's MIDI input) reaches `to` (a node id, or `output`, the graph's MIDI output),
/// channel messages of `channels` only (all when nil), moved to `channel` when given.
///
/// ```json
/// "midi": [["input", "arp"], {"from": "input", "to": "bass", "channels": "9-16", "channel": 1}]
/// ```
/// - Thread: [any] (a plain value).
public struct PresetMIDIConnection: Hashable, Sendable {
    public var from: String
    public var to: String
    /// Channels as written: `"1-8"`, `"10"`, `"1,3,5-7"`; nil: every channel.
    public var channels: String?
    /// The channel (1–16) passed channel messages move to; nil keeps theirs.
    public var channel: Int?

    /// - Thread: [any]
    public init(from: String, to: String, channels: String? = nil, channel: Int? = nil) {
        self.from = from
        self.to = to
        self.channels = channels
        self.channel = channel
    }

    /// `channels` as a bit set (bit n: channel n + 1), every channel when nil; nil when the
    /// text is not a list of channels and ranges in 1–16.
    /// - Thread: [any]
    public var channelBits: UInt16? {
        guard let channels else { return 0xFFFF }
        var bits: UInt16 = 0
        for item in channels.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard (1...2).contains(ends.count), let low = ends.first ?? nil, let high = ends.last ?? nil,
                  (1...16).contains(low), (1...16).contains(high), low <= high
            else { return nil }
            for channel in low...high { bits |= 1 << (channel - 1) }
        }
        return bits
    }

    /// Whether the entry is the plain two-string form (every channel, unchanged).
    /// - Thread: [any]
    public var isPlain: Bool { channels == nil && channel == nil }
}
