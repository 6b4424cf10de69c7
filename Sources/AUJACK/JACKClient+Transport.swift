import AUCore
import CJack

/// JACK transport: starting, stopping and locating it for every client of the server,
/// reading it, and publishing bar, beat and tempo as its timebase master.
extension JACKClient {
    /// Starts JACK transport rolling (for every client of the server).
    /// - Thread: [control]
    public func startTransport() { jack_transport_start(handle) }

    /// Stops JACK transport.
    /// - Thread: [control]
    public func stopTransport() { jack_transport_stop(handle) }

    /// Moves JACK transport to `frame` (from the next cycle on, for every client).
    /// - Thread: [control]
    public func locateTransport(toFrame frame: Int64) { jack_transport_locate(handle, jack_nframes_t(clamping: max(0, frame))) }

    /// JACK transport now, as ``TransportState``: rolling, frame, and bar, beat and tempo
    /// when a timebase master gives them (else beats counted from the frame at 120 BPM).
    /// - Thread: [any] (`jack_transport_query` is real-time safe).
    public var transportState: TransportState {
        var position = jack_position_t()
        let state = jack_transport_query(handle, &position)
        return TransportState(jackPosition: position, isRolling: state == JackTransportRolling)
    }

    /// Makes the client JACK's timebase master: every cycle JACK asks `timeline` for the
    /// bar, beat, tick and tempo at the transport's frame and gives them to every client.
    /// Fails when another client is master.
    /// - Thread: [control]
    public func becomeTimebaseMaster(_ timeline: TransportTimeline) throws(JACKError) {
        timebaseTimeline = timeline
        let argument = Unmanaged.passUnretained(timeline).toOpaque()
        guard jack_set_timebase_callback(handle, 1, { _, _, position, _, argument in
            guard let position, let argument else { return }
            let timeline = Unmanaged<TransportTimeline>.fromOpaque(argument)
            let rate = Double(position.pointee.frame_rate)
            guard rate > 0 else { return }
            let state = timeline._withUnsafeGuaranteedRef { $0.state(atFrame: Int64(position.pointee.frame), sampleRate: rate) }
            position.pointee.publish(state)
        }, argument) == 0 else {
            timebaseTimeline = nil
            throw JACKError("another JACK client is the timebase master; stop it or use --transport follow")
        }
    }

    /// Gives up being timebase master.
    /// - Thread: [control]
    public func releaseTimebase() {
        guard timebaseTimeline != nil else { return }
        jack_release_timebase(handle)
        timebaseTimeline = nil
    }
}

extension TransportState {
    /// A JACK position as a transport state: BBT when valid (bars and beats from 1 in JACK,
    /// from 0 here), else beats from the frame at 120 BPM 4/4.
    /// - Thread: [any]
    init(jackPosition position: jack_position_t, isRolling: Bool) {
        self.init(isRolling: isRolling, frame: Int64(position.frame))
        if position.valid.rawValue & JackPositionBBT.rawValue != 0, position.beats_per_bar > 0, position.ticks_per_beat > 0 {
            beatsPerMinute = position.beats_per_minute
            beatsPerBar = Double(position.beats_per_bar)
            beatUnit = Int(position.beat_type)
            bar = Int(position.bar) - 1
            let tick = position.valid.rawValue & JackTickDouble.rawValue != 0 ? position.tick_double : Double(position.tick)
            beatInBar = Double(position.beat - 1) + tick / position.ticks_per_beat
            beat = Double(bar) * beatsPerBar + beatInBar
        } else if position.frame_rate > 0 {
            beat = Double(position.frame) / Double(position.frame_rate) * beatsPerMinute / 60
            bar = Int(beat / beatsPerBar)
            beatInBar = beat - Double(bar) * beatsPerBar
        }
    }
}

extension jack_position_t {
    /// JACK's ticks per beat when AUHost is timebase master.
    static let ticksPerBeat = 1920.0

    /// Writes `state`'s bar, beat, tick, signature and tempo (BBT valid).
    /// - Thread: [render]
    mutating func publish(_ state: TransportState) {
        let beatIndex = max(0, state.beatInBar.rounded(.down))
        valid = jack_position_bits_t(rawValue: valid.rawValue | JackPositionBBT.rawValue)
        bar = Int32(clamping: state.bar + 1)
        beat = Int32(clamping: Int(beatIndex) + 1)
        tick = Int32(clamping: Int(((state.beatInBar - beatIndex) * Self.ticksPerBeat).rounded(.down)))
        ticks_per_beat = Self.ticksPerBeat
        beats_per_bar = Float(state.beatsPerBar)
        beat_type = Float(state.beatUnit)
        beats_per_minute = state.beatsPerMinute
        bar_start_tick = Double(state.bar) * state.beatsPerBar * Self.ticksPerBeat
    }
}
