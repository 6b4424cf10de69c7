import AUCore
import AUEngine
import AUFiles
import AUHost
import AUTestSupport
import Foundation
import Testing

/// Passes its input through, but outputs NaN from frame `nanFrom` of the chain's timeline on.
final class NaNFromFrameUnit: AudioUnit, @unchecked Sendable {
    static let description = ComponentDescription(type: "aufx", subtype: "nanf", manufacturer: "Test")
    let nanFrom: Double

    init(nanFrom: Double) {
        self.nanFrom = nanFrom
        super.init(
            description: Self.description, name: "NaN from a frame", inputs: [.canonical(channels: 2, name: "Input")],
            outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }

    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        for channel in 0..<context.outputs[0].channelCount {
            for frame in 0..<context.frameCount {
                let time = context.timestamp.sampleTime + Double(frame)
                context.outputs[0][channel][frame] = time >= nanFrom ? .nan : context.inputs[0][channel][frame]
            }
        }
        return 0
    }
}

/// NaN never mutes a render silently: a node that outputs NaN is named with the frame, and
/// NaN in the input is reported with its frame and does not silence the rest of the file.
@Suite struct RenderFaultTests {
    /// Renders `input` (2 channels, float) through a one-node chain of `node` and returns
    /// the outcome and the output's samples.
    private func render(
        _ samples: [Float], node: String, registry: ComponentRegistry
    ) throws -> (report: RenderReport?, error: AudioUnitError?, output: [Float]) {
        let folder = try TemporaryFolder(prefix: "auhost-fault")
        defer { folder.remove() }
        let input = folder.file("in.wav")
        let buffers = OwnedAudioBuffers(channels: 2, capacity: samples.count)
        for channel in 0..<2 { for frame in samples.indices { buffers.buffers()[channel][frame] = samples[frame] } }
        let writer = try AudioFileWriter(path: input, encoding: AudioFileEncoding(format: .wav, bitDepth: .float32), sampleRate: 48_000, channels: 2)
        try writer.write(buffers.buffers())
        try writer.finish()
        let loaded = try loadPreset(#"{"auhost": 1, "name": "faults", "nodes": [{"id": "n", "unit": "\#(node)"}], "chain": ["n"]}"#, registry: registry)
        var settings = RenderSettings()
        settings.tail = .seconds(0)
        settings.blockSize = 256
        let output = folder.file("out.wav")
        let job = RenderJob(input: input, output: output, encoding: try AudioFileEncoding(format: .wav, bitDepth: .float32))
        switch BatchRenderer(loaded: loaded, registry: registry, settings: settings, jobs: [job]).render(job, progress: { _ in }) {
        case .success(let report):
            let written = try AudioFileReader(path: output).readAll()
            return (report, nil, Array(written.buffers()[0]))
        case .failure(let error):
            return (nil, error, [])
        }
    }

    @Test func aNodeThatOutputsNaNIsNamedWithTheFrame() throws {
        let registry = ComponentRegistry(providers: [BuiltinUnits()])
        registry.register(Component(
            description: NaNFromFrameUnit.description, name: "NaN from a frame", manufacturerName: "Test", version: "1",
            format: .builtin, identifier: "nan-from-frame", factory: { NaNFromFrameUnit(nanFrom: 3000) }))
        let result = try render([Float](repeating: 0.25, count: 9600), node: "aufx:nanf:Test", registry: registry)
        let report = try #require(result.report, "\(String(describing: result.error))")
        let faults = report.warnings.filter { $0.contains("NaN or infinity") }
        #expect(faults.count == 1, "\(report.warnings)")
        #expect(faults.first?.contains("'n' (NaN from a frame) produced NaN or infinity in the cycle starting at frame 2816") == true, "\(faults)")
        #expect(faults.first?.contains("muted") == true)
        #expect(result.output[1000] == 0.25)
    }

    @Test func nanInTheInputIsReportedWithItsFrameAndTheRestStillRenders() throws {
        let registry = ComponentRegistry(providers: [BuiltinUnits()])
        var samples = [Float](repeating: 0.25, count: 9600)
        samples[5000] = .nan
        samples[7000] = .infinity
        let result = try render(samples, node: "aufx:splt:AUHs", registry: registry)
        let report = try #require(result.report, "\(String(describing: result.error))")
        #expect(report.warnings.contains { $0.hasSuffix("in.wav: 4 NaN or infinite samples in the input, the first at frame 5000; rendered as silence") }, "\(report.warnings)")
        #expect(!report.warnings.contains { $0.contains("muted") }, "\(report.warnings)")
        #expect(result.output[5000] == 0 && result.output[7000] == 0)
        #expect(result.output[4999] == 0.25 && result.output[5001] == 0.25 && result.output[9599] == 0.25, "the rest of the file is not silenced")
    }
}
