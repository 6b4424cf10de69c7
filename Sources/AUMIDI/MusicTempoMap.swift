/// The tempo map of a tempo track: beats <-> seconds <-> sample frames, exact across tempo
/// changes. Each tempo segment keeps its start in beats and in seconds, the seconds start
/// computed from the previous segment's start (`start + beats * 60 / bpm`), and a time is
/// converted from its segment's start, so nothing accumulates per event.
/// The tempo is 120 BPM until the first `ExtendedTempoEvent` (a tempo at or before beat 0
/// holds from the start); tempos that are not finite and positive are ignored; of several
/// tempos at one time, the last counts. Times before 0 use the first tempo.
/// - Thread: [any]
public struct MusicTempoMap: Sendable, Hashable {
    /// The tempo when a tempo track has none.
    /// - Thread: [any]
    public static let defaultBPM = 120.0

    /// A stretch of constant tempo.
    package struct Segment: Sendable, Hashable {
        var startBeat: MusicTimeStamp
        var startSecond: Double
        package var bpm: Double
    }

    /// The segments, by start; the first starts at beat 0 and second 0.
    package let segments: [Segment]

    /// The map of `tempoTrack`'s `ExtendedTempoEvent`s.
    /// - Thread: [any]
    public init(tempoTrack: MusicTrack) {
        var segments = [Segment(startBeat: 0, startSecond: 0, bpm: Self.defaultBPM)]
        for trackEvent in tempoTrack.events {
            guard case .tempo(let tempo) = trackEvent.event, tempo.bpm.isFinite, tempo.bpm > 0
            else { continue }
            let last = segments[segments.count - 1]
            let beat = max(trackEvent.timeStamp, 0)
            if beat <= last.startBeat {
                segments[segments.count - 1].bpm = tempo.bpm
            } else {
                let second = last.startSecond + (beat - last.startBeat) * 60 / last.bpm
                segments.append(Segment(startBeat: beat, startSecond: second, bpm: tempo.bpm))
            }
        }
        self.segments = segments
    }

    /// The index of the last segment starting at or before `value` by `key` (0 if none).
    package static func segmentIndex(_ value: Double, in segments: UnsafeBufferPointer<Segment>, by key: (Segment) -> Double) -> Int {
        partitioningIndex(count: segments.count - 1) { key(segments[$0 + 1]) > value }
    }

    /// The segment in force at `beats`, in `segments` (a map's, as the player's schedule keeps them).
    /// - Thread: [render] No allocation.
    package static func segment(atBeats beats: MusicTimeStamp, in segments: UnsafeBufferPointer<Segment>) -> Segment {
        segments[segmentIndex(beats, in: segments) { $0.startBeat }]
    }

    /// Seconds at `beats` through `segments`.
    /// - Thread: [render] No allocation.
    package static func seconds(forBeats beats: MusicTimeStamp, in segments: UnsafeBufferPointer<Segment>) -> Double {
        let segment = segment(atBeats: beats, in: segments)
        return segment.startSecond + (beats - segment.startBeat) * 60 / segment.bpm
    }

    /// Beats at `seconds` through `segments`.
    /// - Thread: [render] No allocation.
    package static func beats(forSeconds seconds: Double, in segments: UnsafeBufferPointer<Segment>) -> MusicTimeStamp {
        let segment = segments[segmentIndex(seconds, in: segments) { $0.startSecond }]
        return segment.startBeat + (seconds - segment.startSecond) * segment.bpm / 60
    }

    /// The tempo at `beats`, in BPM.
    /// - Thread: [any]
    public func bpm(atBeats beats: MusicTimeStamp) -> Double {
        segments.withUnsafeBufferPointer { Self.segment(atBeats: beats, in: $0).bpm }
    }

    /// Seconds from the start at `beats`.
    /// - Thread: [any]
    public func seconds(forBeats beats: MusicTimeStamp) -> Double {
        segments.withUnsafeBufferPointer { Self.seconds(forBeats: beats, in: $0) }
    }

    /// Beats from the start at `seconds`.
    /// - Thread: [any]
    public func beats(forSeconds seconds: Double) -> MusicTimeStamp {
        segments.withUnsafeBufferPointer { Self.beats(forSeconds: seconds, in: $0) }
    }

    /// Sample frames at `seconds`: `seconds * sampleRate`.
    /// - Thread: [any]
    public static func sampleFrames(forSeconds seconds: Double, sampleRate: Double) -> Double {
        seconds * sampleRate
    }

    /// The sample frame at `seconds`: `seconds * sampleRate` rounded down, except that a value
    /// within 1e-6 frame below a whole frame counts as that frame (so that the rounding error
    /// of a product such as (1/3 beat in seconds) * 44100 does not lose a frame). Clamped to
    /// `Int64`'s range; NaN gives 0.
    /// - Thread: [any]
    public static func sampleFrame(forSeconds seconds: Double, sampleRate: Double) -> Int64 {
        let frames = seconds * sampleRate
        let nearest = frames.rounded()
        let snapped = abs(frames - nearest) <= 1e-6 ? nearest : frames
        return Int64(clamping: snapped, rounding: .down)
    }

    /// Seconds at `sampleFrames`: `sampleFrames / sampleRate`.
    /// - Thread: [any]
    public static func seconds(forSampleFrames sampleFrames: Double, sampleRate: Double) -> Double {
        sampleFrames / sampleRate
    }

    /// Sample frames (fractional) at `beats`.
    /// - Thread: [any]
    public func sampleFrames(forBeats beats: MusicTimeStamp, sampleRate: Double) -> Double {
        Self.sampleFrames(forSeconds: seconds(forBeats: beats), sampleRate: sampleRate)
    }

    /// The sample frame at `beats`, rounded down as `sampleFrame(forSeconds:sampleRate:)`.
    /// - Thread: [any]
    public func sampleFrame(forBeats beats: MusicTimeStamp, sampleRate: Double) -> Int64 {
        Self.sampleFrame(forSeconds: seconds(forBeats: beats), sampleRate: sampleRate)
    }

    /// Beats at `sampleFrames` (fractional frames allowed).
    /// - Thread: [any]
    public func beats(forSampleFrames sampleFrames: Double, sampleRate: Double) -> MusicTimeStamp {
        beats(forSeconds: Self.seconds(forSampleFrames: sampleFrames, sampleRate: sampleRate))
    }

    /// Beats at the start of sample frame `sampleFrame`.
    /// - Thread: [any]
    public func beats(forSampleFrame sampleFrame: Int64, sampleRate: Double) -> MusicTimeStamp {
        beats(forSampleFrames: Double(sampleFrame), sampleRate: sampleRate)
    }
}
