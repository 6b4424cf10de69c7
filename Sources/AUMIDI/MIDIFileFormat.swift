/// The format of a Standard MIDI File, as in its header.
/// - Thread: [any]
public enum MIDIFileFormat: UInt16, Sendable, Hashable, CaseIterable {
    /// Format 0: one track. Reading moves its tempo, time-signature and key-signature events
    /// to the sequence's tempo track; writing merges the tempo track and every track into one.
    case singleTrack = 0
    /// Format 1: simultaneous tracks; the first is the sequence's tempo track.
    case multipleTracks = 1
    /// Format 2: independent tracks, each with its own tempo events (kept as meta events);
    /// the sequence's tempo track is written first only when it has events.
    case independentTracks = 2

    /// The format a Standard MIDI File's header gives (the big-endian word at byte 8), nil
    /// when `bytes` hold no header or an unknown format.
    /// - Thread: [any]
    public init?(headerOf bytes: [UInt8]) {
        guard bytes.count >= 14, bytes.starts(with: Array("MThd".utf8)) else { return nil }
        self.init(rawValue: UInt16(bytes[8]) << 8 | UInt16(bytes[9]))
    }
}
