import AUCore
import AUEngine
import AUMIDI

/// The player's outside connections, on the render thread: following the host's transport
/// (JACK transport: another client starts, stops and locates the song) and sending MIDI
/// clock to the graph's MIDI output.
extension MusicPlayerScheduler {
    /// The most a rolling transport may drift from the song's position (an xrun) and be
    /// followed without a locate, in seconds.
    static let slipSeconds = 0.25

    /// Follows the transport the driver published for this cycle (JACK's, in
    /// ``HostTransport``): rolling or stopped as it is, at its frame (song seconds times the
    /// sample rate). A start, a stop or a jump of the frame ends the sounding notes and
    /// locates the song there at the cycle's first frame; a start first seen less than
    /// ``slipSeconds`` past where the transport stood plays from where it stood, late.
    /// - Thread: [render]
    func follow(_ command: PlayerCommand, at start: Int64, _ cycle: MIDISchedulingCycle) {
        guard let host = hostTransportState else { return }
        let sampleRate = side.pointee.sampleRate
        let isPlaying = side.pointee.isPlaying
        if isPlaying == host.isRolling {
            let expected = isPlaying ? second(atFrame: start) * sampleRate : command.schedule.seconds(forBeats: side.pointee.stoppedBeat) * sampleRate
            let slip = Double(host.frame) - expected
            guard abs(slip) > 0.5 else { return }
            // A small slip while rolling (an xrun: the driver skipped cycles the transport
            // did not count) moves the anchor; the sounding notes go on.
            if isPlaying, slip > -sampleRate * Self.slipSeconds, slip < sampleRate * Self.slipSeconds {
                side.pointee.anchorSecond = Double(host.frame) / sampleRate
                side.pointee.anchorFrame = start
                return
            }
        }
        let beat = command.schedule.beats(forSeconds: Double(host.frame) / sampleRate)
        // A start read late: the driver's cycle after the transport's start ran a period or
        // more late (an xrun), and JACK had already rolled past where it stood. The song
        // starts where it stood on the transport's timeline, so what lies between (a note
        // right at a locate's target) plays at once instead of never.
        let stood = command.schedule.seconds(forBeats: side.pointee.stoppedBeat) * sampleRate
        let late = (Double(host.frame) - stood).rounded()
        let startsLate = !isPlaying && host.isRolling && late > 0 && late < sampleRate * Self.slipSeconds
        let from = startsLate ? side.pointee.stoppedBeat : beat
        endSoundingNotes(at: start, cycleStart: start, cycle)
        side.pointee.isPlaying = host.isRolling
        side.pointee.rate = 1
        side.pointee.stoppedBeat = beat
        locate(command, to: from, atFrame: startsLate ? start - Int64(late) : start)
        if sendsClock { moveClock(to: beat, isPlaying: host.isRolling, cycle) }
    }

    /// Follows MIDI clock at the graph's MIDI input: takes the cycle's clock messages, then
    /// plays as the outside transport does. A start, a stop or a jump of the outside song
    /// position ends the sounding notes and locates the song; while rolling, the song is
    /// anchored at the last clock (its beat on its frame) and plays at the outside tempo
    /// (the play rate is the clock's tempo over the song's there), so each event lands where
    /// the outside clock puts its beat.
    /// - Thread: [render]
    func followMIDIClock(_ command: PlayerCommand, at start: Int64, _ cycle: MIDISchedulingCycle) {
        for event in cycle.graphInputEvents where event.status >= 0xF2 { side.pointee.clockIn.receive(event, cycleSampleTime: start) }
        let clockIn = side.pointee.clockIn
        let clock = clockIn.lastClockPosition
        let moved = clock.map { $0.clock < side.pointee.clockInAnchor || $0.clock > side.pointee.clockInAnchor + 2 * MIDIClockGenerator.clocksPerBeat } ?? false
        if clockIn.isRolling != side.pointee.isPlaying || (clockIn.isRolling && moved && side.pointee.clockInAnchor >= 0) {
            let beat = clock.map { MIDIClockGenerator.beats(ofClock: $0.clock) } ?? MIDIClockGenerator.beats(ofClock: clockIn.nextClock)
            endSoundingNotes(at: start, cycleStart: start, cycle)
            side.pointee.isPlaying = clockIn.isRolling
            side.pointee.stoppedBeat = beat
            locate(command, to: beat, atFrame: start)
            side.pointee.clockInAnchor = clock?.clock ?? -1
        }
        // Rolling, but no clock yet: nothing plays until the first one marks the position.
        side.pointee.waitsForClock = clockIn.isRolling && clock == nil
        guard clockIn.isRolling, let clock else { return }
        let beat = MIDIClockGenerator.beats(ofClock: clock.clock)
        let songBPM = MusicTempoMap.segment(atBeats: beat, in: UnsafeBufferPointer(command.schedule.tempo)).bpm
        side.pointee.anchorFrame = clock.sampleTime
        side.pointee.anchorSecond = command.schedule.seconds(forBeats: beat)
        // Until a second clock gives a tempo, the song's own.
        side.pointee.rate = (clockIn.bpm ?? songBPM) / songBPM
        side.pointee.clockInAnchor = clock.clock
    }

    /// The clock's answer to a start, stop or locate at `beat`: Start or Continue with a
    /// song position, Stop, or a song position, at `offset` into the cycle.
    /// - Thread: [render]
    func moveClock(to beat: MusicTimeStamp, isPlaying: Bool, _ cycle: MIDISchedulingCycle, offset: Int32 = 0) {
        var count = 0
        let events = side.pointee.clockEvents
        if isPlaying && side.pointee.midiClock.isRolling {
            side.pointee.midiClock.locate(toBeats: beat, offset: offset, into: events, count: &count)
        } else if isPlaying {
            side.pointee.midiClock.start(atBeats: beat, offset: offset, into: events, count: &count)
        } else {
            side.pointee.midiClock.stop(offset: offset, into: events, count: &count)
            side.pointee.midiClock.locate(toBeats: beat, offset: offset, into: events, count: &count)
        }
        sendClockEvents(count, cycle)
    }

    /// The clocks (24 a beat) due before frame `until`, through each tempo segment crossed.
    /// - Thread: [render]
    func sendClock(_ schedule: PlaybackSchedule, until: Int64, cycleStart: Int64, _ cycle: MIDISchedulingCycle) {
        let sampleRate = side.pointee.sampleRate, rate = side.pointee.rate
        // Beat 0 falls where the anchor's line puts second 0.
        let songStart = Double(side.pointee.anchorFrame) - side.pointee.anchorSecond * sampleRate / rate
        while side.pointee.midiClock.isRolling {
            let clockSegment = MIDIClockGenerator.Segment(
                tempo: UnsafeBufferPointer(schedule.tempo), atBeats: MIDIClockGenerator.beats(ofClock: side.pointee.midiClock.nextClock),
                sampleRate: sampleRate, songStartSampleTime: songStart, playRate: rate)
            var count = 0
            side.pointee.midiClock.render(
                clockSegment, cycleSampleTime: cycleStart, frameCount: Int(until - cycleStart), into: side.pointee.clockEvents, count: &count)
            sendClockEvents(count, cycle)
            let crossed = MIDIClockGenerator.beats(ofClock: side.pointee.midiClock.nextClock) >= clockSegment.endBeat
            guard crossed || count == side.pointee.clockEvents.count else { return }
        }
    }

    /// Sends the first `count` clock events to the graph's MIDI output.
    private func sendClockEvents(_ count: Int, _ cycle: MIDISchedulingCycle) {
        for index in 0..<count where !cycle.send(side.pointee.clockEvents[index], to: .graphOutput) { side.pointee.dropped += 1 }
    }
}
