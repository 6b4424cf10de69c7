import AUFiles
import AUTestSupport
import Foundation
import Testing

/// Examples/PlaySequence (Apple's PlaySequence sample's offline path in C: an SMF loaded with
/// MusicSequenceFileLoad, played into an AUSampler → GenericOutput graph pulled with
/// AudioUnitRender, written with ExtAudioFileWrite) built with cc and run on
/// SequenceRenderTests' file: the WAV has the song's length and each note at its pitch on the
/// second its tempo map gives; a missing file is an error.
@Suite struct PlaySequenceExampleTests {
    /// The folder of the libFoundation.so this process runs with (the CF functions' library).
    static var foundationDirectory: String? {
        // /proc files report no size: read them to their end rather than by their length.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { return nil }
        defer { try? handle.close() }
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let line = maps.split(separator: "\n").first { $0.hasSuffix("/libFoundation.so") }
        return line.flatMap { $0.split(separator: " ").last }.map { URL(fileURLWithPath: String($0)).deletingLastPathComponent().path }
    }

    /// Compiles `root`/Examples/`name`/main.c (the package's by default) against the
    /// library and libFoundation (the CF functions) into `folder`; `defines` are `-D` options
    /// (a textbook program's file path).
    static func compileExample(_ name: String, into folder: URL, root: URL = AudioToolboxBuild.root, defines: [String] = []) throws -> URL {
        let program = folder.appendingPathComponent(name)
        let build = AudioToolboxBuild.libraryDirectory
        let foundation = try #require(Self.foundationDirectory)
        let cc = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/cc"),
            ["-std=c11", "-Wall", "-Werror", "-Wno-multichar", "-Wno-unused-parameter", "-D_DEFAULT_SOURCE"] + defines.map { "-D\($0)" } + ["-I",
             AudioToolboxBuild.root.appendingPathComponent("include").path, root.appendingPathComponent("Examples/\(name)/main.c").path,
             "-L", build.path, "-lAudioToolbox", "-Wl,-rpath,\(build.path)", "-L", foundation, "-lFoundation", "-Wl,-rpath,\(foundation)", "-lm",
             "-o", program.path],
            timeout: 120)
        try #require(cc.status == 0, "\(cc.errors)")
        return program
    }

    @Test func aMIDIFileRendersToAWAVWithEachNoteOnItsSecond() throws {
        let folder = try AudioToolboxBuild.scratchFolder("playsequence")
        defer { try? FileManager.default.removeItem(at: folder) }
        let program = try Self.compileExample("PlaySequence", into: folder)
        let song = folder.appendingPathComponent("tempo-map.mid")
        try Data(SequenceRenderTests.file).write(to: song)
        let wav = folder.appendingPathComponent("song.wav")
        let run = try ChildProcess.run(program, [song.path, wav.path], timeout: 120)
        #expect(run.status == 0, "\(run.errors)")
        let seconds = SequenceRenderTests.seconds(16) + 1
        let frames = Int(seconds * 44_100)
        #expect(run.output.hasPrefix("rendered \(frames) frames"), "\(run.output)")

        let reader = try AudioFileReader(path: wav.path)
        #expect(reader.info.sampleRate == 44_100 && reader.info.channels == 2 && reader.info.frames == frames)
        #expect(reader.info.encodingName.contains("16 bit"), "\(reader.info)")
        let all = try reader.readAll()
        let left = withExtendedLifetime(all) { Array(all.buffers()[0]) }
        for note in SequenceRenderTests.notes {
            let start = Int(SequenceRenderTests.seconds(note.beat) * 44_100)
            let window = Array(left[(start + 441)..<(start + 441 + 8192)])
            let frequency = 440 * pow(2, (Double(note.key) - 69) / 12)
            let here = Goertzel.amplitude(of: frequency, in: window, sampleRate: 44_100)
            let neighbours = [frequency * pow(2, -1 / 12), frequency * pow(2, 1 / 12)].map { Goertzel.amplitude(of: $0, in: window, sampleRate: 44_100) }
            #expect(here > 4 * neighbours.max()!, "note \(note.key) at beat \(note.beat): \(here) against \(neighbours)")
            let before = Goertzel.amplitude(of: frequency, in: Array(left[max(0, start - 4474)..<max(4410, start - 64)]), sampleRate: 44_100)
            #expect(note.beat == 0 || here > 4 * before, "note \(note.key) sounds only from beat \(note.beat): \(before) before, \(here) after")
        }

        let missing = try ChildProcess.run(program, [folder.appendingPathComponent("none.mid").path, wav.path], timeout: 60)
        #expect(missing.status == 1 && missing.errors.contains("none.mid"), "\(missing.errors)")
    }
}
