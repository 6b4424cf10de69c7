import AUCore
import AUEngine

/// The player's outside connections, on the render thread: following the host's transport
/// (JACK transport: another client starts, stops and locates the song) and sending MIDI
/// clock to the graph's MIDI output.
extension MusicPlayerScheduler {
    /// Follows the transport the driver published for this cycle (JACK's, in
    /// ``HostTransport``): rolling or stopped as it is, at its frame (song seconds times the
    /// sample rate). A start, a stop or a jump of the frame ends the sounding notes and
    /// locates the song there at the cycle's first frame.
    /// - Thread: [render]
    func follow(_ command: PlayerCommand, at start: Int64, _ cycle: MIDISchedulingCycle) {
        guard let host = hostTransportState else { return }
        let sampleRate = side.pointee.sampleRate
        let isPlaying = side.pointee.isPlaying
        if isPlaying == host.isRolling {
            let expected = isPlaying ? second(atFrame: start) * sampleRate : command.schedule.seconds(forBeats: side.pointee.stoppedBeat) * sampleRate
            guard abs(expected - Double(host.frame)) > 0.5 else { return }
        }
        let beat = command.schedule.beats(forSeconds: Double(host.frame) / sampleRate)
        endSoundingNotes(at: start, cycleStart: start, cycle)
        side.pointee.isPlaying = host.isRolling
        side.pointee.rate = 1
        side.pointee.stoppedBeat = beat
        locate(command, to: beat, atFrame: start)
        if sendsClock { moveClock(to: beat, isPlaying: host.isRolling, cycle) }
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
        let tempo = UnsafeBufferPointer(schedule.tempo)
        while side.pointee.midiClock.isRolling {
            let beat = MIDIClockGenerator.beats(ofClock: side.pointee.midiClock.nextClock)
            let index = MusicTempoMap.segmentIndex(beat, in: tempo) { $0.startBeat }
            let segment = tempo[index]
            let clockSegment = MIDIClockGenerator.Segment(
                anchorBeat: segment.startBeat,
                anchorSampleTime: Double(side.pointee.anchorFrame) + (segment.startSecond - side.pointee.anchorSecond) * sampleRate / rate,
                samplesPerBeat: 60 / segment.bpm * sampleRate / rate,
                endBeat: index + 1 < tempo.count ? tempo[index + 1].startBeat : .infinity)
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
