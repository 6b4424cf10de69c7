import AUMIDI
/// What keeps a ``MusicPlayer``'s time, as the Core Audio Clock's sync mode does.
/// - Thread: [any] (a plain value).
public enum MusicPlayerSyncSource: Sendable, Hashable {
    /// The player is its own clock: ``MusicPlayer/start()``, ``MusicPlayer/stop()`` and
    /// ``MusicPlayer/setTime(_:)`` move it (`kCAClockSyncMode_Internal`).
    case `internal`
    /// The driver's transport (JACK's, in the ``HostTransport`` given to the player) starts,
    /// stops and locates it; the song's frame is its seconds times the sample rate.
    case hostTransport
    /// MIDI clock arriving at the graph's MIDI input (Start, Continue, Stop, Song Position
    /// Pointer, 24 clocks a beat) starts, stops and locates it, and its tempo sets the
    /// song's (`kCAClockSyncMode_MIDIClockTransport`).
    case midiClock
}
