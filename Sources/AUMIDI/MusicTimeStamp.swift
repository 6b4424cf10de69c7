/// A position or a duration in beats (quarter notes), as Core Audio's `MusicTimeStamp`.
/// Read from a PPQN file, beats = ticks / ticks per quarter note; from an SMPTE file, see
/// `MIDIFileDivision.ticksPerBeat`.
/// - Thread: [any]
public typealias MusicTimeStamp = Double
