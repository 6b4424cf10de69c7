import AUCore

/// MIDI clock in: follows an outside MIDI clock's Timing Clock (F8), Start (FA), Continue
/// (FB), Stop (FC) and Song Position Pointer (F2) into a tempo and a transport (rolling, and
/// the song position in beats).
///
/// The tempo is the mean clock spacing over a sliding window of the last 48 clocks (two
/// beats): `(time of the newest clock - time of the clock 48 before) / 48`, or over all
/// clocks since the window began while it fills. A window of equal weights is exact for a
/// steady clock and bounds the error by the jitter: with clock times off by up to `j`
/// samples each, the spacing is off by at most `2j / 48`. A tempo change is followed fully
/// 48 clocks after it (the estimate moves straight from one tempo to the other over those
/// 48). A spacing below half or above twice the estimate (a clock that stopped and
/// started again, a jump in time) starts the window again at that clock.
///
/// Transport: Start puts the song position at 0 and Continue keeps it; the first clock
/// after either marks that position, and each later clock moves it 1/24 beat. Stop holds
/// it; a song position pointer moves it to its sixteenth. Clocks while stopped keep only
/// the tempo going.
///
/// A value of plain integers, mutated in place (the window is an `InlineArray`): nothing
/// here allocates, locks or retains.
/// - Thread: [render]
public struct MIDIClockFollower: Sendable, BitwiseCopyable {
    /// Clocks over which the tempo is averaged: 2 beats.
    /// - Thread: [any]
    public static let window = 48

    /// Samples per second of the sample times clocks arrive at.
    public var sampleRate: Double
    /// Whether the outside transport rolls (after Start or Continue, until Stop).
    public private(set) var isRolling = false
    /// The song position, in clocks, of the next clock received while rolling.
    public private(set) var nextClock: Int64 = 0
    /// The song position and sample time of the last clock received while rolling, since the
    /// last Start, Continue or song position pointer.
    private var lastClock: (number: Int64, sampleTime: Int64)?
    /// The sample times of the newest `window + 1` clocks, a ring ending at `newestIndex`.
    private var clockTimes = InlineArray<49, Int64>(repeating: 0)
    /// How many of `clockTimes` belong to the window (at most `window + 1`).
    private var clockTimeCount = 0
    /// Where in `clockTimes` the newest clock's time is.
    private var newestIndex = 0

    /// A follower that has heard nothing: stopped at beat 0, no tempo.
    /// - Thread: [any]
    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
    }

    /// The song position (in clocks) and sample time of the last clock received while
    /// rolling, nil before the first clock after Start, Continue or a song position pointer.
    /// - Thread: [any]
    public var lastClockPosition: (clock: Int64, sampleTime: Int64)? { lastClock.map { ($0.number, $0.sampleTime) } }

    /// The mean spacing of the window's clocks in samples (nil before two clocks).
    /// - Thread: [any]
    public var samplesPerClock: Double? {
        guard clockTimeCount >= 2 else { return nil }
        let oldestIndex = (newestIndex - (clockTimeCount - 1) + clockTimes.count) % clockTimes.count
        return Double(clockTimes[newestIndex] - clockTimes[oldestIndex]) / Double(clockTimeCount - 1)
    }

    /// The outside clock's tempo in BPM (nil before two clocks).
    /// - Thread: [any]
    public var bpm: Double? {
        samplesPerClock.map { sampleRate * 60 / ($0 * Double(MIDIClockGenerator.clocksPerBeat)) }
    }

    /// The song position in beats at `sampleTime`: rolling, the last clock's beat plus the
    /// time since it at the estimated tempo (none before a tempo), at most up to the next
    /// clock's beat; stopped or waiting for the first clock after Start or Continue, the next
    /// clock's beat.
    /// - Thread: [any]
    public func beats(atSampleTime sampleTime: Int64) -> MusicTimeStamp {
        guard isRolling, let lastClock else { return MIDIClockGenerator.beats(ofClock: nextClock) }
        let elapsed = Double(sampleTime - lastClock.sampleTime)
        let fraction = samplesPerClock.map { min(max(elapsed / $0, 0), 1) } ?? 0
        return (Double(lastClock.number) + fraction) / Double(MIDIClockGenerator.clocksPerBeat)
    }

    /// Takes `event`, received in the cycle that starts at sample time `cycleSampleTime`;
    /// messages other than clock sync are ignored.
    /// - Thread: [render]
    public mutating func receive(_ event: MIDIEvent, cycleSampleTime: Int64) {
        guard let status = MIDIClockStatus(rawValue: event.status) else { return }
        let sampleTime = cycleSampleTime &+ Int64(event.offset)
        switch status {
        case .timingClock:
            measure(sampleTime)
            guard isRolling else { return }
            lastClock = (nextClock, sampleTime)
            nextClock += 1
        case .start:
            nextClock = 0
            lastClock = nil
            isRolling = true
        case .continue:
            lastClock = nil
            isRolling = true
        case .stop:
            isRolling = false
        case .songPositionPointer:
            nextClock = MIDIClockStatus.sixteenths(ofSongPositionPointer: event) * MIDIClockStatus.clocksPerSixteenth
            lastClock = nil
        }
    }

    /// Adds a clock at `sampleTime` to the window, first starting the window again when the
    /// spacing is not positive or lies outside half to twice the estimate.
    private mutating func measure(_ sampleTime: Int64) {
        if clockTimeCount > 0 {
            let spacing = Double(sampleTime - clockTimes[newestIndex])
            let estimate = samplesPerClock ?? spacing
            if spacing <= 0 || spacing < estimate / 2 || spacing > estimate * 2 { clockTimeCount = 0 }
        }
        newestIndex = (newestIndex + 1) % clockTimes.count
        clockTimes[newestIndex] = sampleTime
        clockTimeCount = min(clockTimeCount + 1, Self.window + 1)
    }
}
