import AUCore
import Foundation

/// A format-0 Standard MIDI File made from channel messages at sample frames: what
/// `auhost render --midi-out FILE.mid` writes from the graph's MIDI output.
///
/// The file is one `MThd` header (format 0, one track, `ticksPerQuarter` as its division)
/// and one `MTrk` track: a tempo event (`FF 51`) at tick 0, the messages in time order
/// (equal frames keep the order they were appended in; messages appended out of order are
/// sorted), and End of Track (`FF 2F 00`). A frame becomes the nearest tick at the written
/// tempo, `frame · ticksPerQuarter · 10⁶ / (sampleRate · microsecondsPerQuarter)`, and each
/// delta is the difference of two such rounded ticks, so rounding never accumulates: every
/// message is within half a tick of its frame however long the file. No running status.
/// Program change and channel pressure are written with one data byte, the others with two;
/// a message that is not a channel message (system exclusive, system common, real-time) or
/// has a data byte above 127 is not written but counted in ``skippedEventCount``. A gap
/// longer than a delta can hold (2²⁸ − 1 ticks) is bridged by empty text events (`FF 01 00`),
/// which readers skip.
/// - Thread: [any] (a plain value); ``write(to:overwrite:inputs:endFrame:)`` is [control].
public struct StandardMIDIFileWriter: Sendable {
    /// A channel message at its sample frame.
    private struct Event: Sendable {
        var frame: Int64
        var status: UInt8
        var data1: UInt8
        var data2: UInt8
    }

    public let sampleRate: Double
    /// The header's division: ticks per quarter note, 1...32767.
    public let ticksPerQuarter: Int
    /// The tempo event's value: 60,000,000 / BPM rounded to a whole microsecond (500,000 at
    /// 120 BPM). Frames are converted at this tempo, the one a reader of the file sees.
    public let microsecondsPerQuarter: Int
    /// Messages given to ``append(frame:status:data1:data2:)`` and not written (not channel
    /// messages, or with a data byte above 127).
    public private(set) var skippedEventCount = 0
    /// Messages appended and to be written.
    /// - Thread: [any]
    public var eventCount: Int { events.count }
    private var events: [Event] = []
    /// False once a message was appended before an earlier-appended one's frame.
    private var isInTimeOrder = true

    /// An empty file for messages timed in frames at `sampleRate`, at a constant tempo.
    /// - Thread: [any]
    public init(sampleRate: Double, ticksPerQuarter: Int = 960, beatsPerMinute: Double = 120) {
        precondition(sampleRate.isFinite && sampleRate > 0, "the sample rate must be positive")
        precondition((1...0x7FFF).contains(ticksPerQuarter), "ticks per quarter note must be in 1...32767")
        let microseconds = (60_000_000 / beatsPerMinute).rounded()
        precondition(beatsPerMinute.isFinite && (1...0xFF_FFFF).contains(microseconds), "the tempo must be 1...16,777,215 microseconds per quarter note")
        self.sampleRate = sampleRate
        self.ticksPerQuarter = ticksPerQuarter
        microsecondsPerQuarter = Int(microseconds)
    }

    /// Adds a channel message at `frame` (frames since the start of the file, at least 0);
    /// `data2` is ignored for program change (`Cn`) and channel pressure (`Dn`).
    /// - Thread: [any]
    public mutating func append(frame: Int64, status: UInt8, data1: UInt8, data2: UInt8) {
        precondition(frame >= 0, "a MIDI file starts at frame 0")
        let oneDataByte = Self.takesOneDataByte(status)
        guard (0x80...0xEF).contains(status), data1 < 0x80, oneDataByte || data2 < 0x80 else {
            skippedEventCount += 1
            return
        }
        if let last = events.last, frame < last.frame { isInTimeOrder = false }
        events.append(Event(frame: frame, status: status, data1: data1, data2: oneDataByte ? 0 : data2))
    }

    /// The tick `frame` falls on: the nearest one at the file's tempo and division.
    /// - Thread: [any]
    public func tick(atFrame frame: Int64) -> Int64 {
        Int64((Double(frame) * Double(ticksPerQuarter) * 1e6 / (sampleRate * Double(microsecondsPerQuarter))).rounded())
    }

    /// The file's bytes. End of Track is at the last message, or at `endFrame` when that is
    /// later (the end of the rendered audio, so that the file lasts as long).
    /// - Thread: [any]
    public func data(endFrame: Int64? = nil) -> Data {
        let ordered = isInTimeOrder ? events : events.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        let tempo = microsecondsPerQuarter
        var track: [UInt8] = [0x00, 0xFF, 0x51, 0x03, UInt8(tempo >> 16 & 0xFF), UInt8(tempo >> 8 & 0xFF), UInt8(tempo & 0xFF)]
        track.reserveCapacity(track.count + ordered.count * 4 + 4)
        var previous: Int64 = 0
        for event in ordered {
            let eventTick = tick(atFrame: event.frame)
            Self.appendDelta(eventTick - previous, to: &track)
            previous = eventTick
            track += Self.takesOneDataByte(event.status) ? [event.status, event.data1] : [event.status, event.data1, event.data2]
        }
        Self.appendDelta(max(previous, endFrame.map { tick(atFrame: $0) } ?? 0) - previous, to: &track)
        track += [0xFF, 0x2F, 0x00]
        precondition(track.count <= Int(UInt32.max), "a MIDI track is at most 4 GiB")
        var file = Array("MThd".utf8) + Self.bigEndian(6, bytes: 4) + Self.bigEndian(0, bytes: 2) + Self.bigEndian(1, bytes: 2)
        file += Self.bigEndian(ticksPerQuarter, bytes: 2) + Array("MTrk".utf8) + Self.bigEndian(track.count, bytes: 4) + track
        return Data(file)
    }

    /// Writes the file to `path` atomically (``AtomicFile``): it appears there only complete,
    /// or not at all. An existing file is an error unless `overwrite`; a device, a FIFO or
    /// one of `inputs` (the files the caller reads) is never replaced.
    /// - Thread: [control]
    public func write(to path: String, overwrite: Bool = false, inputs: [String] = [], endFrame: Int64? = nil) throws(AudioUnitError) {
        do throws(AtomicFileFailure) {
            let file = try AtomicFile(destination: path, overwrite: overwrite, inputs: inputs)
            try file.write(data(endFrame: endFrame))
            try file.commit()
        } catch {
            throw .output(path, error)
        }
    }

    /// Program change and channel pressure carry one data byte; the other channel messages two.
    private static func takesOneDataByte(_ status: UInt8) -> Bool {
        status & 0xF0 == 0xC0 || status & 0xF0 == 0xD0
    }

    /// A delta time as a variable-length quantity (seven bits a byte, the high bit set on all
    /// but the last); a delta beyond four bytes' 2²⁸ − 1 is split by empty text events.
    private static func appendDelta(_ delta: Int64, to track: inout [UInt8]) {
        let largest: Int64 = 0x0FFF_FFFF
        var rest = delta
        while rest > largest {
            appendDelta(largest, to: &track)
            track += [0xFF, 0x01, 0x00]
            rest -= largest
        }
        var bytes = [UInt8(rest & 0x7F)]
        rest >>= 7
        while rest > 0 {
            bytes.append(UInt8(0x80 | rest & 0x7F))
            rest >>= 7
        }
        track += bytes.reversed()
    }

    private static func bigEndian(_ value: Int, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(value >> ($0 * 8) & 0xFF) }
    }
}
