import AUCore
import AUNative
import Foundation
import Testing

/// ABI version 2's extension mechanism and its first extension, MIDI output, with units
/// written in C; and version-1 libraries, which still load as before.
@Suite struct MIDIOutputExtensionTests {
    /// The C gain unit built for `abiVersion`, with or without the MIDI output extension.
    func cUnit(abiVersion: UInt32, midiOutput: Bool) throws -> AudioUnit {
        let folder = try CLibraryFixtures.makeFolder("midi-output-v\(abiVersion)")
        // The library stays loaded once instantiated: its folder goes at once.
        defer { try? FileManager.default.removeItem(at: folder) }
        try CLibraryFixtures.buildGoodUnit(named: "libmidiout.so", in: folder, abiVersion: abiVersion, extraDefines: midiOutput ? ["MIDI_OUTPUT"] : [])
        let found = NativeProvider(searchPath: PluginSearchPath([folder.path])).discoverComponents()
        #expect(found.problems.isEmpty, "\(found.problems)")
        return try #require(found.components.first, "the version-\(abiVersion) library did not load").instantiate()
    }

    /// Renders 64 frames of ones and returns the output and the MIDI the unit sent.
    func render(_ unit: AudioUnit) throws -> (output: [Float], midi: [MIDIEvent]) {
        try NativeHarness.set(unit, "gain", 2)
        let output = try NativeHarness.render(unit, input: [[Float](repeating: 1, count: 64)], frames: 64, blockSize: 64)[0]
        return (output, Array(unit.midiOutputFromRender))
    }

    /// A version-1 library loads and renders as before; the host reads nothing past its
    /// version-1 table, so the `get_extension` set beyond its `struct_size` is never called.
    @Test func aVersion1UnitLoadsAndItsTableIsReadNoFurther() throws {
        let unit = try cUnit(abiVersion: 1, midiOutput: true)
        #expect(!unit.producesMIDIOutput)
        let (output, midi) = try render(unit)
        #expect(output.allSatisfy { $0 == 2 })
        #expect(midi.isEmpty)
    }

    /// A version-2 unit that offers AUHOST_EXTENSION_MIDI_OUTPUT produces MIDI output: what
    /// it writes into its output events reaches `midiOutputFromRender` at its offset.
    @Test func aVersion2UnitSendsMIDIThroughTheExtension() throws {
        let unit = try cUnit(abiVersion: 2, midiOutput: true)
        #expect(unit.producesMIDIOutput)
        let (output, midi) = try render(unit)
        #expect(output.allSatisfy { $0 == 2 })
        #expect(midi == [MIDIEvent(offset: 32, status: 0x91, data1: 60, data2: 100)])
    }

    /// A version-2 unit without `get_extension` (NULL) offers no extension.
    @Test func aVersion2UnitWithoutExtensionsSendsNoMIDI() throws {
        let unit = try cUnit(abiVersion: 2, midiOutput: false)
        #expect(!unit.producesMIDIOutput)
        #expect(try render(unit).midi.isEmpty)
    }

    /// The package's own units, built with the SDK, are version 2; the Arpeggiator offers
    /// MIDI output, the Gain does not.
    @Test func sdkUnitsOfferTheExtensionTheyDeclare() throws {
        #expect(try NativeHarness.unit("aumi:arpg:AUHs").producesMIDIOutput)
        #expect(try !NativeHarness.unit("aufx:gain:AUHs").producesMIDIOutput)
    }
}
