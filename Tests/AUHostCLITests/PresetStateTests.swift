import AUCore
import AUHost
import AUHostCLI
import AUTestSupport
import Foundation
import Testing

/// A preset says what plays: an explicit file or value in a preset wins over its `state`,
/// paths inside a saved state are relative to the preset's folder (so a folder moved or
/// copied as a whole plays its own files), and a file the preset names that is missing is
/// an error naming the node and the file.
@Suite(.serialized) struct PresetStateTests {
    static let convolver = FilePropertyPresetTests.convolver
    static var installed: Bool { FilePropertyPresetTests.installed }

    /// convoLV2's `ClassInfo` after it loaded `impulse`, base64, as a live save writes it.
    static func convolverState(impulse: String) throws -> String {
        let unit = try HostRegistry.make().instantiate(convolver)
        defer { unit.dispose() }
        try unit.setPropertyParameter("impulse", to: .path(impulse))
        try unit.initialize()
        let lv2 = try #require(unit as? LV2Unit)
        var renderer = OfflineUnitRenderer(unit: unit, blockSize: 256)
        let deadline = Date().addingTimeInterval(10)
        while lv2.awaitsPropertyReports, Date() < deadline { _ = try renderer.render(frameCount: 256) }
        #expect(!lv2.awaitsPropertyReports, "convoLV2 did not report its impulse within 10 s")
        return try unit.saveState(parameterValues: false).base64EncodedString()
    }

    static func writeResponse(_ path: String, _ response: [Float]) throws {
        try writeAudio(path, sampleRate: 48_000, channels: 1, frames: response.count) { _, frame in response[frame] }
    }

    /// Renders a click through `preset` and returns the correlations of the output with `a` and `b`.
    static func correlations(_ preset: String, folder: TemporaryFolder, _ a: [Float], _ b: [Float]) throws -> (Double, Double) {
        try writeAudio(folder.file("click.wav"), sampleRate: 48_000, channels: 1, frames: 9_600) { _, frame in frame == 0 ? 1 : 0 }
        let result = render([preset, folder.file("click.wav"), "-o", folder.file("out.wav"), "--tail", "0", "--bit-depth", "32f", "--force"])
        #expect(result.status == 0, "\(result.errors)")
        let output = Array(try readAudio(folder.file("out.wav")).samples[0].prefix(a.count))
        return (FilePropertyPresetTests.correlation(output, a), FilePropertyPresetTests.correlation(output, b))
    }

    @Test("convoLV2: an explicit impulse wins over a state that names another file", .enabled(if: installed, "x42-plugins (convoLV2) is not installed"))
    func explicitImpulseWinsOverState() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let room = FilePropertyPresetTests.impulseResponse()
        let other = Array(room.reversed())
        try FileManager.default.createDirectory(atPath: folder.file("old"), withIntermediateDirectories: true)
        try Self.writeResponse(folder.file("old/room.wav"), room)
        try Self.writeResponse(folder.file("other.wav"), other)
        let state = try Self.convolverState(impulse: folder.file("old/room.wav"))
        let preset = try folder.preset("p.json", #"{"auhost": 1, "name": "R", "nodes": [{"id": "ir", "unit": "\#(Self.convolver)", "parameters": {"impulse": "other.wav"}, "state": "\#(state)"}], "chain": ["ir"]}"#)
        let (withRoom, withOther) = try Self.correlations(preset, folder: folder, room, other)
        #expect(withOther > 0.99 && withRoom < 0.5, "correlation with the explicit other.wav \(withOther), with the state's room.wav \(withRoom)")
    }
}
