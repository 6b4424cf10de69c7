import AUCore
import Foundation
import Testing

/// True when `body` throws an AudioUnitError with `code`.
func throwsCode(_ code: AudioUnitErrorCode, _ body: () throws -> Void) -> Bool {
    do {
        try body()
        return false
    } catch let error as AudioUnitError {
        return error.code == code
    } catch {
        return false
    }
}

@Suite struct PropertyTests {
    @Test func streamFormatLivesOnBusesWithScopeAndElement() throws {
        let unit = TestGainUnit()
        let format = try unit.value(of: .streamFormat, scope: .output, element: 0)
        #expect(format == .canonical(sampleRate: 48_000, channels: 2))
        #expect(throwsCode(.invalidScope) { _ = try unit.value(of: .streamFormat, scope: .global) })
        #expect(throwsCode(.invalidElement) { _ = try unit.value(of: .streamFormat, scope: .input, element: 1) })
        #expect(try unit.value(of: .elementCount, scope: .input) == 1)
        #expect(try unit.value(of: .elementName, scope: .output, element: 0) == "Out")
    }

    @Test func settingTheSampleRateOnTheGlobalScopeChangesEveryBus() throws {
        let unit = TestGainUnit()
        try unit.setValue(44_100, for: .sampleRate)
        #expect(try unit.value(of: .streamFormat, scope: .input).sampleRate == 44_100)
        #expect(try unit.value(of: .sampleRate, scope: .output, element: 0) == 44_100)
        #expect(throwsCode(.formatNotSupported) { try unit.setValue(-1, for: .sampleRate) })
    }

    @Test func aUnitWithoutBusesKeepsItsSampleRate() throws {
        let unit = AudioUnit(description: ComponentDescription(type: "aumi", subtype: "none", manufacturer: "Test"), name: "MIDI only", inputs: [], outputs: [], parameters: [])
        #expect(try unit.value(of: .sampleRate) == 48_000)
        try unit.setValue(96_000, for: .sampleRate)
        #expect(try unit.value(of: .sampleRate) == 96_000)
    }

    @Test func formatChangesAreValidated() throws {
        let unit = TestGainUnit()
        #expect(throwsCode(.formatNotSupported) {
            try unit.setValue(.int16Interleaved(sampleRate: 48_000, channels: 2), for: .streamFormat, scope: .input)
        })
        #expect(throwsCode(.formatNotSupported) {
            try unit.setValue(.canonical(sampleRate: 48_000, channels: 3), for: .streamFormat, scope: .input)
        })
        try unit.setValue(.canonical(sampleRate: 96_000, channels: 2), for: .streamFormat, scope: .input)
        #expect(try unit.value(of: .streamFormat, scope: .input).sampleRate == 96_000)
    }

    @Test func propertyInfoTellsSizeAndWritability() throws {
        let unit = TestGainUnit()
        #expect(try unit.info(for: .latency) == PropertyInfo(size: 8, isWritable: false))
        #expect(try unit.info(for: .maximumFramesPerSlice).isWritable)
        #expect(try unit.info(for: .parameterList).size == 3 * 4)
        #expect(try !unit.info(for: .elementCount, scope: .input).isWritable)
        #expect(throwsCode(.propertyNotWritable) { try unit.setValue(0.5, for: .latency) })
        #expect(throwsCode(.propertyNotWritable) { try unit.setValue(3, for: .elementCount, scope: .input) })
    }

    @Test func parameterListAndInfoUseTheElementAsTheParameterID() throws {
        let unit = TestGainUnit()
        #expect(try unit.value(of: .parameterList) == [0, 1, 2])
        #expect(try unit.value(of: .parameterList, scope: .input).isEmpty)
        let info = try unit.value(of: .parameterInfo, element: Int(TestGainUnit.mode))
        #expect(info.identifier == "mode")
        #expect(try unit.value(of: .parameterValueStrings, element: 1) == ["Clean", "Warm", "Hot"])
        #expect(throwsCode(.invalidParameter) { _ = try unit.value(of: .parameterInfo, element: 9) })
        #expect(throwsCode(.propertyNotInUse) { _ = try unit.value(of: .parameterValueStrings, element: 0) })
    }

    @Test func lifeCycleErrors() throws {
        let unit = TestGainUnit()
        #expect(renderOnes(unit, frames: 16).status == AudioUnitErrorCode.uninitialized.rawValue)
        try unit.initialize()
        try unit.initialize()  // twice is harmless
        #expect(unit.allocations == 1)
        #expect(throwsCode(.initialized) { try unit.setValue(1024, for: .maximumFramesPerSlice) })
        #expect(throwsCode(.initialized) {
            try unit.setValue(.canonical(sampleRate: 44_100, channels: 2), for: .streamFormat, scope: .output)
        })
        #expect(renderOnes(unit, frames: 4097).status == AudioUnitErrorCode.tooManyFramesToProcess.rawValue)
        #expect(renderOnes(unit, frames: 64).status == 0)
        unit.uninitialize()
        try unit.setValue(1024, for: .maximumFramesPerSlice)
        unit.dispose()
        #expect(throwsCode(.instanceInvalidated) { try unit.initialize() })
        #expect(throwsCode(.instanceInvalidated) { _ = try unit.value(of: .latency) })
    }

    @Test func presetsAndClassInfoRoundTrip() throws {
        let unit = TestGainUnit()
        #expect(try unit.value(of: .factoryPresets).map(\.name) == ["Unity", "Double"])
        try unit.setValue(UnitPreset(number: 1, name: ""), for: .presentPreset)
        #expect(try unit.parameterValue(TestGainUnit.gain) == 2)
        #expect(try unit.value(of: .presentPreset).name == "Double")
        #expect(throwsCode(.invalidPropertyValue) { try unit.setValue(UnitPreset(number: 7, name: ""), for: .presentPreset) })
        try unit.setParameter(TestGainUnit.mode, value: 2)
        let state = try unit.value(of: .classInfo)

        let copy = TestGainUnit()
        try copy.setValue(state, for: .classInfo)
        #expect(try copy.parameterValue(TestGainUnit.gain) == 2)
        #expect(try copy.parameterValue(TestGainUnit.mode) == 2)
        #expect(throwsCode(.invalidPropertyValue) { try copy.setValue(Data("nonsense".utf8), for: .classInfo) })
    }

    @Test func bypassPassesAudioThrough() throws {
        let unit = TestGainUnit()
        try unit.setParameter(TestGainUnit.gain, value: 3)
        try unit.initialize()
        #expect(renderOnes(unit, frames: 8).samples == Array(repeating: 3, count: 8))
        try unit.setValue(true, for: .bypassEffect)
        #expect(renderOnes(unit, frames: 8).samples == Array(repeating: 1, count: 8))
    }

    @Test func pullRenderUsesTheRenderCallbackAndConnections() throws {
        let source = TestGainUnit()
        let unit = TestGainUnit()
        try source.setParameter(TestGainUnit.gain, value: 2)
        try unit.setParameter(TestGainUnit.gain, value: 3)
        try source.setValue(RenderCallback { _, _, _, buffers in
            for channel in 0..<buffers.channelCount { buffers[channel].update(repeating: 0.5) }
            return 0
        }, for: .setRenderCallback, scope: .input)
        try unit.setValue(UnitConnection(sourceUnit: source, sourceOutputBus: 0, destinationInputBus: 0), for: .makeConnection, scope: .input)
        try source.initialize()
        try unit.initialize()
        let output = OwnedAudioBuffers(channels: 2, capacity: 32)
        var flags = RenderFlags()
        #expect(unit.render(flags: &flags, timestamp: RenderTimestamp(sampleTime: 0), outputBus: 0, buffers: output.buffers()) == 0)
        #expect(output.buffers()[1].allSatisfy { $0 == 3 })  // 0.5 × 2 × 3

        let unconnected = TestGainUnit()
        try unconnected.initialize()
        #expect(unconnected.render(flags: &flags, timestamp: RenderTimestamp(sampleTime: 0), outputBus: 0, buffers: output.buffers())
            == AudioUnitErrorCode.noConnection.rawValue)
        #expect(unit.render(flags: &flags, timestamp: RenderTimestamp(sampleTime: 0), outputBus: 1, buffers: output.buffers())
            == AudioUnitErrorCode.invalidElement.rawValue)
    }

    @Test func connectionsCheckFormats() throws {
        let source = TestGainUnit()
        let unit = TestGainUnit()
        try source.setValue(44_100, for: .sampleRate)
        #expect(throwsCode(.formatNotSupported) {
            try unit.setValue(UnitConnection(sourceUnit: source, sourceOutputBus: 0, destinationInputBus: 0), for: .makeConnection, scope: .input)
        })
        #expect(throwsCode(.invalidScope) {
            try unit.setValue(UnitConnection(sourceUnit: source, sourceOutputBus: 0, destinationInputBus: 0), for: .makeConnection, scope: .output)
        })
    }
}
