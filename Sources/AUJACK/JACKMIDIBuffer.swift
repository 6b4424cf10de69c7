import AUCore
import CJack

/// A JACK MIDI port's buffer of one period as ``MIDIEvent``s: short messages (status and up
/// to two data bytes) in, every message out; longer ones (sysex) are skipped on reading.
/// - Thread: [render] (the process callback). No allocation, no lock.
enum JACKMIDIBuffer {
    /// Reads the period's messages into `events` (at most `capacity`); returns how many.
    static func read(_ buffer: UnsafeMutableRawPointer, into events: UnsafeMutablePointer<MIDIEvent>, capacity: Int) -> Int {
        let available = Int(jack_midi_get_event_count(buffer))
        var count = 0
        var event = jack_midi_event_t()
        for index in 0..<available where count < capacity {
            guard jack_midi_event_get(&event, buffer, UInt32(index)) == 0, event.size >= 1, event.size <= 3, let bytes = event.buffer else {
                continue
            }
            events[count] = MIDIEvent(
                offset: Int32(event.time), status: bytes[0], data1: event.size > 1 ? bytes[1] : 0, data2: event.size > 2 ? bytes[2] : 0)
            count += 1
        }
        return count
    }

    /// Clears the buffer and writes `events` (sorted, offsets within the period); returns
    /// how many found no room.
    @discardableResult
    static func write(_ events: UnsafeBufferPointer<MIDIEvent>, into buffer: UnsafeMutableRawPointer) -> Int {
        jack_midi_clear_buffer(buffer)
        var dropped = 0
        for event in events {
            var bytes = (event.status, event.data1, event.data2)
            let status = withUnsafeBytes(of: &bytes) { raw in
                jack_midi_event_write(buffer, UInt32(max(0, event.offset)), raw.baseAddress!.assumingMemoryBound(to: UInt8.self), event.length)
            }
            if status != 0 { dropped += 1 }
        }
        return dropped
    }
}
