import AUCore

/// A parameter change on a track (`kMusicEventType_Parameter`, Core Audio's `ParameterEvent`):
/// the player sets the parameter of the track's destination unit at the event's frame. Not
/// written to Standard MIDI Files.
/// - Thread: [any]
public struct MusicParameterEvent: Sendable, Hashable {
    /// Which parameter: its ID, scope and element.
    public var address: ParameterAddress
    /// The value it takes.
    public var value: Float

    /// A change of `address` to `value`.
    /// - Thread: [any]
    public init(address: ParameterAddress, value: Float) {
        self.address = address
        self.value = value
    }
}
