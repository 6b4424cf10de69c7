import AUCore
import AUEngine
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

    /// Within one 256-frame render call: the unit gets the step as an event at its own frame.
    @Test func aStepInsideOneRenderCallAppliesAtItsFrame() throws {
        let unit = try NativeHarness.unit("aufx:gain:AUHs")
        try NativeHarness.set(unit, "smoothing", 0)
        let output = try NativeHarness.render(unit, input: [[Float](repeating: 1, count: 256)], frames: 256) { _ in
            try unit.setParameter(0, value: Float(20 * log10(0.5)), bufferOffset: 100)
        }
        for channel in output {
            #expect(channel[..<100].allSatisfy { $0 == 1 })
            #expect(channel[100...].allSatisfy { abs($0 - 0.5) < 1e-6 })
        }
    }

    /// The host does not cut a native unit's render call at an event: a C unit whose output
    /// is its render-call count, plus 10 from the frame of the call's parameter event, gets
    /// one call per cycle and the event at frame 100 of it (the first call gets every value
    /// at frame 0).
    @Test func aNativeUnitGetsOneRenderCallWithTheEventAtItsOffset() throws {
        let folder = try CLibraryFixtures.makeFolder("calls")
        try CLibraryFixtures.buildGoodUnit(named: "libcalls.so", in: folder, extraDefines: ["GAIN_FROM_CALLS"])
        let found = NativeProvider(searchPath: PluginSearchPath([folder.path])).discoverComponents()
        let unit = try #require(found.components.first).instantiate()
        let output = try NativeHarness.render(unit, input: [[Float](repeating: 1, count: 512)], frames: 512) { start in
            if start == 256 { try unit.setParameter(7, value: 2, bufferOffset: 100) }
        }
        #expect(output[0][..<256].allSatisfy { $0 == 11 })
        #expect(output[0][256..<356].allSatisfy { $0 == 2 })
        #expect(output[0][356...].allSatisfy { $0 == 12 })
    }

    /// A ramp from frame 100 over 64 frames: 0 dB until it starts, steps of 16 frames
    /// holding each step's start value, −12 dB from its last frame on.
    @Test func aRampStartsAtItsOffsetAndEndsOnItsLastFrame() throws {
        let unit = try NativeHarness.unit("aufx:gain:AUHs")
        try NativeHarness.set(unit, "smoothing", 0)
        let output = try NativeHarness.render(unit, input: [[Float](repeating: 1, count: 256)], frames: 256) { _ in
            try unit.scheduleParameters([
                ScheduledParameterEvent(ParameterAddress(0), .ramped(startOffset: 100, duration: 64, startValue: 0, endValue: -12))
            ])
        }
        func gain(_ decibels: Float) -> Float { pow(10, decibels / 20) }
        for channel in output {
            #expect(channel[..<116].allSatisfy { $0 == 1 })
            for (step, decibels) in [(116, Float(-3)), (132, -6), (148, -9)] {
                #expect(channel[step..<(step + 16)].allSatisfy { abs($0 - gain(decibels)) < 1e-6 }, "step at \(step)")
            }
            #expect(channel[164...].allSatisfy { abs($0 - gain(-12)) < 1e-6 })
        }
    }

    /// In a graph, the node's event reaches the native unit at its frame.
    @Test(arguments: [1, 100, 255])
    func aGraphEventAppliesAtItsFrame(_ frame: Int) throws {
        let graph = AudioGraph(registry: ComponentRegistry(providers: [BuiltinUnits()]))
        defer { graph.dispose() }
        graph.maximumFramesPerSlice = 256
        let io = try graph.addNode(ComponentDescription(type: "auou", subtype: "genr", manufacturer: BuiltinUnits.manufacturer))
        let gain = try graph.addNode(try NativeHarness.unit("aufx:gain:AUHs"))
        try graph.connect(io, to: gain)
        try graph.connect(gain, to: io)
        try graph.initialize()
        let unit = try graph.unit(of: gain)
        try NativeHarness.set(unit, "smoothing", 0)
        let input = OwnedAudioBuffers(channels: 2, capacity: 256), output = OwnedAudioBuffers(channels: 2, capacity: 256)
        for channel in 0..<2 { input.buffers()[channel].update(repeating: 1) }
        try graph.scheduleParameter(gain, ParameterAddress(0), value: Float(20 * log10(0.5)), atFrame: frame)
        #expect(graph.render(frameCount: 256, timestamp: RenderTimestamp(sampleTime: 0), input: input.buffers(), output: output.buffers()) == 0)
        for channel in 0..<2 {
            let samples = Array(output.buffers()[channel])
            #expect(samples[..<frame].allSatisfy { $0 == 1 })
            #expect(samples[frame...].allSatisfy { abs($0 - 0.5) < 1e-6 })
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
