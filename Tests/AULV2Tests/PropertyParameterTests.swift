import AUCore
import AUTestSupport
import Foundation
import Testing
@testable import AULV2

/// LV2 patch properties as property parameters: listed from the plugin's Turtle, set by
/// `patch:Set` through its control atom port, tracked through what it reports.
@Suite struct PropertyParameterTests {
    static let convolver = "http://gareus.org/oss/lv2/convoLV2#Mono"
    static let zeroConvolver = "http://gareus.org/oss/lv2/zeroconvolv#CfgMono"
    static let impulse = PropertyParameterInfo(
        identifier: "impulse", name: "impulse", uri: "http://gareus.org/oss/lv2/convoLV2#impulse", valueType: .path, isWritable: true)

    /// x42 convoLV2 declares one writable `atom:Path`, its impulse response.
    @Test func convoLV2ListsItsImpulseResponse() throws {
        let unit = try LV2TestSupport.unit(Self.convolver)
        defer { unit.dispose() }
        #expect(unit.propertyParameters == [Self.impulse])
        #expect(unit.propertyParameterValue("impulse") == nil)
    }

    /// zeroconvo describes its property in its manifest: label and range are found there.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/lv2/zeroconvo.lv2")))
    func zeroconvoListsItsImpulseResponse() throws {
        let unit = try LV2TestSupport.unit(Self.zeroConvolver)
        defer { unit.dispose() }
        let ir = try #require(unit.propertyParameters.first)
        #expect(ir.identifier == "ir" && ir.name == "Impulse Response" && ir.valueType == .path && ir.isWritable)
    }

    /// A click through convoLV2 given an impulse response (a decaying noise burst) through
    /// the property is that response: correlation above 0.99 at lag 0 (convoLV2 adds no
    /// latency; the best lag within 256 frames is searched and must be 0). Offline the
    /// worker loads the file inside the run that received the `patch:Set`; live its
    /// thread does, and the test renders until the plugin reports the path back.
    @Test(arguments: [(convolver, "impulse", LV2RenderMode.offline), (convolver, "impulse", .live)])
    func aClickBecomesTheImpulseResponse(plugin: String, property: String, mode: LV2RenderMode) throws {
        let folder = try TemporaryFolder(prefix: "auhost-properties")
        defer { folder.remove() }
        let response = Self.decayingNoise(frames: 2_400)
        let file = folder.url.appendingPathComponent("room.wav")
        try WAVFile.write([response], sampleRate: 48_000, to: file)

        let unit = try LV2TestSupport.unit(plugin)
        defer { unit.dispose() }
        unit.renderMode = mode
        try unit.setValue(1024, for: .maximumFramesPerSlice)
        // Set before initialize: sent at the first run.
        try unit.setPropertyParameter(property, to: .path(file.path))
        #expect(unit.propertyParameterValue(property) == .path(file.path))
        try unit.initialize()
        var renderer = OfflineUnitRenderer(unit: unit, blockSize: 1024)
        let reported = try Self.renderUntilReported(unit, &renderer, property, .path(file.path))
        #expect(reported, "\(plugin) never reported the impulse response back")

        let output = try renderer.render(frameCount: 8_192) { _, _, frame in frame == 0 ? 1 : 0 }[0][0]
        let (lag, correlation) = Self.bestCorrelation(output, response, maximumLag: 256)
        #expect(lag == 0)
        #expect(correlation > 0.99, "correlation \(correlation) at lag \(lag)")
        // ClassInfo saves the state the unit was given (none: the file is a property value,
        // saved as one), and a new instance still gets the file.
        #expect(try unit.saveCustomState() == nil)
        unit.uninitialize()
        try unit.initialize()
        var again = OfflineUnitRenderer(unit: unit, blockSize: 1024)
        _ = try Self.renderUntilReported(unit, &again, property, .path(file.path))
        let second = try again.render(frameCount: 8_192) { _, _, frame in frame == 0 ? 1 : 0 }[0][0]
        #expect(Self.bestCorrelation(second, response, maximumLag: 256).correlation > 0.99)
    }

    /// A missing file, a folder and a file that is not audio are one clear error each,
    /// naming the file; nothing is sent and the value stays what it was.
    @Test func badFilesAreClearErrors() throws {
        let folder = try TemporaryFolder(prefix: "auhost-properties")
        defer { folder.remove() }
        let text = folder.url.appendingPathComponent("notes.wav")
        try Data("not audio at all".utf8).write(to: text)
        let unit = try LV2TestSupport.unit(Self.convolver)
        defer { unit.dispose() }
        let missing = folder.file("missing.wav")
        for (path, words) in [(missing, "does not exist"), (folder.path, "is a folder, not a regular file"), (text.path, "is not an audio file")] {
            let error = #expect(throws: AudioUnitError.self) { try unit.setPropertyParameter("impulse", to: .path(path)) }
            #expect(error?.message.contains(path) == true && error?.message.contains(words) == true, "\(error?.message ?? "")")
        }
        #expect(unit.propertyParameterValue("impulse") == nil)
        let unknown = #expect(throws: AudioUnitError.self) { try unit.setPropertyParameter("ir", to: .path(text.path)) }
        #expect(unknown?.message.contains("it has: impulse") == true)
        let wrongType = #expect(throws: AudioUnitError.self) { try unit.setPropertyParameter("impulse", to: .int(3)) }
        #expect(wrongType?.message.contains("takes a path") == true)
    }

    /// Identifiers come from the URI's fragment or last path component and are unique;
    /// ranges the host cannot send are left out.
    @Test func identifiersAreUnique() {
        let urids = URIDMap()
        let table = LV2PatchProperties([
            LV2PropertyDescription(uri: "urn:a#ir", label: "IR", range: LV2URI.atomPath, isWritable: true),
            LV2PropertyDescription(uri: "http://b/plugin/ir", label: nil, range: LV2URI.atomFloat, isWritable: false, defaultValue: "0.5"),
            LV2PropertyDescription(uri: "urn:c#curve", label: "Curve", range: "http://lv2plug.in/ns/ext/atom#Vector", isWritable: true),
        ], urids: urids)
        #expect(table.entries.map(\.info.identifier) == ["ir", "ir_2"])
        #expect(table.entries[1].info.name == "ir_2" && !table.entries[1].info.isWritable && table.entries[1].defaultValue == .float(0.5))
    }

    /// A `patch:Set` the host writes reads back as the same property and value, for every
    /// value type; a `patch:Put` body reports each of its properties.
    @Test func patchMessagesRoundTrip() throws {
        let urids = URIDMap()
        let message = PatchMessage(urids: PatchMessage.URIDs(urids))
        let property = urids.map("urn:test#p")
        let cases: [(PropertyParameterValue, String)] = [
            (.path("/tmp/a b.wav"), LV2URI.atomPath), (.string("hello"), LV2URI.atomString), (.int(-7), LV2URI.atomInt),
            (.int(1 << 40), LV2URI.atomLong), (.float(0.25), LV2URI.atomFloat), (.float(0.1), LV2URI.atomDouble), (.bool(true), LV2URI.atomBool),
        ]
        for (value, type) in cases {
            let atom = try #require(message.set(property: property, to: value, as: urids.map(type)))
            #expect(atom.count % 8 == 0)
            let read = atom.withUnsafeBytes { message.reported(in: $0) }
            #expect(read.count == 1 && read.first?.property == property && read.first?.value == value, "\(value)")
        }
        #expect(message.set(property: property, to: .string("x"), as: urids.map(LV2URI.atomInt)) == nil)
        #expect(message.getAll().withUnsafeBytes { message.reported(in: $0) }.isEmpty)
    }

    // MARK: - Helpers

    /// Noise decaying by 60 dB over `frames` frames (a fixed generator: the same every run).
    static func decayingNoise(frames: Int) -> [Float] {
        var seed: UInt32 = 12_345
        return (0..<frames).map { frame in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let noise = Float(Int32(bitPattern: seed)) / Float(Int32.max)
            return 0.5 * noise * Float(pow(10, -3 * Double(frame) / Double(frames)))
        }
    }

    /// Renders silence until the plugin reports `value` (at most 200 blocks; live, the
    /// worker thread gets a moment between blocks).
    static func renderUntilReported(_ unit: LV2Unit, _ renderer: inout OfflineUnitRenderer, _ property: String, _ value: PropertyParameterValue) throws -> Bool {
        for _ in 0..<200 {
            _ = try renderer.render(frameCount: 1024)
            if unit.propertyParameterValue(property) == value && unit.propertyValuesReported[property] != nil { return true }
            if unit.renderMode == .live { usleep(5_000) }
        }
        return false
    }

    /// The lag in 0...maximumLag at which `output` correlates best with `response`, and the
    /// normalized correlation there (over the response's length).
    static func bestCorrelation(_ output: [Float], _ response: [Float], maximumLag: Int) -> (lag: Int, correlation: Double) {
        var best = (lag: 0, correlation: -Double.infinity)
        let responseEnergy = response.reduce(0) { $0 + Double($1 * $1) }
        for lag in 0...maximumLag {
            let window = output[lag..<(lag + response.count)]
            var product = 0.0, energy = 0.0
            for (a, b) in zip(window, response) {
                product += Double(a * b)
                energy += Double(a * a)
            }
            let correlation = product / max(1e-30, (energy * responseEnergy).squareRoot())
            if correlation > best.correlation { best = (lag, correlation) }
        }
        return best
    }
}
