import AUCore
import AUFiles
import AUHost
import AULV2
import AUTestSupport
import Foundation
import Testing

/// An LV2 plugin's state restored for an offline render is in effect when rendering starts
/// (issue 17): the offline renderer instantiates the chain's LV2 plugins again after its
/// latency-priming cycle, and the new instance must get the state the first one had.
@Suite struct LV2StateOfflineTests {
    static let fluidsynth = "http://calf.sourceforge.net/plugins/Fluidsynth"
    static let bank = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
    /// A limiter that reports its latency, so that the chain is primed (LatencyPriming).
    static let limiter = "http://gareus.org/oss/lv2/dpl#stereo"
    static let song = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Presets/arpeggio-chords.mid").standardized.path

    /// Calf Fluidsynth pointed at the General MIDI bank through its state (made as a user
    /// would: the plugin loaded, the soundfont set through its state interface, ClassInfo
    /// saved) plays the song offline, before a limiter that makes the renderer prime the
    /// chain: audible (it was -150 dBFS: the second instance had no soundfont).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/lv2/calf.lv2") && FileManager.default.fileExists(atPath: bank)))
    func calfFluidsynthPlaysTheGMBankOffline() throws {
        let registry = HostRegistry.make()
        let state = try Self.fluidsynthState(registry: registry)
        let folder = try TemporaryFolder(prefix: "auhost-lv2-state")
        defer { folder.remove() }
        let loaded = try loadPreset(
            """
            {"auhost": 1, "name": "GM", "sampleRate": 48000,
             "nodes": [{"id": "gm", "unit": "lv2:\(Self.fluidsynth)", "state": "\(state.base64EncodedString())"},
                       {"id": "limiter", "unit": "lv2:\(Self.limiter)"}],
             "chain": ["gm", "limiter"]}
            """, registry: registry)
        defer { loaded.dispose() }
        var settings = RenderSettings()
        settings.tail = .seconds(0)
        let output = folder.file("out.wav")
        let job = RenderJob(input: Self.song, output: output, encoding: try AudioFileEncoding(format: .wav, bitDepth: .float32))
        let result = BatchRenderer(loaded: loaded, registry: registry, settings: settings, jobs: [job]).render(job, progress: { _ in })
        if case .failure(let error) = result { Issue.record("\(error)") }
        let samples = try AudioFileReader(path: output).readAll()
        let left = samples.buffers()[0]
        let energy = (0..<samples.capacity).reduce(0.0) { (sum: Double, frame: Int) in sum + Double(left[frame] * left[frame]) }
        let rms = 20 * log10((energy / Double(max(1, samples.capacity))).squareRoot() + 1e-30)
        #expect(rms > -40, "the song rendered at \(rms) dBFS RMS")
    }

    /// The plugin's state with the GM bank as its soundfont, as a preset's `state`.
    static func fluidsynthState(registry: ComponentRegistry) throws -> Data {
        let unit = try #require(try registry.instantiate("lv2:" + fluidsynth) as? LV2Unit)
        defer { unit.dispose() }
        try unit.initialize()
        // The plugin's own state as an LV2 preset (lilv Turtle), its soundfont set, given back.
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-gm-\(UUID().uuidString).lv2")
        defer { try? FileManager.default.removeItem(at: bundle) }
        let turtle = try String(contentsOf: try #require(URL(string: try unit.savePreset(label: "gm", bundle: bundle))), encoding: .utf8)
        #expect(turtle.contains("<urn:calf:soundfont> \"\""))
        unit.stateFolder = bundle // the preset's URIs are relative to its bundle
        try unit.restoreCustomState(Data(turtle.replacingOccurrences(of: "<urn:calf:soundfont> \"\"", with: "<urn:calf:soundfont> \"\(bank)\"").utf8))
        unit.stateFolder = nil
        #expect(String(decoding: try #require(try unit.saveCustomState()), as: UTF8.self).contains(bank))
        return try unit.saveState()
    }
}
