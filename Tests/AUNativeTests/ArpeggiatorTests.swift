import AUCore
import AUNative
import Foundation
import Testing

/// The Arpeggiator (`aumi:arpg:AUHs`, Plugins/Arpeggiator) through the native loader: MIDI
/// in, MIDI out through the ABI's MIDI output extension, notes at exact frames.
@Suite struct ArpeggiatorTests {
    /// A MIDI message the unit sent, at its absolute frame.
    struct Sent: Equatable, CustomStringConvertible {
        var frame: Int
        var status: UInt8
        var note: UInt8
        var velocity: UInt8

        var description: String { "\(frame):\(String(status, radix: 16)) \(note) \(velocity)" }
    }

    /// A new Arpeggiator at 48 kHz with the given parameters, initialized.
    func arpeggiator(_ parameters: [String: Float], tempo: Double? = nil) throws -> AudioUnit {
        let unit = try NativeHarness.unit("aumi:arpg:AUHs", maximumFrames: 4096)
        for (identifier, value) in parameters { try NativeHarness.set(unit, identifier, value) }
        if let tempo {
            let transport = HostTransport()
            transport.state = TransportState(isRolling: true, beatsPerMinute: tempo)
            unit.hostTransport = transport
        }
        try unit.initialize()
        return unit
    }

    /// Renders `frames` frames in blocks of `blockSize` with `input` (absolute frames) and
    /// returns what the unit sent, read from `midiOutputFromRender` after each call.
    func play(_ unit: AudioUnit, frames: Int, blockSize: Int, input: [(frame: Int, event: MIDIEvent)]) throws -> [Sent] {
        let none = UnsafeBufferPointer<AudioBuffers>(start: nil, count: 0)
        var sent: [Sent] = []
        var position = 0
        while position < frames {
            let count = min(blockSize, frames - position)
            let midi = input.filter { $0.frame >= position && $0.frame < position + count }.map {
                var event = $0.event
                event.offset = Int32($0.frame - position)
                return event
            }
            let status = midi.withUnsafeBufferPointer {
                unit.renderCycleFromDriver(timestamp: RenderTimestamp(sampleTime: Double(position)), frameCount: count, inputs: none, outputs: none, midi: $0)
            }
            try #require(status == 0, "render returned \(status)")
            for event in unit.midiOutputFromRender {
                sent.append(Sent(frame: position + Int(event.offset), status: event.status, note: event.data1, velocity: event.data2))
            }
            position += count
        }
        return sent
    }

    /// Note-ons and note-offs for `keys` held at `pressed` and let go at `released`.
    func chord(_ keys: [(note: UInt8, velocity: UInt8)], channel: UInt8, pressed: Int, released: Int) -> [(frame: Int, event: MIDIEvent)] {
        keys.map { (pressed, MIDIEvent(offset: 0, status: 0x90 | channel, data1: $0.note, data2: $0.velocity)) }
            + keys.map { (released, MIDIEvent(offset: 0, status: 0x80 | channel, data1: $0.note, data2: 0)) }
    }

    /// The notes `steps` would send: on at `start + k × step`, off `gate` frames later.
    func expected(_ steps: [(note: UInt8, velocity: UInt8)], channel: UInt8, start: Int, step: Int, gate: Int) -> [Sent] {
        steps.enumerated().flatMap { index, key in
            [Sent(frame: start + index * step, status: 0x90 | channel, note: key.note, velocity: key.velocity),
             Sent(frame: start + index * step + gate, status: 0x80 | channel, note: key.note, velocity: 0)]
        }
    }

    static let cMajor: [(note: UInt8, velocity: UInt8)] = [(64, 90), (60, 100), (67, 80)]

    /// 120 BPM (no host transport: the native unit's counted transport), 1/16: a step every
    /// 6000 frames at 48 kHz, half of it sounding; up from the lowest key; each note keeps its
    /// key's channel and velocity; letting go at frame 96,000 ends it after 16 notes, the last
    /// note-off at its gate. The same frames whatever the block size.
    @Test(arguments: [17, 64, 4096])
    func upAt120BPMSixteenthsLandsOnExactFrames(blockSize: Int) throws {
        let unit = try arpeggiator(["rate": 2, "pattern": 0, "octaves": 1, "gate": 50])
        let sent = try play(unit, frames: 120_000, blockSize: blockSize, input: chord(Self.cMajor, channel: 2, pressed: 0, released: 96_000))
        let up = Self.cMajor.sorted { $0.note < $1.note }
        let steps = (0..<16).map { up[$0 % 3] }
        #expect(sent == expected(steps, channel: 2, start: 0, step: 6000, gate: 3000))
    }

    /// The host's tempo (90 BPM), 1/8: a step every 16,000 frames, starting at the frame the
    /// keys went down (1000); down from the highest key; gate 25 %.
    @Test(arguments: [17, 4096])
    func downFollowsTheHostTempoFromTheFirstKey(blockSize: Int) throws {
        let unit = try arpeggiator(["rate": 1, "pattern": 1, "gate": 25], tempo: 90)
        let sent = try play(unit, frames: 100_000, blockSize: blockSize, input: chord(Self.cMajor, channel: 0, pressed: 1000, released: 81_500))
        let down = Self.cMajor.sorted { $0.note > $1.note }
        let steps = (0..<6).map { down[$0 % 3] }
        #expect(sent == expected(steps, channel: 0, start: 1000, step: 16_000, gate: 4000))
    }

    /// Up-down over two octaves: up through both octaves, down again without repeating the
    /// top and bottom notes.
    @Test func upDownOverTwoOctaves() throws {
        let unit = try arpeggiator(["rate": 3, "pattern": 2, "octaves": 2, "gate": 100])
        let sent = try play(unit, frames: 3000 * 12, blockSize: 64, input: chord(Self.cMajor, channel: 0, pressed: 0, released: 1_000_000))
        let notes = sent.filter { $0.status == 0x90 }.map(\.note)
        #expect(notes == [60, 64, 67, 72, 76, 79, 76, 72, 67, 64, 60, 64])
        #expect(sent.filter { $0.status == 0x90 }.map(\.frame) == (0..<12).map { $0 * 3000 })
    }

    /// The pattern choices and the notes each plays over two octaves, twelve steps, the keys
    /// pressed neither rising nor falling (C5, E4, G4).
    static let patterns: [(name: String, notes: [UInt8])] = [
        ("Up", [64, 67, 72, 76, 79, 84, 64, 67, 72, 76, 79, 84]),
        ("Down", [84, 79, 76, 72, 67, 64, 84, 79, 76, 72, 67, 64]),
        ("Up-Down", [64, 67, 72, 76, 79, 84, 79, 76, 72, 67, 64, 67]),
        ("As Played", [72, 64, 67, 84, 76, 79, 72, 64, 67, 84, 76, 79]),
    ]

    /// Every pattern the unit offers: Up and Down sort the keys by pitch, Up-Down bounces
    /// without repeating its ends, As Played keeps the order they went down in (all at one
    /// frame, in the order of the events). Each note keeps its key's velocity.
    @Test(arguments: 0..<4)
    func everyPatternInItsOrder(pattern: Int) throws {
        let unit = try arpeggiator(["rate": 3, "pattern": Float(pattern), "octaves": 2, "gate": 50])
        let index = try #require(unit.parameters.index(ofIdentifier: "pattern"))
        #expect(unit.parameters.infos[index].valueStrings == Self.patterns.map(\.name))
        let played: [(note: UInt8, velocity: UInt8)] = [(72, 70), (64, 90), (67, 110)]
        let input = played.map { (frame: 0, event: MIDIEvent(offset: 0, status: 0x90, data1: $0.note, data2: $0.velocity)) }
        let sent = try play(unit, frames: 3000 * 12, blockSize: 64, input: input)
        let ons = sent.filter { $0.status == 0x90 }
        #expect(ons.map(\.note) == Self.patterns[pattern].notes, "\(Self.patterns[pattern].name)")
        #expect(ons.map(\.frame) == (0..<12).map { $0 * 3000 })
        let velocity = Dictionary(uniqueKeysWithValues: played.map { ($0.note % 12, $0.velocity) })
        #expect(ons.allSatisfy { velocity[$0.note % 12] == $0.velocity }, "\(ons)")
    }
}
