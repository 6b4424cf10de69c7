import AUCore
@testable import AUEngine
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// Channel counts that disagree along a chain: a converter goes between them by itself
/// (mono copied to both channels; stereo summed to mono at -3 dB), `auhost graph` shows
/// it, and `"autoconvert": false` makes the chain an error naming the connection.
@Suite struct AutoconvertTests {
    static let amp = "lv2:http://plugin.org.uk/swh-plugins/amp"
    static let ambience = "lv2:http://drobilla.net/plugins/mda/Ambience"
    static var installed: Bool { FileManager.default.fileExists(atPath: "/usr/lib/lv2/amp-swh.lv2") && FileManager.default.fileExists(atPath: "/usr/lib/lv2/mda.lv2") }

    static func chain(autoconvert: String = "") -> String {
        #"{"auhost": 1, "name": "Amp into reverb", "nodes": [{"id": "amp", "unit": "\#(amp)"}, {"id": "verb", "unit": "\#(ambience)"}], "chain": ["amp", "verb"]\#(autoconvert)}"#
    }

    @Test("a mono amp into a stereo reverb gets a converter: the graph shows it and the render comes back stereo", .enabled(if: installed, "swh-lv2 and mda-lv2 (make deps)"))
    func monoIntoStereo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preset = try folder.preset("chain.json", Self.chain())
        let graph = try runExecutable(["graph", preset])
        #expect(graph.status == 0, "\(graph.errors)")
        #expect(graph.output.contains("'Converter 1→2 ch' aufc:conv:AUHs") && graph.output.contains("'amp' (#1) -> 'Converter 1→2 ch'"), "\(graph.output)")
        try writeAudio(folder.file("mono.wav"), sampleRate: 48_000, channels: 1, frames: 24_000) { _, frame in Float(0.25 * sin(Double(frame) * 0.07)) }
        // Through the binary: the mono file comes back stereo.
        let result = try runExecutable(["render", preset, folder.file("mono.wav"), "-o", folder.file("out.wav"), "--tail", "0"])
        #expect(result.status == 0, "\(result.errors)")
        let output = try readAudio(folder.file("out.wav")).samples
        #expect(output.count == 2 && rms(output[0][2_400...]) > 0.01 && rms(output[1][2_400...]) > 0.01)
    }

    @Test("a stereo unit into a mono amp gets a 2→1 converter: the graph shows it and the render is the sum at -3 dB", .enabled(if: installed, "swh-lv2 (make deps)"))
    func stereoIntoMono() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preset = try folder.preset("chain.json", """
            {"auhost": 1, "name": "Stereo into mono", "nodes": [{"id": "wide", "unit": "aufx:gain:AUHs", "parameters": {"smoothing": 0}},
             {"id": "amp", "unit": "\(Self.amp)"}], "chain": ["wide", "amp"]}
            """)
        let graph = try runExecutable(["graph", preset])
        #expect(graph.status == 0, "\(graph.errors)")
        #expect(graph.output.contains("'Converter 2→1 ch' aufc:conv:AUHs") && graph.output.contains("'wide' (#1) output 0 -> 'Converter 2→1 ch'")
                && graph.output.contains("'Converter 2→1 ch' (#4) output 0 -> 'amp'"), "\(graph.output)")
        try writeAudio(folder.file("stereo.wav"), sampleRate: 48_000, channels: 2, frames: 4_800) { channel, _ in channel == 0 ? 0.2 : 0.1 }
        let result = try runExecutable(["render", preset, folder.file("stereo.wav"), "-o", folder.file("out.wav"), "--tail", "0"])
        #expect(result.status == 0, "\(result.errors)")
        // (L + R) / √2 in every channel that comes back.
        for channel in try readAudio(folder.file("out.wav")).samples {
            #expect(channel.count == 4_800 && channel.allSatisfy { abs($0 - 0.3 / 2.0.squareRoot().float) < 1e-5 }, "\(channel.prefix(4))")
        }
    }

    @Test("\"autoconvert\": false leaves the chain as written: one error naming the connection and the converter to insert", .enabled(if: installed, "swh-lv2 and mda-lv2 (make deps)"))
    func autoconvertOff() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preset = try folder.preset("chain.json", Self.chain(autoconvert: #", "autoconvert": false"#))
        let graph = try runExecutable(["graph", preset])
        #expect(graph.status != 0)
        #expect(graph.errors.contains("channel counts differ (1 vs 2)") && graph.errors.contains("insert a format converter (aufc:conv:AUHs)"), "\(graph.errors)")
        let wrong = try folder.preset("wrong.json", Self.chain(autoconvert: #", "autoconvert": "no""#))
        #expect(try runExecutable(["graph", wrong]).errors.contains("autoconvert: expected true or false"))
    }

    @Test("an inserted converter sums stereo to mono at -3 dB and copies mono to every channel")
    func equalPowerDownmix() throws {
        let stereo = OwnedAudioBuffers(channels: 2, capacity: 4), mono = OwnedAudioBuffers(channels: 1, capacity: 4)
        for frame in 0..<4 {
            stereo.buffers()[0][frame] = 0.5
            stereo.buffers()[1][frame] = frame < 2 ? 0.5 : 0
        }
        FormatConverterUnit.remix(stereo.buffers(), into: mono.buffers(), frames: 4, equalPower: true)
        // L = R = 0.5: 1/√2 of the sum (+3 dB over one channel); R silent: one channel at -3 dB.
        #expect(abs(mono.buffers()[0][0] - 0.5 * 2.0.squareRoot().float) < 1e-6)
        #expect(abs(mono.buffers()[0][3] - 0.5 / 2.0.squareRoot().float) < 1e-6)
        FormatConverterUnit.remix(mono.buffers(), into: stereo.buffers(), frames: 4, equalPower: true)
        #expect(stereo.buffers()[0][3] == mono.buffers()[0][3] && stereo.buffers()[1][3] == mono.buffers()[0][3])
    }
}

private extension Double {
    var float: Float { Float(self) }
}
