import Foundation

/// What ``formatZeroEvents(_:)`` reads from a file of AUFiles' `StandardMIDIFileWriter`.
public struct FormatZeroEvents: Sendable {
    /// One channel message as written: its absolute tick, status and data bytes (`data2` is
    /// 0 for program change and channel pressure, which carry one data byte).
    public typealias Event = (tick: Int64, status: UInt8, data1: UInt8, data2: UInt8)

    /// Ticks per quarter note (the header's division).
    public let division: Int
    /// The tempo event's value at tick 0.
    public let microsecondsPerQuarter: Int
    /// Every channel message, in file order.
    public let events: [Event]
    /// The End of Track event's tick: how long the file lasts.
    public let endTick: Int64

    /// `tick` in seconds at the file's one tempo.
    public func seconds(atTick tick: Int64) -> Double {
        Double(tick) * Double(microsecondsPerQuarter) / 1e6 / Double(division)
    }

    /// `tick` as a sample frame at `sampleRate`, rounded to the nearest.
    public func frame(atTick tick: Int64, sampleRate: Double) -> Int {
        Int((seconds(atTick: tick) * sampleRate).rounded())
    }
}

/// Why ``formatZeroEvents(_:)`` refused a file: what was expected at which byte.
public struct FormatZeroError: Error, CustomStringConvertible {
    public let offset: Int
    public let message: String
    public var description: String { "byte \(offset): \(message)" }
}

/// Reads a file exactly as AUFiles' `StandardMIDIFileWriter` writes it, and refuses anything
/// else (test-only, so that the writer's tests see every byte it wrote, ties in append order,
/// which AUMIDI's reader pairs into notes): an `MThd` of length 6, format 0, one track, a
/// division in ticks per quarter; one `MTrk` chunk that ends where the file ends; a tempo
/// event (`FF 51 03`) at tick 0; then channel messages, each with its status byte (no running
/// status) and one data byte (`Cn`, `Dn`) or two, data bytes below 0x80; empty text events
/// (`FF 01 00`) only after the largest delta (0x0FFFFFFF ticks), which bridge a longer gap;
/// and End of Track (`FF 2F 00`) as the track's last three bytes.
public func formatZeroEvents(_ data: some Collection<UInt8>) throws(FormatZeroError) -> FormatZeroEvents {
    let bytes = [UInt8](data)
    var position = 0
    func fail(_ message: String) -> FormatZeroError { FormatZeroError(offset: position, message: message) }
    func take(_ count: Int, _ what: String) throws(FormatZeroError) -> ArraySlice<UInt8> {
        guard bytes.count - position >= count else { throw fail("the file ends inside \(what)") }
        defer { position += count }
        return bytes[position..<position + count]
    }
    func number(_ count: Int, _ what: String) throws(FormatZeroError) -> Int {
        try take(count, what).reduce(0) { $0 << 8 | Int($1) }
    }
    func expect(_ expected: [UInt8], _ what: String) throws(FormatZeroError) {
        let start = position
        guard try take(expected.count, what).elementsEqual(expected) else {
            position = start
            throw fail("expected \(what) (\(expected.map { String(format: "%02X", $0) }.joined(separator: " ")))")
        }
    }
    func delta() throws(FormatZeroError) -> Int64 {
        var value: Int64 = 0
        for _ in 0..<4 {
            let byte = try take(1, "a delta time").first!
            value = value << 7 | Int64(byte & 0x7F)
            if byte < 0x80 { return value }
        }
        throw fail("a delta time longer than four bytes")
    }

    try expect(Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1], "a format-0 header of one track")
    let division = try number(2, "the header")
    guard (1...0x7FFF).contains(division) else { throw fail("expected ticks per quarter note, found division \(division)") }
    try expect(Array("MTrk".utf8), "the track chunk")
    let lengthAt = position
    let length = try number(4, "the track's length")
    guard length == bytes.count - position else {
        throw FormatZeroError(offset: lengthAt, message: "the track claims \(length) bytes, but \(bytes.count - position) follow it")
    }
    try expect([0x00, 0xFF, 0x51, 0x03], "a tempo event at tick 0")
    let tempo = try number(3, "the tempo")
    var events: [FormatZeroEvents.Event] = []
    var tick: Int64 = 0
    while true {
        let step = try delta()
        tick += step
        let status = try take(1, "an event").first!
        let at = position - 1
        func refuse(_ message: String) -> FormatZeroError { FormatZeroError(offset: at, message: message) }
        switch status {
        case 0x80...0xEF:
            let oneDataByte = status & 0xF0 == 0xC0 || status & 0xF0 == 0xD0
            let data = try take(oneDataByte ? 1 : 2, "a channel message")
            guard data.allSatisfy({ $0 < 0x80 }) else { throw refuse("a data byte above 127") }
            events.append((tick, status, data.first!, oneDataByte ? 0 : data.last!))
        case 0xFF:
            let meta = try take(2, "a meta event")
            if meta.elementsEqual([0x01, 0x00]) {
                guard step == 0x0FFF_FFFF else { throw refuse("an empty text event after a delta of \(step), not the largest") }
            } else if meta.elementsEqual([0x2F, 0x00]) {
                guard position == bytes.count else { throw refuse("End of Track before the end of the track") }
                return FormatZeroEvents(division: division, microsecondsPerQuarter: tempo, events: events, endTick: tick)
            } else {
                throw refuse("expected a gap bridge (FF 01 00) or End of Track (FF 2F 00)")
            }
        default:
            throw refuse("expected a channel status byte, found \(String(format: "%02X", status))")
        }
    }
}
