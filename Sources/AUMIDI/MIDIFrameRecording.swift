import AUCore
import Foundation

/// Channel messages at sample frames, recorded into a one-track ``MusicSequence`` at a
/// constant tempo and written as a format-0 Standard MIDI File by the sequence's writer:
/// what `auhost render --midi-out FILE.mid` makes of the graph's MIDI output.
///
/// The file is one `MThd` header (format 0, one track, `ticksPerQuarter` as its division)
/// and one `MTrk` track: a tempo event (`FF 51`) at tick 0, the messages in frame order
/// (equal frames keep the order they were appended in), and End of Track (`FF 2F 00`). A
/// frame becomes the nearest tick at the written tempo,
/// `frame · ticksPerQuarter · 10⁶ / (sampleRate · microsecondsPerQuarter)`, so every message
/// is within half a tick of its frame however long the file. No running status. A message
/// that is not a channel message (system exclusive, system common, real-time) or has a data
/// byte above 127 is not recorded but counted in ``skippedEventCount``. A gap longer than a
/// delta can hold (2²⁸ − 1 ticks) is bridged by empty text events (`FF 01 00`), which
/// readers skip.
/// - Thread: [any] (a plain value); ``write(to:overwrite:inputs:endFrame:)`` is [control].
public struct MIDIFrameRecording: Sendable {
    public let sampleRate: Double
    /// The header's division: ticks per quarter note, 1...32767.
    public let ticksPerQuarter: Int
    /// The tempo event's value: 60,000,000 / BPM rounded to a whole microsecond (500,000 at
    /// 120 BPM). Frames are converted at this tempo, the one a reader of the file sees.
    public let microsecondsPerQuarter: Int
    /// Messages given to ``append(frame:status:data1:data2:)`` and not recorded (not channel
    /// messages, or with a data byte above 127).
    public private(set) var skippedEventCount = 0
    /// The recorded messages, in the order appended.
    private var messages: [(frame: Int64, message: MIDIChannelMessage)] = []

    /// Messages recorded and to be written.
    /// - Thread: [any]
    public var eventCount: Int { messages.count }

    /// An empty recording of messages timed in frames at `sampleRate`, at a constant tempo.
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

    /// Records a channel message at `frame` (frames since the start of the file, at least 0);
    /// `data2` is ignored for program change (`Cn`) and channel pressure (`Dn`).
    /// - Thread: [any]
    public mutating func append(frame: Int64, status: UInt8, data1: UInt8, data2: UInt8) {
        precondition(frame >= 0, "a MIDI file starts at frame 0")
        let message = MIDIChannelMessage(status: status, data1: data1, data2: data2)
        let oneDataByte = message.dataByteCount == 1
        guard (0x80...0xEF).contains(status), data1 < 0x80, oneDataByte || data2 < 0x80 else {
            skippedEventCount += 1
            return
        }
        messages.append((frame, oneDataByte ? MIDIChannelMessage(status: status, data1: data1) : message))
    }

    /// The tick `frame` falls on: the nearest one at the file's tempo and division.
    /// - Thread: [any]
    public func tick(atFrame frame: Int64) -> Int64 {
        Int64((Double(frame) * Double(ticksPerQuarter) * 1e6 / (sampleRate * Double(microsecondsPerQuarter))).rounded())
    }

    /// The recording as a sequence: the tempo on the tempo track, the messages (and the
    /// empty text events that bridge long gaps) on one track at their ticks, the track as
    /// long as `endFrame` when that is later than its last message.
    /// - Thread: [any]
    func sequence(endFrame: Int64? = nil) -> MusicSequence {
        var sequence = MusicSequence(division: .ticksPerQuarterNote(UInt16(ticksPerQuarter)))
        sequence.tempoTrack.add(.tempo(ExtendedTempoEvent(bpm: 60_000_000 / Double(microsecondsPerQuarter))), at: 0)
        var track = MusicTrack()
        let largestDelta: Int64 = 0x0FFF_FFFF
        var previous: Int64 = 0
        let ordered = messages.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
        for (_, (frame, message)) in ordered {
            let tick = tick(atFrame: frame)
            while tick - previous > largestDelta {
                previous += largestDelta
                track.add(.meta(.text(.text, [])), at: beats(atTick: previous))
            }
            track.add(.channel(message), at: beats(atTick: tick))
            previous = tick
        }
        if let endFrame { track.length = beats(atTick: max(previous, tick(atFrame: endFrame))) }
        sequence.tracks = [track]
        return sequence
    }

    /// The file's bytes (format 0). End of Track is at the last message, or at `endFrame`
    /// when that is later (the end of the rendered audio, so that the file lasts as long).
    /// - Thread: [any]
    public func data(endFrame: Int64? = nil) -> Data {
        do {
            return try sequence(endFrame: endFrame).fileData(format: .singleTrack)
        } catch {
            // One track, a valid division, channel messages only and bridged gaps: nothing
            // a file cannot hold.
            preconditionFailure("a recording the writer refused: \(error)")
        }
    }

    /// Writes the file to `path` atomically (``AtomicFile``): it appears there only complete,
    /// or not at all. An existing file is an error unless `overwrite`; a device, a FIFO or
    /// one of `inputs` (the files the caller reads) is never replaced.
    /// - Thread: [control]
    public func write(to path: String, overwrite: Bool = false, inputs: [String] = [], endFrame: Int64? = nil) throws(AudioUnitError) {
        do throws(AtomicFileFailure) {
            try write(into: AtomicFile(destination: path, overwrite: overwrite, inputs: inputs), endFrame: endFrame)
        } catch {
            throw .output(path, error)
        }
    }

    /// Writes the file into `file`, made (and so checked) before anything was recorded, and
    /// commits it: `render --midi-out` opens its output before it renders.
    /// - Thread: [control]
    public func write(into file: AtomicFile, endFrame: Int64? = nil) throws(AtomicFileFailure) {
        try file.write(data(endFrame: endFrame))
        try file.commit()
    }

    /// `tick` in beats (quarter notes): a time stamp the writer rounds back to `tick`.
    private func beats(atTick tick: Int64) -> MusicTimeStamp {
        Double(tick) / Double(ticksPerQuarter)
    }
}
