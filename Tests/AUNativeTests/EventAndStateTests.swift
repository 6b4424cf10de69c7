import AUCore
import AUNative
import Foundation
import Testing

/// Parameter changes and MIDI reach a native unit at their frame; state round-trips.
@Suite struct EventAndStateTests {
    @Test(arguments: [1, 100, 255])
    func aScheduledParameterChangeAppliesAtItsFrame(_ offset: Int) throws {
        let unit = try NativeHarness.unit("aufx:gain:AUHs")
        try NativeHarness.set(unit, "smoothing", 0)
        let halfGain = Float(20 * log10(0.5))
        let output = try NativeHarness.render(unit, input: [[Float](repeating: 1, count: 512)], frames: 512) { start in
            if start == 256 {
                try unit.scheduleParameters([ScheduledParameterEvent(ParameterAddress(0), .immediate(offset: offset, value: halfGain))])
            }
        }
        for channel in output {
            #expect(channel[0..<(256 + offset)].allSatisfy { $0 == 1 })
            #expect(channel[(256 + offset)...].allSatisfy { abs($0 - 0.5) < 1e-6 })
        }
    }

    @Test func aNoteOnAppliesAtItsFrame() throws {
        let unit = try NativeHarness.unit("aumu:synt:AUHs")
        try NativeHarness.set(unit, "attack", 0)
        let output = try NativeHarness.render(unit, frames: 512, blockSize: 512) { start in
            if start == 0 { try unit.sendMIDIEvent(.noteOn(60, velocity: 100, offset: 300)) }
        }
        #expect(output[0][0..<300].allSatisfy { $0 == 0 })
        #expect(output[0][300..<320].contains { abs($0) > 1e-3 })
    }

    @Test func theGainReductionOutputParameterComesBack() throws {
        let unit = try NativeHarness.unit("aufx:comp:AUHs")
        _ = try NativeHarness.render(unit, input: [[Float](repeating: 1, count: 4800)], frames: 4800)
        // 0 dBFS, threshold −20, ratio 4, knee 6: 15 dB off.
        #expect(abs(try NativeHarness.value(unit, "gain_reduction") - 15) < 0.05)
    }

    @Test func stateRoundTripsIntoANewInstance() throws {
        let unit = try NativeHarness.unit("aufx:dely:AUHs")
        try NativeHarness.set(unit, "time", 123)
        try NativeHarness.set(unit, "feedback", 40)
        try NativeHarness.set(unit, "mix", 70)
        let saved = try unit.saveState()

        let copy = try NativeHarness.unit("aufx:dely:AUHs")
        try copy.restoreState(saved)
        for identifier in ["time", "feedback", "mix"] {
            #expect(try NativeHarness.value(copy, identifier) == NativeHarness.value(unit, identifier))
        }
        var impulse = [Float](repeating: 0, count: 20_000)
        impulse[0] = 1
        let a = try NativeHarness.render(unit, input: [impulse], frames: 20_000)
        let b = try NativeHarness.render(copy, input: [impulse], frames: 20_000)
        #expect(a == b)
        #expect(try copy.saveState() == saved)
    }

    @Test func theUnitsOwnStateIsSavedAndRestoredThroughTheABI() throws {
        let unit = try NativeHarness.unit("aufx:gain:AUHs")
        try NativeHarness.set(unit, "gain", -12)
        let blob = try #require(try unit.saveCustomState())
        #expect(blob.prefix(4) == Data("AUHS".utf8))
        let copy = try NativeHarness.unit("aufx:gain:AUHs")
        #expect(try copy.saveCustomState() != blob)
        try copy.restoreCustomState(blob)
        // The unit itself now holds −12 dB: what it saves again is the same.
        #expect(try copy.saveCustomState() == blob)
        #expect {
            try copy.restoreCustomState(Data("nonsense".utf8))
        } throws: { ($0 as? AudioUnitError)?.message.contains("could not read the saved state") == true }
    }

    @Test func restoringAnotherUnitsStateFails() throws {
        let delay = try NativeHarness.unit("aufx:dely:AUHs")
        let gain = try NativeHarness.unit("aufx:gain:AUHs")
        #expect(throws: AudioUnitError.self) { try gain.restoreState(try delay.saveState()) }
    }
}
