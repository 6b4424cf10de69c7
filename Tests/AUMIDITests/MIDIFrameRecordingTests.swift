import AUCore
import AUMIDI
import AUTestSupport
import Foundation
import Testing

@Suite struct MIDIFrameRecordingTests {
    /// 3,000 random channel messages over ten minutes, appended out of order with many at
    /// equal frames, read back byte for byte (``formatZeroEvents(_:)``): the same messages in
    /// frame order (equal frames in append order), each on the tick nearest its frame, so
    /// within half a tick's frames of it; the file lasts until its end frame.
    @Test(arguments: [44100.0, 48000.0])
    func readingBackGivesEveryEventAtItsFrame(sampleRate: Double) throws {
        var random = Fuzz.SeededGenerator(state: 2026)  // a fixed seed: the same events every run
        var recording = MIDIFrameRecording(sampleRate: sampleRate)
        var appended: [(frame: Int64, status: UInt8, data1: UInt8, data2: UInt8)] = []
        let length = Int64(sampleRate * 600)
        for index in 0..<3000 {
            // One in four on a frame already used: ties must keep their order.
            let frame = index > 0 && Int.random(in: 0..<4, using: &random) == 0
                ? appended[Int.random(in: 0..<appended.count, using: &random)].frame
                : Int64.random(in: 0..<length, using: &random)
            let kind = [0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0][Int.random(in: 0..<7, using: &random)]
            let status = UInt8(kind | Int.random(in: 0..<16, using: &random))
            let data1 = UInt8.random(in: 0...127, using: &random)
            // Velocity 0 too: a note-on of velocity 0 reads back as written.
            let data2 = UInt8.random(in: 0...127, using: &random)
            recording.append(frame: frame, status: status, data1: data1, data2: data2)
            appended.append((frame, status, data1, kind == 0xC0 || kind == 0xD0 ? 0 : data2))
        }
        let expected = appended.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        let song = try formatZeroEvents(recording.data(endFrame: length))

        #expect(song.division == 960 && song.microsecondsPerQuarter == 500_000)
        try #require(song.events.count == expected.count)
        #expect(song.events.map(\.status) == expected.map(\.status))
        #expect(song.events.map(\.data1) == expected.map(\.data1))
        #expect(song.events.map(\.data2) == expected.map(\.data2))
        let ticksPerSecond = 960.0 * 2  // 120 BPM
        let framesPerTick = sampleRate / ticksPerSecond
        var worst = 0.0
        for (event, wanted) in zip(song.events, expected) {
            #expect(Double(event.tick) == (Double(wanted.frame) / framesPerTick).rounded(), "the nearest tick to frame \(wanted.frame)")
            worst = max(worst, abs(song.seconds(atTick: event.tick) * sampleRate - Double(wanted.frame)))
        }
        #expect(worst <= framesPerTick / 2 + 1e-6, "every event within half a tick (\(framesPerTick / 2) frames) of its frame; worst \(worst)")
        #expect(song.endTick == 600 * 1920)
        #expect(abs(song.seconds(atTick: song.endTick) - 600) < 1e-9)
    }

    /// The bytes of a small file, worked out by hand: at 48 kHz, 120 BPM and 960 ticks per
    /// quarter a tick is 25 frames, so a note-off 24,000 frames in is 960 ticks (`87 40`).
    @Test func aSmallFileIsExactlyTheBytesExpected() {
        var recording = MIDIFrameRecording(sampleRate: 48000)
        recording.append(frame: 0, status: 0x90, data1: 60, data2: 100)
        recording.append(frame: 24000, status: 0x80, data1: 60, data2: 64)
        let expected: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x03, 0xC0]
            + Array("MTrk".utf8) + [0, 0, 0, 20]  // 7 + 4 + 5 + 4 bytes
            + [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20]  // tempo: 500,000 µs per quarter
            + [0x00, 0x90, 60, 100]
            + [0x87, 0x40, 0x80, 60, 64]
            + [0x00, 0xFF, 0x2F, 0x00]  // End of Track
        #expect(Array(recording.data()) == expected)
    }

    /// Program change and channel pressure are two bytes (their data2 is not written);
    /// a message that is not a channel message, or has a data byte above 127, is skipped.
    @Test func programChangeAndChannelPressureAreTwoBytes() throws {
        var recording = MIDIFrameRecording(sampleRate: 44100, ticksPerQuarter: 96)
        recording.append(frame: 0, status: 0xC3, data1: 5, data2: 99)
        recording.append(frame: 0, status: 0xD0, data1: 64, data2: 99)
        recording.append(frame: 0, status: 0xF8, data1: 0, data2: 0)       // timing clock
        recording.append(frame: 0, status: 0x90, data1: 0x80, data2: 1)    // data byte above 127
        recording.append(frame: 0, status: 0xB0, data1: 7, data2: 0x80)
        recording.append(frame: 0, status: 0xC0, data1: 1, data2: 0x80)    // data2 unused: written
        #expect(recording.skippedEventCount == 3)
        let data = recording.data()
        #expect(Array(data.dropFirst(14 + 8 + 7)) == [0x00, 0xC3, 5, 0x00, 0xD0, 64, 0x00, 0xC0, 1, 0x00, 0xFF, 0x2F, 0x00])
        let song = try formatZeroEvents(data)
        #expect(song.events.map(\.status) == [0xC3, 0xD0, 0xC0])
        #expect(song.events.map(\.data1) == [5, 64, 1])
        #expect(song.events.map(\.data2) == [0, 0, 0])
        #expect(song.events.map(\.tick) == [0, 0, 0] && song.endTick == 0)
    }

    /// A frame goes to the nearest tick (25 frames a tick at 48 kHz: 12 → 0, 13 → 1), at the
    /// tempo written, which is 60,000,000 / BPM in whole microseconds.
    @Test func framesRoundToTheNearestTickAtTheWrittenTempo() throws {
        let recording = MIDIFrameRecording(sampleRate: 48000)
        #expect(recording.microsecondsPerQuarter == 500_000)
        #expect([12, 13, 37, 38].map { recording.tick(atFrame: $0) } == [0, 1, 1, 2])
        var slow = MIDIFrameRecording(sampleRate: 48000, ticksPerQuarter: 480, beatsPerMinute: 70)
        #expect(slow.microsecondsPerQuarter == 857_143)
        slow.append(frame: 48000 * 60, status: 0x90, data1: 60, data2: 1)
        let song = try formatZeroEvents(slow.data())
        #expect(song.division == 480 && song.microsecondsPerQuarter == 857_143)
        #expect(song.events.map(\.tick) == [slow.tick(atFrame: 48000 * 60)])
        let note = try #require(song.events.first)
        #expect(abs(song.seconds(atTick: note.tick) - 60) <= 857_143e-6 / 480 / 2)
    }

    /// A gap longer than a four-byte delta (2²⁸ − 1 ticks; 38 hours at 960 ticks and 120 BPM)
    /// is bridged with empty text events, and the event after it reads back on its tick.
    @Test func aGapLongerThanADeltaIsBridged() throws {
        var recording = MIDIFrameRecording(sampleRate: 48000)
        let tick: Int64 = 0x0FFF_FFFF * 2 + 10
        recording.append(frame: tick * 25, status: 0x90, data1: 60, data2: 100)
        let data = recording.data()
        let song = try formatZeroEvents(data)
        #expect(song.events.count == 1)
        #expect(song.events.first?.tick == tick && song.endTick == tick)
        // Two bridges: the largest delta and FF 01 00, twice, then the remaining 10 ticks.
        #expect(Array(data.dropFirst(14 + 8 + 7).prefix(14)) == [0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0x01, 0x00, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0x01, 0x00])
    }

    /// The test reader takes only what the recording writes: a running status, a missing tempo,
    /// a stray meta event, an empty text event after a short delta, bytes after End of Track
    /// or a second track are each refused at their byte.
    @Test func theTestReaderRefusesWhatTheWriterDoesNotWrite() throws {
        var recording = MIDIFrameRecording(sampleRate: 48000)
        recording.append(frame: 0, status: 0x90, data1: 60, data2: 100)
        recording.append(frame: 0, status: 0x90, data1: 64, data2: 100)
        let good = [UInt8](recording.data())
        #expect(try formatZeroEvents(good).events.map(\.data1) == [60, 64])
        let body = 14 + 8  // the first byte of the track's events
        func file(_ events: [UInt8]) -> [UInt8] {
            Array(good[0..<18]) + [0, 0, 0, UInt8(events.count)] + events
        }
        let cases: [([UInt8], Int, String)] = [
            (file([0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x00, 0x90, 60, 100, 0x00, 64, 100, 0x00, 0xFF, 0x2F, 0x00]), body + 12, "found 40"),
            (file([0x00, 0x90, 60, 100, 0x00, 0xFF, 0x2F, 0x00]), body, "a tempo event at tick 0"),
            (file([0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x00, 0xFF, 0x03, 0x00, 0x00, 0xFF, 0x2F, 0x00]), body + 8, "expected a gap bridge"),
            (file([0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x05, 0xFF, 0x01, 0x00, 0x00, 0xFF, 0x2F, 0x00]), body + 8, "after a delta of 5"),
            (file([0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x00, 0xFF, 0x2F, 0x00, 0x00]), body + 8, "End of Track before the end"),
            (good + Array("MTrk".utf8) + [0, 0, 0, 0], 18, "but \(good.count - 22 + 8) follow it"),
        ]
        for (bytes, offset, message) in cases {
            let error = #expect(throws: FormatZeroError.self) { try formatZeroEvents(bytes) }
            #expect(error?.offset == offset && error?.message.contains(message) == true, "\(String(describing: error)); expected byte \(offset): \(message)")
        }
    }

    /// The file appears only complete, with no temporary file left beside it; an existing
    /// file is kept without `overwrite` and replaced with it; an input is never replaced.
    @Test func theFileAppearsOnlyCompleteAndIsNotOverwrittenUnasked() throws {
        let folder = try TemporaryFolder(prefix: "aumidi")
        defer { folder.remove() }
        let path = folder.file("take.mid")
        var recording = MIDIFrameRecording(sampleRate: 48000)
        recording.append(frame: 0, status: 0x90, data1: 60, data2: 100)
        try recording.write(to: path)
        #expect(folder.contents() == ["take.mid"])
        #expect(FileManager.default.contents(atPath: path) == recording.data())

        recording.append(frame: 4800, status: 0x80, data1: 60, data2: 0)
        let refused = #expect(throws: AudioUnitError.self) { try recording.write(to: path) }
        #expect(refused?.message == "\(path): already exists; pass overwrite (--force) to replace it")
        let firstFileSize = FileManager.default.contents(atPath: path)?.count
        #expect(firstFileSize == 14 + 8 + 15, "the first file, untouched")
        let input = #expect(throws: AudioUnitError.self) { try recording.write(to: path, overwrite: true, inputs: [path]) }
        #expect(input?.message.contains("is the input") == true)

        try recording.write(to: path, overwrite: true)
        #expect(folder.contents() == ["take.mid"])
        #expect(FileManager.default.contents(atPath: path) == recording.data())

        let missing = #expect(throws: AudioUnitError.self) { try recording.write(to: folder.file("no/such/take.mid")) }
        #expect(missing?.message.contains("does not exist") == true)
        #expect(folder.contents() == ["take.mid"])
    }
}
