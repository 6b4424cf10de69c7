import AUCore
import Foundation

/// A Standard MIDI File (format 0 or 1) read into channel messages at times in seconds:
/// what the offline driver plays through a chain's instruments (`auhost render PRESET
/// song.mid`, docs/FILES.md).
///
/// Reads the header's time division (ticks per quarter note, or SMPTE frames and ticks per
/// frame), every track's events with running status, and the tempo map (`FF 51`, from any
/// track, 120 BPM until the first); merges the tracks in time order (ties keep track and
/// file order). System exclusive and meta events other than tempo are skipped; a note-on of
/// velocity 0 becomes a note-off. Unknown chunks are skipped as the standard asks. A
/// truncated or malformed file is one error naming the file, the track and the byte.
/// - Thread: [any] (a plain value).
public struct StandardMIDIFile: Sendable {
    /// A channel message and when it happens.
    /// - Thread: [any]
    public struct TimedEvent: Sendable, Equatable {
        public var seconds: Double
        public var status: UInt8
        public var data1: UInt8
        public var data2: UInt8
    }

    public let path: String
    /// 0 (one track) or 1 (simultaneous tracks).
    public let format: Int
    public let trackCount: Int
    /// Every channel message of every track, in time order.
    public let events: [TimedEvent]
    /// When the last track ends (its end-of-track event, or its last event), in seconds.
    public let duration: Double

    /// True when `path` starts like a Standard MIDI File (`MThd`).
    /// - Thread: [any]
    public static func isMIDIFile(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) == Data("MThd".utf8)
    }

    /// Reads and parses `path`.
    /// - Thread: [any]
    public init(path: String) throws(AudioUnitError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .file(path, .invalidFilePath, "cannot read the MIDI file (\(error.localizedDescription))")
        }
        try self.init(data: data, path: path)
    }

    /// Parses the bytes of a file (`path` names it in errors).
    /// - Thread: [any]
    public init(data: Data, path: String) throws(AudioUnitError) {
        self.path = path
        var reader = Reader(bytes: [UInt8](data), path: path)
        guard reader.bytes.count >= 14, reader.bytes[0..<4].elementsEqual("MThd".utf8) else {
            throw .file(path, .invalidFile, "not a Standard MIDI File (no MThd header)")
        }
        reader.position = 4
        let headerLength = try reader.uint32("the header")
        guard headerLength >= 6 else { throw reader.error("the header is \(headerLength) bytes; expected at least 6") }
        let headerStart = reader.position
        format = Int(try reader.uint16("the header"))
        _ = try reader.uint16("the header")  // the track count: the chunks are counted instead
        let division = try reader.uint16("the header")
        reader.position = headerStart + Int(headerLength)
        guard format == 0 || format == 1 else {
            throw .file(path, .invalidFile, "format \(format) MIDI files (independent sequences) are not supported; expected format 0 or 1")
        }
        guard division != 0 else { throw .file(path, .invalidFile, "the header's time division is 0") }

        var raw: [(tick: UInt64, track: Int, order: Int, status: UInt8, data1: UInt8, data2: UInt8)] = []
        var tempos: [(tick: UInt64, microsecondsPerQuarter: Double)] = []
        var lastTick: UInt64 = 0
        var track = 0
        while reader.position + 8 <= reader.bytes.count {
            let type = String(decoding: reader.bytes[reader.position..<reader.position + 4], as: UTF8.self)
            reader.position += 4
            let length = Int(try reader.uint32("a chunk header"))
            let end = reader.position + length
            guard end <= reader.bytes.count else {
                throw reader.error("track \(track + 1) declares \(length) bytes but the file ends after \(reader.bytes.count - reader.position)")
            }
            guard type == "MTrk" else {
                reader.position = end
                continue
            }
            var tick: UInt64 = 0
            var running: UInt8 = 0
            var order = 0
            while reader.position < end {
                tick += UInt64(try reader.variableLength("track \(track + 1)", end: end))
                var status = try reader.byte("track \(track + 1)", end: end)
                if status < 0x80 {
                    guard running != 0 else { throw reader.error("track \(track + 1): a data byte with no running status", back: 1) }
                    status = running
                    reader.position -= 1
                }
                switch status {
                case 0xFF:
                    let type = try reader.byte("track \(track + 1)", end: end)
                    let length = try reader.variableLength("track \(track + 1)", end: end)
                    guard reader.position + length <= end else { throw reader.error("track \(track + 1): a meta event runs past the track's end") }
                    if type == 0x51 && length == 3 {
                        let value = reader.bytes[reader.position..<reader.position + 3].reduce(0) { $0 << 8 | Int($1) }
                        if value > 0 { tempos.append((tick, Double(value))) }
                    }
                    reader.position += length
                    if type == 0x2F { reader.position = end }
                case 0xF0, 0xF7:
                    let length = try reader.variableLength("track \(track + 1)", end: end)
                    guard reader.position + length <= end else { throw reader.error("track \(track + 1): a system exclusive message runs past the track's end") }
                    reader.position += length
                    running = 0
                default:
                    guard status < 0xF0 else { throw reader.error("track \(track + 1): status byte \(String(status, radix: 16, uppercase: true)) cannot appear in a file", back: 1) }
                    running = status
                    let data1 = try reader.byte("track \(track + 1)", end: end)
                    let kind = status & 0xF0
                    let data2 = kind == 0xC0 || kind == 0xD0 ? 0 : try reader.byte("track \(track + 1)", end: end)
                    guard data1 < 0x80, data2 < 0x80 else { throw reader.error("track \(track + 1): a data byte above 127", back: 1) }
                    // A note-on of velocity 0 is a note-off.
                    let message = kind == 0x90 && data2 == 0 ? (0x80 | status & 0x0F, data1, UInt8(64)) : (status, data1, data2)
                    raw.append((tick, track, order, message.0, message.1, message.2))
                    order += 1
                }
            }
            lastTick = max(lastTick, tick)
            reader.position = end
            track += 1
        }
        guard track > 0 else { throw .file(path, .invalidFile, "no MTrk track in the file") }
        trackCount = track

        // Ticks to seconds through the tempo map (SMPTE division: a fixed tick length).
        tempos.sort { $0.tick < $1.tick }
        let seconds: (UInt64) -> Double
        if division & 0x8000 != 0 {
            let framesPerSecond = Double(-Int(Int8(bitPattern: UInt8(division >> 8))))
            let ticksPerFrame = Double(division & 0xFF)
            guard framesPerSecond > 0, ticksPerFrame > 0 else { throw .file(path, .invalidFile, "the header's SMPTE time division is invalid") }
            seconds = { Double($0) / (framesPerSecond * ticksPerFrame) }
        } else {
            let ticksPerQuarter = Double(division)
            var segments: [(tick: UInt64, seconds: Double, secondsPerTick: Double)] = [(0, 0, 0.5 / ticksPerQuarter)]
            for tempo in tempos {
                let last = segments[segments.count - 1]
                let secondsPerTick = tempo.microsecondsPerQuarter / 1e6 / ticksPerQuarter
                if tempo.tick == last.tick {
                    segments[segments.count - 1].secondsPerTick = secondsPerTick
                } else {
                    segments.append((tempo.tick, last.seconds + Double(tempo.tick - last.tick) * last.secondsPerTick, secondsPerTick))
                }
            }
            seconds = { tick in
                var low = 0, high = segments.count - 1
                while low < high {
                    let middle = (low + high + 1) / 2
                    if segments[middle].tick <= tick { low = middle } else { high = middle - 1 }
                }
                let segment = segments[low]
                return segment.seconds + Double(tick - segment.tick) * segment.secondsPerTick
            }
        }
        raw.sort { ($0.tick, $0.track, $0.order) < ($1.tick, $1.track, $1.order) }
        events = raw.map { TimedEvent(seconds: seconds($0.tick), status: $0.status, data1: $0.data1, data2: $0.data2) }
        duration = seconds(lastTick)
    }

    /// Big-endian reads with bounds checks; errors name the file and the byte.
    private struct Reader {
        let bytes: [UInt8]
        let path: String
        var position = 0

        func error(_ text: String, back: Int = 0) -> AudioUnitError {
            .file(path, .invalidFile, "\(text) (byte \(position - back))")
        }

        mutating func byte(_ what: String, end: Int) throws(AudioUnitError) -> UInt8 {
            guard position < min(end, bytes.count) else { throw error("\(what) ends inside an event") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func uint16(_ what: String) throws(AudioUnitError) -> UInt16 {
            guard position + 2 <= bytes.count else { throw error("the file ends inside \(what)") }
            defer { position += 2 }
            return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
        }

        mutating func uint32(_ what: String) throws(AudioUnitError) -> UInt32 {
            guard position + 4 <= bytes.count else { throw error("the file ends inside \(what)") }
            defer { position += 4 }
            return bytes[position..<position + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }

        /// A variable-length quantity: at most four bytes, seven bits each.
        mutating func variableLength(_ what: String, end: Int) throws(AudioUnitError) -> Int {
            var value = 0
            for _ in 0..<4 {
                let byte = try byte(what, end: end)
                value = value << 7 | Int(byte & 0x7F)
                if byte < 0x80 { return value }
            }
            throw error("\(what): a variable-length number longer than four bytes")
        }
    }
}
