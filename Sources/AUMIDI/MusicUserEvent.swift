/// An application's own event: bytes that only the application understands, as Core Audio's
/// `MusicEventUserData`. User events are not written to Standard MIDI Files.
/// - Thread: [any]
public struct MusicUserEvent: Sendable, Hashable {
    /// The application's bytes.
    public var data: [UInt8]

    /// A user event holding `data`.
    /// - Thread: [any]
    public init(data: [UInt8]) {
        self.data = data
    }
}
