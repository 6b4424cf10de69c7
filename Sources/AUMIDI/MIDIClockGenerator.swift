import AUCore

/// MIDI clock out: writes Timing Clock (F8) 24 times per quarter note at exact sample
/// offsets into a render cycle's event buffer, and Start (FA), Stop (FC), Continue (FB) and
/// Song Position Pointer (F2) when the transport starts, stops or locates.
///
/// Clock `n` of a run falls at beat `n / 24`; its sample time is computed from its beat
/// through the tempo segment in force there (`Segment`: a straight line from the segment's
/// start, never from the previous clock), rounded to the nearest sample. So nothing
/// accumulates, and the clocks land on the same samples whatever the block size. The first
/// clock after Start marks beat 0; after Continue, the position the song position pointer
/// gave. Clocks go out only while the transport rolls.
///
/// A value of plain integers and flags, mutated in place: nothing here allocates, locks or
/// retains, so it lives in the render state and is called once or more per cycle.
/// - Thread: [render]
public struct MIDIClockGenerator: Sendable, BitwiseCopyable {
    /// Clocks per quarter note.
    /// - Thread: [any]
    public static let clocksPerBeat: Int64 = 24

    /// A stretch of constant tempo mapped to the driver's sample time: beat `b` falls at
    /// sample time `anchorSampleTime + (b - anchorBeat) * samplesPerBeat`, for beats before
    /// `endBeat`.
    /// - Thread: [any]
    public struct Segment: Sendable, BitwiseCopyable, Equatable {
        /// The beat of the segment's start (a tempo change, or beat 0).
        public var anchorBeat: MusicTimeStamp
        /// The driver's sample time at `anchorBeat`.
        public var anchorSampleTime: Double
        /// Samples per beat: `60 * sampleRate / (bpm * playRate)`.
        public var samplesPerBeat: Double
        /// The beat where the next segment starts (`.infinity` for the last).
        public var endBeat: MusicTimeStamp

        /// A segment of its parts.
        /// - Thread: [any]
        public init(anchorBeat: MusicTimeStamp, anchorSampleTime: Double, samplesPerBeat: Double,
                    endBeat: MusicTimeStamp = .infinity) {
            self.anchorBeat = anchorBeat
            self.anchorSampleTime = anchorSampleTime
            self.samplesPerBeat = samplesPerBeat
            self.endBeat = endBeat
        }

        /// The tempo segment of `tempoMap` in force at `beats`, for a transport on which
        /// beat 0 falls at the driver's sample time `songStartSampleTime` and the song runs
        /// `playRate` times as fast as sample time. Does not allocate.
        /// - Thread: [any]
        public init(tempoMap: MusicTempoMap, atBeats beats: MusicTimeStamp, sampleRate: Double,
                    songStartSampleTime: Double, playRate: Double = 1) {
            self = tempoMap.segments.withUnsafeBufferPointer {
                Segment(tempo: $0, atBeats: beats, sampleRate: sampleRate, songStartSampleTime: songStartSampleTime, playRate: playRate)
            }
        }

        /// The same from a tempo map's segments in plain memory (the player's, on the render
        /// thread).
        package init(tempo segments: UnsafeBufferPointer<MusicTempoMap.Segment>, atBeats beats: MusicTimeStamp, sampleRate: Double,
             songStartSampleTime: Double, playRate: Double) {
            let index = MusicTempoMap.segmentIndex(beats, in: segments) { $0.startBeat }
            let segment = segments[index]
            let samplesPerSecond = sampleRate / playRate
            self.init(anchorBeat: segment.startBeat,
                      anchorSampleTime: songStartSampleTime + segment.startSecond * samplesPerSecond,
                      samplesPerBeat: 60 / segment.bpm * samplesPerSecond,
                      endBeat: index + 1 < segments.count ? segments[index + 1].startBeat : .infinity)
        }

        /// The sample time of `beats`, rounded to the nearest sample (clamped to `Int64`).
        /// - Thread: [any]
        public func sampleTime(forBeats beats: MusicTimeStamp) -> Int64 {
            Int64(clamping: anchorSampleTime + (beats - anchorBeat) * samplesPerBeat,
                  rounding: .toNearestOrAwayFromZero)
        }
    }

    /// The number of the next clock to send: it falls at beat `nextClock / 24`.
    public private(set) var nextClock: Int64 = 0
    /// Whether the transport rolls (after Start or Continue, until Stop).
    public private(set) var isRolling = false

    /// A stopped generator at song position 0.
    /// - Thread: [any]
    public init() {}

    /// The beat of clock `clock`.
    /// - Thread: [any]
    public static func beats(ofClock clock: Int64) -> MusicTimeStamp {
        Double(clock) / Double(clocksPerBeat)
    }

    /// Starts the transport at `beats`: from beat 0 (or before) Start, and clocks from beat 0;
    /// elsewhere a song position pointer at the first sixteenth at or after `beats`, then
    /// Continue, and clocks from that sixteenth. Written at `offset`; false, and nothing
    /// changed, when `events` has no room for them past `count`. Nothing when rolling.
    /// - Thread: [render]
    @discardableResult
    public mutating func start(atBeats beats: MusicTimeStamp, offset: Int32,
                               into events: UnsafeMutableBufferPointer<MIDIEvent>,
                               count: inout Int) -> Bool {
        guard !isRolling else { return true }
        let sixteenths = Self.sixteenths(atOrAfter: beats)
        let written = sixteenths == 0
            ? Self.append(MIDIClockStatus.start.event(offset: offset), into: events, count: &count)
            : Self.append(MIDIClockStatus.songPositionPointer(sixteenths: sixteenths, offset: offset),
                          MIDIClockStatus.continue.event(offset: offset), into: events, count: &count)
        guard written else { return false }
        nextClock = sixteenths * MIDIClockStatus.clocksPerSixteenth
        isRolling = true
        return true
    }

    /// Stops the transport: Stop at `offset`; false, and still rolling, when `events` is full.
    /// Nothing when stopped.
    /// - Thread: [render]
    @discardableResult
    public mutating func stop(offset: Int32, into events: UnsafeMutableBufferPointer<MIDIEvent>,
                              count: inout Int) -> Bool {
        guard isRolling else { return true }
        guard Self.append(MIDIClockStatus.stop.event(offset: offset), into: events, count: &count)
        else { return false }
        isRolling = false
        return true
    }

    /// Moves the song position to the first sixteenth at or after `beats`: stopped, a song
    /// position pointer; rolling, Stop, the pointer and Continue (receivers take a pointer
    /// only when stopped), and clocks go on from that sixteenth. False, and nothing changed,
    /// when `events` has no room for them.
    /// - Thread: [render]
    @discardableResult
    public mutating func locate(toBeats beats: MusicTimeStamp, offset: Int32,
                                into events: UnsafeMutableBufferPointer<MIDIEvent>,
                                count: inout Int) -> Bool {
        let sixteenths = Self.sixteenths(atOrAfter: beats)
        let pointer = MIDIClockStatus.songPositionPointer(sixteenths: sixteenths, offset: offset)
        let written = isRolling
            ? Self.append(MIDIClockStatus.stop.event(offset: offset), pointer,
                          MIDIClockStatus.continue.event(offset: offset), into: events, count: &count)
            : Self.append(pointer, into: events, count: &count)
        if written { nextClock = sixteenths * MIDIClockStatus.clocksPerSixteenth }
        return written
    }

    /// Writes the clocks of `segment` that fall in the cycle of `frameCount` frames from the
    /// driver's sample time `cycleSampleTime`: each clock from `nextClock` on whose beat is
    /// before `segment.endBeat` and whose sample time is before the cycle's end, at its
    /// offset in the cycle (a clock due before the cycle, as after a full buffer, goes at
    /// offset 0). Stops when `events` is full; the rest follow in the next cycle.
    /// - Thread: [render]
    public mutating func render(_ segment: Segment, cycleSampleTime: Int64, frameCount: Int,
                                into events: UnsafeMutableBufferPointer<MIDIEvent>,
                                count: inout Int) {
        guard isRolling else { return }
        let cycleEnd = cycleSampleTime &+ Int64(frameCount)
        while count < events.count {
            let beats = Self.beats(ofClock: nextClock)
            guard beats < segment.endBeat else { return }
            let sampleTime = segment.sampleTime(forBeats: beats)
            guard sampleTime < cycleEnd else { return }
            events[count] = MIDIClockStatus.timingClock.event(offset: Int32(max(sampleTime - cycleSampleTime, 0)))
            count += 1
            nextClock += 1
        }
    }

    /// Writes the cycle's clocks through every tempo segment of `tempoMap` it crosses, for
    /// a transport on which beat 0 falls at sample time `songStartSampleTime`, running
    /// `playRate` times as fast as sample time (see `render(_:cycleSampleTime:...)`).
    /// Reads the map in place; does not allocate.
    /// - Thread: [render]
    public mutating func render(tempoMap: MusicTempoMap, sampleRate: Double, songStartSampleTime: Double,
                                playRate: Double = 1, cycleSampleTime: Int64, frameCount: Int,
                                into events: UnsafeMutableBufferPointer<MIDIEvent>,
                                count: inout Int) {
        while isRolling {
            let segment = Segment(tempoMap: tempoMap, atBeats: Self.beats(ofClock: nextClock),
                                  sampleRate: sampleRate, songStartSampleTime: songStartSampleTime,
                                  playRate: playRate)
            render(segment, cycleSampleTime: cycleSampleTime, frameCount: frameCount,
                   into: events, count: &count)
            guard Self.beats(ofClock: nextClock) >= segment.endBeat else { return }
        }
    }

    /// The first sixteenth note at or after `beats` (0 for beats at or before 0; a beat
    /// within 1e-9 past a sixteenth counts as that sixteenth).
    private static func sixteenths(atOrAfter beats: MusicTimeStamp) -> Int64 {
        max(Int64(clamping: beats * 4 - 1e-9, rounding: .up), 0)
    }

    /// Writes `first`, then `second` and `third` when given, after `count` when they all fit
    /// (no array: nothing allocates).
    private static func append(_ first: MIDIEvent, _ second: MIDIEvent? = nil, _ third: MIDIEvent? = nil,
                               into events: UnsafeMutableBufferPointer<MIDIEvent>,
                               count: inout Int) -> Bool {
        let needed = 1 + (second == nil ? 0 : 1) + (third == nil ? 0 : 1)
        guard events.count - count >= needed else { return false }
        events[count] = first
        count += 1
        if let second {
            events[count] = second
            count += 1
        }
        if let third {
            events[count] = third
            count += 1
        }
        return true
    }
}
