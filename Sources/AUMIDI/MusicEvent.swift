/// What a track event is, as Core Audio's `MusicEventType` with its data.
/// - Thread: [any]
public enum MusicEvent: Sendable, Hashable {
    /// A note with its duration (`kMusicEventType_MIDINoteMessage`).
    case note(MIDINoteMessage)
    /// Any other channel message (`kMusicEventType_MIDIChannelMessage`).
    case channel(MIDIChannelMessage)
    /// A meta event (`kMusicEventType_Meta`).
    case meta(MIDIMetaEvent)
    /// A system-exclusive event (`kMusicEventType_MIDIRawData`).
    case sysex(MIDISysexEvent)
    /// A tempo change, on a sequence's tempo track (`kMusicEventType_ExtendedTempo`).
    case tempo(ExtendedTempoEvent)
    /// An application's event (`kMusicEventType_User`); not written to files.
    case user(MusicUserEvent)
    /// A parameter change of the track's destination unit (`kMusicEventType_Parameter`).
    case parameter(MusicParameterEvent)
    /// A state restored on the track's destination unit (`kMusicEventType_AUPreset`).
    case auPreset(MusicAUPresetEvent)

    /// How long the event lasts in beats: a note's duration, 0 for every other event.
    /// - Thread: [any]
    public var duration: MusicTimeStamp {
        if case .note(let note) = self { return note.duration }
        return 0
    }
}
