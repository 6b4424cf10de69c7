import AUCore
import CJack

/// A port registered on a ``JACKClient``.
/// - Thread: [control], except where a member says otherwise.
public struct JACKPort: @unchecked Sendable {
    /// What the port carries.
    /// - Thread: [control]
    public enum Kind: String, Sendable { case audio, midi }
    /// Which way the port carries it, seen from the client's graph.
    /// - Thread: [control]
    public enum Direction: String, Sendable {
        /// From JACK into the graph (a JACK input port: `in_N`, `midi_in`).
        case capture
        /// From the graph to JACK (a JACK output port: `out_N`).
        case playback
    }

    /// The `jack_port_t`, for the process thread's state and the package's test clients.
    package let handle: OpaquePointer
    /// Audio or MIDI.
    public let kind: Kind
    /// Capture or playback.
    public let direction: Direction
    /// `client:port`.
    public let fullName: String

    /// Writes this cycle's MIDI output: clears the port's buffer, then writes `events`
    /// (sorted, offsets within the cycle). Call it every cycle, with no events when silent.
    /// - Thread: [render] (the process callback). No allocation, no lock.
    public func writeMIDI(_ events: UnsafeBufferPointer<MIDIEvent>, frames: Int) {
        guard kind == .midi, direction == .playback, let buffer = jack_port_get_buffer(handle, UInt32(frames)) else { return }
        JACKMIDIBuffer.write(events, into: buffer)
    }

    /// Reads this cycle's MIDI input (short messages) into `events`, at most `capacity`;
    /// returns how many.
    /// - Thread: [render] (the process callback). No allocation, no lock.
    public func readMIDI(frames: Int, into events: UnsafeMutablePointer<MIDIEvent>, capacity: Int) -> Int {
        guard kind == .midi, direction == .capture, let buffer = jack_port_get_buffer(handle, UInt32(frames)) else { return 0 }
        return JACKMIDIBuffer.read(buffer, into: events, capacity: capacity)
    }

    /// How many ports this one is connected to.
    /// - Thread: [control]
    public var connectionCount: Int { Int(jack_port_connected(handle)) }

    /// The latency JACK reports for the port in the given mode, as (min, max) frames.
    /// - Thread: [control]
    public func latency(playback: Bool) -> (min: Int, max: Int) {
        var range = jack_latency_range_t()
        jack_port_get_latency_range(handle, playback ? JackPlaybackLatency : JackCaptureLatency, &range)
        return (Int(range.min), Int(range.max))
    }
}

