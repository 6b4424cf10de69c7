import AUCore
import AUEngine
import Synchronization
import AUMIDI

/// The render side of a ``MusicPlayer``: attached to its graph as the ``MIDIScheduler``, it
/// takes the latest ``PlayerCommand`` at the top of each cycle and sends every event that
/// falls in the cycle to its track's destination at its exact sample offset: across tempo
/// changes, loop ends and play-rate changes, with each note's note-off at its end, and every
/// sounding note ended when the player stops, seeks or loops. It publishes the transport to
/// the units and its position to the control side.
///
/// Song time maps to frames through an anchor: the frame at which the song was at a given
/// second; an event at song second `s` plays at `anchorFrame + sampleFrame((s - anchorSecond) / rate)`
/// (``MusicTempoMap/sampleFrame(forSeconds:sampleRate:)``), so the frame of an event does not
/// depend on the cycle lengths.
/// - Thread: [render] for ``scheduleCycle(_:)``; [control] for the rest.
final class MusicPlayerScheduler: MIDIScheduler, @unchecked Sendable {
    /// The latest command's opaque pointer (0: none yet); the control side keeps it alive.
    private let latest = Atomic<UInt>(0)
    /// The generation the render thread took last.
    let adoptedGeneration = Atomic<Int>(0)
    /// What the render thread publishes after each cycle.
    let clock = PlayerClockReading()
    private let transport: Unmanaged<HostTransport>?
    private let transportOwner: HostTransport?
    /// Commands published and not yet known to be left behind (control side only).
    private let published = Mutex<[PlayerCommand]>([])
    /// Render-side state, in plain memory.
    let side: UnsafeMutablePointer<RenderSide>

    /// What the render thread keeps between cycles.
    struct RenderSide {
        var generation = 0
        var isPlaying = false
        var rate = 1.0
        var sampleRate = 48_000.0
        /// While playing: the frame at which the song was at `anchorSecond`.
        var anchorFrame: Int64 = 0
        var anchorSecond = 0.0
        /// While stopped: the song position, in beats.
        var stoppedBeat = 0.0
        var pending = PendingNoteOffs()
        /// MIDI clock out, when the player sends it.
        var midiClock = MIDIClockGenerator()
        /// MIDI clock in, when the player follows it.
        var clockIn = MIDIClockFollower(sampleRate: 48_000)
        /// The outside clock's song position (in clocks) the song was last anchored at.
        var clockInAnchor: Int64 = -1
        /// Rolling by MIDI clock, but no clock or tempo has come yet: nothing plays.
        var waitsForClock = false
        /// Where the clock writes before its events go to the graph's MIDI output.
        var clockEvents = UnsafeMutableBufferPointer<MIDIEvent>.allocate(capacity: 64)
        /// Events a destination could not take, or notes the pending list had no room for.
        var dropped = 0
    }

    /// Whether the player sends MIDI clock, and tracks to the graph's MIDI output (set before
    /// the graph is given the scheduler: they decide whether the driver opens a MIDI output).
    let sendsClock: Bool
    var tracksToOutput = false
    /// Whether the player follows MIDI clock at the graph's MIDI input (control side: the
    /// driver then opens a MIDI input).
    var readsMIDIClock = false

    /// A scheduler that publishes the transport into `transport`, when given.
    /// - Thread: [control]
    init(transport: HostTransport?, sendsClock: Bool) {
        self.sendsClock = sendsClock
        transportOwner = transport
        self.transport = transport.map { Unmanaged.passUnretained($0) }
        side = .allocate(capacity: 1)
        side.initialize(to: RenderSide())
    }

    deinit {
        side.pointee.pending.deallocate()
        side.pointee.clockEvents.deallocate()
        side.deallocate()
    }

    /// Makes `command` the one the next cycle takes, and lets go of those the render thread
    /// has left behind.
    /// - Thread: [control]
    func publish(_ command: PlayerCommand) {
        published.withLock { commands in
            commands.append(command)
            latest.store(UInt(bitPattern: Unmanaged.passUnretained(command).toOpaque()), ordering: .releasing)
            let adopted = adoptedGeneration.load(ordering: .acquiring)
            commands.removeAll { $0.generation < adopted && $0 !== command }
        }
    }

    /// Events dropped because a destination's buffer was full or the pending notes were.
    /// - Thread: [any] (a hint).
    var droppedEvents: Int { side.pointee.dropped }

    // MARK: - Render side

    override func scheduleCycle(_ cycle: MIDISchedulingCycle) {
        let bits = latest.load(ordering: .acquiring)
        guard bits != 0 else { return }
        Unmanaged<PlayerCommand>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)._withUnsafeGuaranteedRef { command in
            let start = Int64(cycle.timestamp.sampleTime.rounded(.down))
            if command.generation != side.pointee.generation { adopt(command, at: start, cycle) }
            switch command.sync {
            case .internal: break
            case .hostTransport: follow(command, at: start, cycle)
            case .midiClock: followMIDIClock(command, at: start, cycle)
            }
            let end = start + Int64(cycle.frameCount)
            publishTransport(command.schedule, at: start)
            if side.pointee.isPlaying && !side.pointee.waitsForClock { play(command, from: start, to: end, cycle) }
            clock.publish(beat: beat(atFrame: end, command.schedule), isPlaying: side.pointee.isPlaying, sampleTime: Double(end),
                          hostTime: cycle.timestamp.hostTime, hostTimeValid: cycle.timestamp.flags.contains(.hostTimeValid), frames: cycle.frameCount)
        }
    }

    override var sendsToGraphOutput: Bool { sendsClock || tracksToOutput }

    override var readsGraphInput: Bool { readsMIDIClock }

    /// Takes a new command at the cycle's first frame.
    private func adopt(_ command: PlayerCommand, at start: Int64, _ cycle: MIDISchedulingCycle) {
        let here = beat(atFrame: start, command.schedule)
        side.pointee.sampleRate = command.sampleRate
        side.pointee.clockIn.sampleRate = command.sampleRate
        switch command.transition {
        case .locate:
            endSoundingNotes(at: start, cycleStart: start, cycle)
            locate(command, to: command.beat, atFrame: start)
            if sendsClock { moveClock(to: command.beat, isPlaying: command.isPlaying, cycle) }
        case .stopInPlace:
            endSoundingNotes(at: start, cycleStart: start, cycle)
            locate(command, to: here, atFrame: start)
            if sendsClock { moveClock(to: here, isPlaying: false, cycle) }
        case .continuePlaying:
            side.pointee.anchorSecond = command.schedule.seconds(forBeats: here)
            side.pointee.anchorFrame = start
        }
        side.pointee.generation = command.generation
        side.pointee.isPlaying = command.isPlaying
        side.pointee.rate = command.rate
        if !command.isPlaying { side.pointee.stoppedBeat = command.transition == .locate ? command.beat : here }
        adoptedGeneration.store(command.generation, ordering: .releasing)
    }

    /// The song position at `frame`, in beats.
    func beat(atFrame frame: Int64, _ schedule: PlaybackSchedule) -> MusicTimeStamp {
        guard side.pointee.isPlaying else { return side.pointee.stoppedBeat }
        return schedule.beats(forSeconds: second(atFrame: frame))
    }

    /// The song second at `frame` while playing.
    @inline(__always)
    func second(atFrame frame: Int64) -> Double {
        side.pointee.anchorSecond + Double(frame - side.pointee.anchorFrame) / side.pointee.sampleRate * side.pointee.rate
    }

    /// The frame at song second `second` while playing.
    @inline(__always)
    func frame(atSecond second: Double) -> Int64 {
        side.pointee.anchorFrame + MusicTempoMap.sampleFrame(forSeconds: (second - side.pointee.anchorSecond) / side.pointee.rate, sampleRate: side.pointee.sampleRate)
    }

    /// Anchors the song at `beat` on `frame` and moves every track's cursor there.
    func locate(_ command: PlayerCommand, to beat: MusicTimeStamp, atFrame frame: Int64) {
        side.pointee.anchorSecond = command.schedule.seconds(forBeats: beat)
        side.pointee.anchorFrame = frame
        for index in command.schedule.tracks.indices { command.schedule.tracks[index].seek(to: beat) }
        command.schedule.rebuildUpcoming()
    }

    /// Plays the cycle `[start, end)`: events up to the loop's end, then from its start again.
    private func play(_ command: PlayerCommand, from start: Int64, to end: Int64, _ cycle: MIDISchedulingCycle) {
        var from = start
        while true {
            guard let loop = command.loop else { break }
            let loopEnd = max(from, frame(atSecond: command.schedule.seconds(forBeats: loop.upperBound)))
            guard loopEnd < end else { break }
            send(command.schedule, until: loopEnd, cycleStart: start, cycle)
            if sendsClock { sendClock(command.schedule, until: loopEnd, cycleStart: start, cycle) }
            endSoundingNotes(at: loopEnd, cycleStart: start, cycle)
            locate(command, to: loop.lowerBound, atFrame: loopEnd)
            if sendsClock { moveClock(to: loop.lowerBound, isPlaying: true, cycle, offset: Int32(loopEnd - start)) }
            // A loop shorter than a frame would never let the cycle end.
            guard frame(atSecond: command.schedule.seconds(forBeats: loop.upperBound)) > loopEnd else { break }
            from = loopEnd
        }
        send(command.schedule, until: end, cycleStart: start, cycle)
        if sendsClock { sendClock(command.schedule, until: end, cycleStart: start, cycle) }
    }

    /// Sends, in time order, every note-off and track event due before frame `until`; at
    /// one frame, note-offs go first (a note ending where the same note starts again).
    private func send(_ schedule: PlaybackSchedule, until: Int64, cycleStart: Int64, _ cycle: MIDISchedulingCycle) {
        let tracks = schedule.tracks
        while true {
            let next = schedule.nextUpcoming
            let trackFrame = next.map { frame(atSecond: schedule.seconds(forBeats: $0.beat)) } ?? Int64.max
            if let entry = side.pointee.pending.earliest() {
                let offFrame = frame(atSecond: entry.second)
                if offFrame <= trackFrame, offFrame < until {
                    deliver(entry.event, to: entry.destination, atFrame: offFrame, cycleStart: cycleStart, cycle)
                    side.pointee.pending.removeEarliest()
                    continue
                }
            }
            guard let trackIndex = next?.track, trackFrame < until else { return }
            let track = tracks[trackIndex]
            let event = track.events[track.index]
            schedule.advanceUpcoming()
            if event.kind == .parameter {
                setParameter(event, of: track.destination, atFrame: trackFrame, cycleStart: cycleStart, cycle)
                continue
            }
            if event.kind == .sysEx {
                sendSysEx(event, of: track, atFrame: trackFrame, cycle)
                continue
            }
            deliver(MIDIEvent(offset: 0, status: event.status, data1: event.data1, data2: event.data2),
                    to: track.destination, atFrame: trackFrame, cycleStart: cycleStart, cycle)
            guard event.kind == .note else { continue }
            let beat = track.offset + Double(track.pass) * track.loopDuration + event.beat
            let off = PendingNoteOffs.Entry(
                second: schedule.seconds(forBeats: beat + event.duration),
                event: MIDIEvent(offset: 0, status: 0x80 | (event.status & 0x0F), data1: event.data1, data2: event.releaseVelocity),
                destination: track.destination)
            if !side.pointee.pending.add(off) {
                side.pointee.dropped += 1
                deliver(off.event, to: off.destination, atFrame: trackFrame, cycleStart: cycleStart, cycle)
            }
        }
    }

    /// Sends every pending note-off at `frame`.
    func endSoundingNotes(at frame: Int64, cycleStart: Int64, _ cycle: MIDISchedulingCycle) {
        let pending = side.pointee.pending
        for index in 0..<pending.count {
            deliver(pending.entries[index].event, to: pending.entries[index].destination, atFrame: frame, cycleStart: cycleStart, cycle)
        }
        side.pointee.pending.count = 0
    }

    @inline(__always)
    func deliver(_ event: MIDIEvent, to destination: MIDIEndpoint, atFrame frame: Int64, cycleStart: Int64, _ cycle: MIDISchedulingCycle) {
        var event = event
        event.offset = Int32(clamping: max(0, frame - cycleStart))
        if !cycle.send(event, to: destination) { side.pointee.dropped += 1 }
    }

    /// Sets a parameter event's value on its destination's unit at `frame`.
    @inline(__always)
    private func setParameter(_ event: PlaybackSchedule.Event, of destination: MIDIEndpoint, atFrame frame: Int64, cycleStart: Int64, _ cycle: MIDISchedulingCycle) {
        guard case .node(let node) = destination,
              cycle.setParameter(at: Int(event.parameterSlot), value: event.value, offset: Int32(clamping: max(0, frame - cycleStart)), of: node)
        else {
            side.pointee.dropped += 1
            return
        }
    }

    /// Queues a SysEx event for its destination's unit at `frame` (the unit applies it at
    /// that sample time in its render).
    @inline(__always)
    private func sendSysEx(_ event: PlaybackSchedule.Event, of track: PlaybackSchedule.Track, atFrame frame: Int64, _ cycle: MIDISchedulingCycle) {
        // Pointer arithmetic, not a slice: a slice type first met here would have the runtime
        // allocate its metadata on the render thread.
        let bytes = UnsafeBufferPointer(start: track.bytes.baseAddress! + Int(event.bytes.lowerBound), count: Int(event.bytes.upperBound - event.bytes.lowerBound))
        let cycleStart = Int64(cycle.timestamp.sampleTime.rounded(.down))
        let sampleTime = cycleStart + min(max(0, frame - cycleStart), Int64(max(0, cycle.frameCount - 1)))
        guard let queue = track.sysEx, queue._withUnsafeGuaranteedRef({ $0.sendFromRender(bytes, atSampleTime: sampleTime) }) else {
            side.pointee.dropped += 1
            return
        }
    }

    /// The latest command's schedule, for ``PlayerTimeline`` (never freed while it is the latest).
    /// - Thread: [render]
    var latestSchedule: Unmanaged<PlaybackSchedule>? {
        let bits = latest.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Unmanaged<PlayerCommand>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.schedule) }
    }

    /// The transport the driver published for this cycle, before the player's replaces it.
    var hostTransportState: TransportState? { transport?._withUnsafeGuaranteedRef { $0.state } }

    /// Publishes the transport at the cycle's first frame for its units.
    private func publishTransport(_ schedule: PlaybackSchedule, at start: Int64) {
        guard let transport else { return }
        let beat = beat(atFrame: start, schedule)
        let state = schedule.transport(
            atBeats: beat, seconds: schedule.seconds(forBeats: beat), sampleRate: side.pointee.sampleRate, rate: side.pointee.rate,
            isRolling: side.pointee.isPlaying)
        transport._withUnsafeGuaranteedRef { $0.state = state }
    }
}
