import AUCore
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// What `render` refuses before it starts: a MIDI song longer than --max-length, an AIFF
/// past 4 GiB, an output its file system has no room for.
@Suite struct RenderLimitTests {
    private static let splitter = #"{"auhost": 1, "name": "Split", "nodes": [{"id": "s", "unit": "aufx:splt:AUHs"}], "chain": ["s"]}"#

    /// A folder with the splitter preset, deleted afterwards.
    private func inFolder(_ body: (_ folder: String, _ preset: String) throws -> Void) throws {
        let folder = try TemporaryFolder(prefix: "auhost-limits")
        defer { folder.remove() }
        let preset = try folder.write("split.json", Self.splitter)
        try body(folder.path, preset)
    }

    private func writeSilence(_ path: String, sampleRate: Double, frames: Int) throws {
        let writer = try AudioFileWriter(path: path, encoding: try AudioFileEncoding(format: .wav, bitDepth: .int16), sampleRate: sampleRate, channels: 2)
        let block = OwnedAudioBuffers(channels: 2, capacity: frames)
        try withExtendedLifetime(block) { try writer.write(block.buffers(frameCount: frames)) }
        try writer.finish()
    }

    /// 37 bytes: one note after a delta of 0x0FFFFFFF ticks (about 16 days at 120 BPM).
    static let sixteenDays: [UInt8] = {
        let events: [UInt8] = [0xFF, 0xFF, 0xFF, 0x7F, 0x90, 60, 100, 0x00, 0x80, 60, 64, 0x00, 0xFF, 0x2F, 0x00]
        return Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, 0, UInt8(events.count)] + events
    }()

    @Test func aSongLongerThanMaxLengthIsRefusedBeforeRendering() throws {
        try inFolder { folder, preset in
            let midi = folder + "/long.mid"
            try Data(Self.sixteenDays).write(to: URL(fileURLWithPath: midi))
            #expect(Self.sixteenDays.count == 37)
            let result = runCLI("render", preset, midi, "-o", folder + "/long.wav")
            #expect(result.status == 1)
            #expect(result.errors.contains("\(midi): the song lasts 16 days"), "\(result.errors)")
            #expect(result.errors.contains("pass --max-length SECONDS"), "\(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/long.wav"))
        }
    }

    @Test func anAIFFPastFourGiBIsRefusedBeforeRendering() throws {
        try inFolder { folder, preset in
            let input = folder + "/in.wav"
            try writeSilence(input, sampleRate: 192_000, frames: 192)
            // An hour of tail at 192 kHz, stereo float: 5.5 GB. Into a small disk, so that a
            // writer that did not refuse would stop at once.
            let disk = TinyFileSystem(kibibytes: 1024)
            defer { disk?.unmount() }
            let output = (disk?.path ?? folder) + "/out.aiff"
            let result = runCLI("render", preset, input, "-o", output, "--bit-depth", "32f", "--tail", "3600")
            #expect(result.status == 1)
            #expect(result.errors.contains("\(output): the output may reach 5.5 GB and aiff holds at most 4.3 GB"), "\(result.errors)")
        }
    }

    @Test(.enabled(if: TinyFileSystem.isAvailable, "mounting a tmpfs needs root"))
    func anOutputWithoutRoomIsRefusedBeforeRendering() throws {
        try inFolder { folder, preset in
            let input = folder + "/in.wav"
            try writeSilence(input, sampleRate: 48_000, frames: 48_000)
            let disk = try #require(TinyFileSystem(kibibytes: 128))
            defer { disk.unmount() }
            let result = runCLI("render", preset, input, "-o", disk.path + "/out.wav", "--bit-depth", "32f", "--tail", "0")
            #expect(result.status == 1)
            #expect(result.errors.contains("\(disk.path)/out.wav: the output may take"), "\(result.errors)")
            #expect(result.errors.contains("free; expected room for it"), "\(result.errors)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
        }
    }

    /// 600 notes at once into an instrument that takes 512 a cycle: the render succeeds,
    /// the rest are dropped and counted in one warning (88 note-ons, and the 88 of their
    /// note-offs, which the end of the track sends at once too).
    @Test func moreSimultaneousMIDIEventsThanACycleTakesAreDroppedWithOneWarning() throws {
        try inFolder { folder, _ in
            var events: [UInt8] = []
            for note in 0..<600 { events += [0x00, 0x90, UInt8(note % 128), 1] }
            events += [0x60, 0xFF, 0x2F, 0x00]
            let length = UInt32(events.count)
            let song = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8)
                + [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + events
            let midi = folder + "/chord.mid"
            try Data(song).write(to: URL(fileURLWithPath: midi))
            let synth = folder + "/synth.json"
            try Data(#"{"auhost": 1, "name": "synth", "sampleRate": 48000, "nodes": [{"id": "synth", "unit": "aumu:synt:AUHs"}], "chain": ["synth"]}"#.utf8)
                .write(to: URL(fileURLWithPath: synth))
            let output = TextOutput(), errors = TextOutput()
            let status = AUHostCLI.run(["render", synth, midi, "-o", folder + "/chord.wav", "--tail", "0"], output: output, errors: errors)
            #expect(status == 0, "\(errors.captured)")
            let warnings = errors.captured.split(separator: "\n").filter { $0.contains("dropped") }
            #expect(warnings.count == 1, "\(errors.captured)")
            #expect(warnings.first?.contains("\(midi): 176 MIDI events were dropped: more than 512") == true, "\(errors.captured)")
        }
    }

    /// A chain takes its rate from the input when the preset names none: an input at
    /// 4000 Hz would run it outside 8000...768000 Hz, where plugins misbehave.
    @Test func anInputRateOutsideTheChainRatesIsRefused() throws {
        try inFolder { folder, preset in
            let input = folder + "/low.wav"
            try writeSilence(input, sampleRate: 4000, frames: 400)
            let result = runCLI("render", preset, input, "-o", folder + "/out.wav")
            #expect(result.status == 1)
            #expect(result.errors.contains("\(input): the chain would run at the file's 4000 Hz; expected a rate in 8000...768000 Hz"), "\(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out.wav"))
        }
    }
}
