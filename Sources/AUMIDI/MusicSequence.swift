/// A sequence, as Core Audio's `MusicSequence`: tracks, a tempo track and the time division
/// used to read or write it as a Standard MIDI File. A value: copy it freely.
/// - Thread: [any] to read; [control] for the mutating members.
public struct MusicSequence: Sendable, Hashable {
    /// The tracks, in file order (without the tempo track).
    public var tracks: [MusicTrack]
    /// The tempo track: `ExtendedTempoEvent`s, time and key signatures, and any other events
    /// of a format-1 file's first track (`MusicSequenceGetTempoTrack`).
    public var tempoTrack: MusicTrack
    /// The time division read, or to write: 480 ticks per quarter note by default.
    public var division: MIDIFileDivision

    /// An empty sequence (`NewMusicSequence`).
    /// - Thread: [any]
    public init(division: MIDIFileDivision = .ticksPerQuarterNote(480)) {
        tracks = []
        tempoTrack = MusicTrack()
        self.division = division
    }

    /// A sequence of `tracks` and `tempoTrack`.
    /// - Thread: [any]
    public init(
        tracks: [MusicTrack], tempoTrack: MusicTrack,
        division: MIDIFileDivision = .ticksPerQuarterNote(480)
    ) {
        self.tracks = tracks
        self.tempoTrack = tempoTrack
        self.division = division
    }

    /// The sequence's length in beats: where its last track ends (offsets included; a
    /// looping track counted once).
    /// - Thread: [any]
    public var length: MusicTimeStamp { (tracks + [tempoTrack]).map { $0.offset + $0.length }.max() ?? 0 }

    /// How many tracks there are, without the tempo track (`MusicSequenceGetTrackCount`).
    /// - Thread: [any]
    public var trackCount: Int { tracks.count }

    /// Appends an empty track and returns its index (`MusicSequenceNewTrack`).
    /// - Thread: [control]
    @discardableResult
    public mutating func newTrack() -> Int {
        tracks.append(MusicTrack())
        return tracks.count - 1
    }

    /// The tempo map of the tempo track.
    /// - Thread: [any]
    public var tempoMap: MusicTempoMap { MusicTempoMap(tempoTrack: tempoTrack) }

    /// The time-signature map of the tempo track.
    /// - Thread: [any]
    public var timeSignatureMap: MusicTimeSignatureMap {
        MusicTimeSignatureMap(tempoTrack: tempoTrack)
    }

    /// Seconds at `beats` (`MusicSequenceGetSecondsForBeats`). Builds the tempo map: for many
    /// conversions, keep `tempoMap` instead.
    /// - Thread: [any]
    public func seconds(forBeats beats: MusicTimeStamp) -> Double {
        tempoMap.seconds(forBeats: beats)
    }

    /// Beats at `seconds` (`MusicSequenceGetBeatsForSeconds`).
    /// - Thread: [any]
    public func beats(forSeconds seconds: Double) -> MusicTimeStamp {
        tempoMap.beats(forSeconds: seconds)
    }

    /// Bar, beat and subbeat at `beats` (`MusicSequenceBeatsToBarBeatTime`).
    /// - Thread: [any]
    public func barBeatTime(forBeats beats: MusicTimeStamp, subbeatDivisor: Int) -> CABarBeatTime {
        timeSignatureMap.barBeatTime(forBeats: beats, subbeatDivisor: subbeatDivisor)
    }

    /// Beats at a bar, beat and subbeat (`MusicSequenceBarBeatTimeToBeats`).
    /// - Thread: [any]
    public func beats(for barBeatTime: CABarBeatTime) -> MusicTimeStamp {
        timeSignatureMap.beats(for: barBeatTime)
    }
}
