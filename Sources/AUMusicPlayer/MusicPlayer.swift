import AUCore
import AUEngine
import Foundation
import AUMIDI

/// Core Audio's `MusicPlayer`: plays a ``MusicSequence`` into an ``AudioGraph``, sample-
/// accurately. Give it the graph (``setAUGraph(_:sampleRate:transport:)``, as
/// `MusicSequenceSetAUGraph` does) and a sequence, point tracks at nodes
/// (``MusicTrack/destination``, `MusicTrackSetDestNode`), then ``start()``. While the graph
/// renders, in whichever driver (JACK or an offline loop), every event lands at its exact
/// frame; ``setTime(_:)`` seeks, also while playing; ``stop()``, a seek and a loop end every
/// sounding note. The units see the player's transport (tempo, bar, beat, rolling).
///
/// Changes reach the render thread at the top of the next cycle, all at once.
/// - Thread: [control] (one control thread at a time).
public final class MusicPlayer: @unchecked Sendable {
    private let scheduler: MusicPlayerScheduler
    private var graph: AudioGraph?
    private var schedule: PlaybackSchedule?
    private var generation = 0
    /// What was last published.
    private var playing = false
    private var startBeat: MusicTimeStamp = 0
    private var rate = 1.0
    private var loop: Range<MusicTimeStamp>?
    /// Frames per second of the graph's output.
    public private(set) var sampleRate = 48_000.0

    /// The sequence played (`MusicPlayerGetSequence`); nil until set.
    public private(set) var sequence: MusicSequence?

    /// What keeps the player's time (``syncSource``).
    private var sync = MusicPlayerSyncSource.internal

    /// A player that publishes its transport into `transport` (a ``HostTransport`` the
    /// graph's units read), when given (`NewMusicPlayer`); with `sendsMIDIClock`, it also
    /// sends MIDI clock (24 a quarter note, start, stop, continue, song position) to the
    /// graph's MIDI output while it plays.
    /// - Thread: [control]
    public init(transport: HostTransport? = nil, sendsMIDIClock: Bool = false) {
        scheduler = MusicPlayerScheduler(transport: transport, sendsClock: sendsMIDIClock)
    }

    /// What keeps the player's time (the Core Audio Clock's sync mode): itself, the
    /// driver's transport (each cycle it takes the rolling state and frame the driver
    /// published in the ``HostTransport`` given at ``init(transport:sendsMIDIClock:)``: JACK
    /// transport, as any JACK client moves it), or MIDI clock at the graph's MIDI input.
    /// Following either, ``start()`` and ``stop()`` change nothing: the source does.
    /// - Thread: [control]
    public var syncSource: MusicPlayerSyncSource { sync }

    /// Sets ``syncSource``; the next plan of the graph reads its MIDI input for MIDI clock.
    /// - Thread: [control]
    public func setSyncSource(_ source: MusicPlayerSyncSource) throws(AudioUnitError) {
        sync = source
        scheduler.readsMIDIClock = source == .midiClock
        if let graph, graph.isInitialized { try graph.update() }
        if schedule != nil { publish(.continuePlaying) }
    }

    /// The song as a timeline of bars, beats and tempo at transport frames: what a timebase
    /// master publishes for the other clients (`auhost play --transport drive`).
    /// - Thread: [control]
    public private(set) lazy var timeline: TransportTimeline = PlayerTimeline(scheduler)

    /// Plays into `graph`, whose output runs at `sampleRate` (`MusicSequenceSetAUGraph`):
    /// attaches the player to it (the next plan routes the player's events; an initialized
    /// graph is updated now). Tracks without a destination go to the graph's MIDI input.
    /// - Thread: [control]
    public func setAUGraph(_ graph: AudioGraph, sampleRate: Double) throws(AudioUnitError) {
        guard sampleRate.isFinite, sampleRate > 0 else {
            throw AudioUnitError(.invalidPropertyValue, "the player's sample rate \(sampleRate) is not a positive number")
        }
        if let old = self.graph, old !== graph { try? old.setMIDIScheduler(nil) }
        try graph.setMIDIScheduler(scheduler)
        if graph.isInitialized { try graph.update() }
        self.graph = graph
        self.sampleRate = sampleRate
        // Parameter events find their slots in this graph's units.
        if let sequence { schedule = PlaybackSchedule(sequence, parameterSlot: parameterSlot, sysExQueue: sysExQueue) }
        if schedule != nil { publish(.locate) }
    }

    /// Plays `sequence` from its start (`MusicPlayerSetSequence`); while playing, the new
    /// sequence plays on from the same beat.
    /// - Thread: [control]
    public func setSequence(_ sequence: MusicSequence?) {
        startBeat = playing ? time : 0
        self.sequence = sequence
        scheduler.tracksToOutput = sequence?.tracks.contains { $0.destination == .graphOutput } ?? false
        schedule = sequence.map { PlaybackSchedule($0, parameterSlot: parameterSlot, sysExQueue: sysExQueue) }
        if schedule != nil { publish(.locate) } else { playing = false }
    }

    /// The slot of a parameter in the unit of a track's destination node, in the graph.
    private func parameterSlot(_ destination: MIDIEndpoint, _ address: ParameterAddress) -> Int? {
        guard let node = destination.node, let unit = try? graph?.unit(of: node) else { return nil }
        return unit.parameters.index(of: address)
    }

    /// The SysEx queue of the unit of a track's destination node, when it takes SysEx.
    private func sysExQueue(_ destination: MIDIEndpoint) -> SysExQueue? {
        guard let node = destination.node, let unit = try? graph?.unit(of: node) else { return nil }
        return (try? unit.value(of: SysExQueue.property)) ?? nil
    }

    /// Compiles the sequence for the render thread now rather than at ``start()``
    /// (`MusicPlayerPreroll`); compiling happens when the sequence is set, so this only
    /// checks that there is one.
    /// - Thread: [control]
    public func preroll() throws(AudioUnitError) {
        guard schedule != nil else { throw AudioUnitError(.uninitialized, "the player has no sequence") }
    }

    /// Starts playing from ``time`` (`MusicPlayerStart`).
    /// - Thread: [control]
    public func start() throws(AudioUnitError) {
        try preroll()
        guard graph != nil else { throw AudioUnitError(.uninitialized, "the player has no graph (setAUGraph)") }
        guard !playing else { return }
        startBeat = time
        playing = true
        publish(.locate)
    }

    /// Stops where it is, ending every sounding note (`MusicPlayerStop`).
    /// - Thread: [control]
    public func stop() {
        guard playing else { return }
        startBeat = time
        playing = false
        publish(.stopInPlace)
    }

    /// Whether it plays (`MusicPlayerIsPlaying`); following the host's transport, whether
    /// the last cycle played.
    /// - Thread: [control]
    public var isPlaying: Bool {
        guard sync != .internal else { return playing }
        return scheduler.clock.read(sampleRate: sampleRate)?.isPlaying ?? false
    }

    /// The song position in beats (`MusicPlayerGetTime`): while playing, where the next
    /// cycle starts.
    /// - Thread: [control]
    public var time: MusicTimeStamp {
        guard scheduler.adoptedGeneration.load(ordering: .acquiring) == generation || sync != .internal, generation != 0,
              let reading = scheduler.clock.read(sampleRate: sampleRate)
        else { return startBeat }
        return reading.beat
    }

    /// Moves to `beats` (`MusicPlayerSetTime`); while playing, it plays on from there at the
    /// next cycle, ending the notes that sounded.
    /// - Thread: [control]
    public func setTime(_ beats: MusicTimeStamp) throws(AudioUnitError) {
        guard beats.isFinite, beats >= 0 else { throw AudioUnitError(.invalidPropertyValue, "the time \(beats) is not a beat at or after 0") }
        startBeat = beats
        if schedule != nil { publish(.locate) }
    }

    /// How fast the sequence plays: 2 is twice as fast (`MusicPlayerSetPlayRateScalar`).
    /// - Thread: [control]
    public var playRateScalar: Double { rate }

    /// Sets the play-rate scalar (> 0, finite); playing notes go on.
    /// - Thread: [control]
    public func setPlayRateScalar(_ scalar: Double) throws(AudioUnitError) {
        guard scalar.isFinite, scalar > 0 else { throw AudioUnitError(.invalidPropertyValue, "the play rate \(scalar) is not a positive number") }
        startBeat = time
        rate = scalar
        if schedule != nil { publish(.continuePlaying) }
    }

    /// The part of the sequence the player repeats, in beats, or nil to play through: when
    /// the song reaches the upper bound it goes on from the lower one at that same frame
    /// (the notes sounding end there). Not Core Audio's (which loops tracks, through
    /// ``MusicTrack/loopInfo``), but what a whole song needs when its tempo changes.
    /// - Thread: [control]
    public var loopRange: Range<MusicTimeStamp>? { loop }

    /// Sets ``loopRange`` (bounds finite, at or after 0, not empty).
    /// - Thread: [control]
    public func setLoopRange(_ range: Range<MusicTimeStamp>?) throws(AudioUnitError) {
        if let range {
            guard range.lowerBound.isFinite, range.upperBound.isFinite, range.lowerBound >= 0, !range.isEmpty else {
                throw AudioUnitError(.invalidPropertyValue, "the loop \(range) is not a range of beats at or after 0")
            }
        }
        startBeat = time
        loop = range
        if schedule != nil { publish(.continuePlaying) }
    }

    /// The host time (nanoseconds, the driver's clock) at which `beats` plays or played at
    /// the current rate (`MusicPlayerGetHostTimeForBeats`); needs a playing player and a
    /// driver that gives host times.
    /// - Thread: [control]
    public func hostTime(forBeats beats: MusicTimeStamp) throws(AudioUnitError) -> UInt64 {
        let (reading, host, schedule) = try hostClock()
        let seconds = (schedule.seconds(forBeats: beats) - schedule.seconds(forBeats: reading.beat)) / rate
        let offset = (seconds * 1e9).rounded()
        return offset >= 0 ? host &+ UInt64(offset) : host &- UInt64(min(-offset, Double(host)))
    }

    /// The beat that plays or played at `hostTime` (`MusicPlayerGetBeatsForHostTime`).
    /// - Thread: [control]
    public func beats(forHostTime hostTime: UInt64) throws(AudioUnitError) -> MusicTimeStamp {
        let (reading, host, schedule) = try hostClock()
        let seconds = (hostTime >= host ? Double(hostTime - host) : -Double(host - hostTime)) / 1e9 * rate
        return schedule.beats(forSeconds: schedule.seconds(forBeats: reading.beat) + seconds)
    }

    /// Events the player could not deliver (a destination's cycle was full).
    /// - Thread: [control] (a hint while playing).
    public var droppedEvents: Int { scheduler.droppedEvents }

    /// The last reading with a host time, while playing.
    private func hostClock() throws(AudioUnitError) -> (PlayerClockReading.Reading, UInt64, PlaybackSchedule) {
        guard isPlaying, let schedule, scheduler.adoptedGeneration.load(ordering: .acquiring) == generation,
              let reading = scheduler.clock.read(sampleRate: sampleRate), let host = reading.hostTime
        else { throw AudioUnitError(.cannotDoInCurrentContext, "the player is not playing in a graph whose driver gives host times") }
        return (reading, host, schedule)
    }

    /// Publishes the player's state for the next cycle.
    private func publish(_ transition: PlayerCommand.Transition) {
        guard let schedule else { return }
        generation += 1
        scheduler.publish(PlayerCommand(
            generation: generation, schedule: schedule, transition: transition, isPlaying: playing, beat: startBeat, rate: rate, loop: loop,
            sampleRate: sampleRate, sync: sync))
    }
}
