import AUCore
import AUEngine
import AUFiles
import AUHost
import AUTestSupport
import Foundation
import Testing

/// Writes, on every frame of a cycle, the beat the host's transport is at at the cycle's
/// start: -1 when it is stopped, -2 when the host gives no transport.
final class TransportProbe: AudioUnit, @unchecked Sendable {
    static let description = ComponentDescription(type: "aufx", subtype: "trpr", manufacturer: "Test")

    init() {
        super.init(
            description: Self.description, name: "Transport probe", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }

    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let value: Float = currentTransport.map { $0.isRolling ? Float($0.beat) : -1 } ?? -2
        for channel in 0..<context.outputs[0].channelCount {
            for frame in 0..<context.frameCount { context.outputs[0][channel][frame] = value }
        }
        return 0
    }
}

@Suite struct OfflineTransportTests {
    /// An offline render is a song being exported: the units see a transport rolling at
    /// 120 BPM 4/4 from the first frame, as auhost_plugin.h promises (it was the chain's
    /// stopped default: beat 0, not rolling).
    @Test func theOfflineTransportRollsAt120BPM() throws {
        let registry = ComponentRegistry(providers: [BuiltinUnits()])
        registry.register(Component(
            description: TransportProbe.description, name: "Transport probe", manufacturerName: "Test", version: "1",
            format: .builtin, identifier: "transport-probe", factory: { TransportProbe() }))
        let folder = try TemporaryFolder(prefix: "auhost-transport")
        defer { folder.remove() }
        let input = folder.file("silence.wav")
        let frames = 96_000
        let silence = OwnedAudioBuffers(channels: 2, capacity: frames)
        let writer = try AudioFileWriter(path: input, encoding: AudioFileEncoding(format: .wav, bitDepth: .float32), sampleRate: 48_000, channels: 2)
        try writer.write(silence.buffers())
        try writer.finish()
        let loaded = try loadPreset(
            #"{"auhost": 1, "name": "transport", "nodes": [{"id": "probe", "unit": "aufx:trpr:Test"}], "chain": ["probe"]}"#,
            registry: registry)
        var settings = RenderSettings()
        settings.tail = .seconds(0)
        settings.blockSize = 1000
        let output = folder.file("out.wav")
        let job = RenderJob(input: input, output: output, encoding: try AudioFileEncoding(format: .wav, bitDepth: .float32))
        let result = BatchRenderer(loaded: loaded, registry: registry, settings: settings, jobs: [job]).render(job, progress: { _ in })
        if case .failure(let error) = result { Issue.record("\(error)") }
        let samples = try AudioFileReader(path: output).readAll()
        #expect(samples.capacity == frames)
        // 120 BPM at 48 kHz: a beat every 24 000 frames; each 1000-frame cycle sees the
        // beat at its first frame.
        for frame in stride(from: 0, to: frames, by: 1000) {
            let beat = samples.buffers()[0][frame]
            #expect(abs(beat - Float(frame) / 24_000) < 1e-5, "frame \(frame): beat \(beat)")
        }
    }
}
