/// A system-exclusive event of a Standard MIDI File, kept as the raw bytes that follow its
/// length (for an `F0` event: the message after the `F0`, normally ending in `F7`).
/// - Thread: [any]
public struct MIDISysexEvent: Sendable, Hashable {
    /// Which of the file's two sysex forms the event is.
    /// - Thread: [any]
    public enum Kind: UInt8, Sendable, Hashable {
        /// `F0 length bytes`: a system-exclusive message (or its first packet).
        case sysex = 0xF0
        /// `F7 length bytes`: an escape, any bytes sent as they are (or a sysex continuation).
        case escape = 0xF7
    }

    /// The event's form.
    public var kind: Kind
    /// The bytes after the length.
    public var data: [UInt8]

    /// An event of `kind` with `data`.
    /// - Thread: [any]
    public init(kind: Kind, data: [UInt8]) {
        self.kind = kind
        self.data = data
    }
}
