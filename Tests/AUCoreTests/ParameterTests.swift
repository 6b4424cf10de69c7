import AUCore
import Testing

@Suite struct ParameterTests {
    @Test func valuesAreValidatedAgainstTheirInfo() throws {
        let unit = TestGainUnit()
        #expect(throwsCode(.invalidParameterValue) { try unit.setParameter(TestGainUnit.gain, value: 5) })
        #expect(throwsCode(.invalidParameterValue) { try unit.setParameter(TestGainUnit.gain, value: .nan) })
        #expect(throwsCode(.invalidParameterValue) { try unit.setParameter(TestGainUnit.mode, value: 1.5) })
        #expect(throwsCode(.propertyNotWritable) { try unit.setParameter(TestGainUnit.peak, value: 1) })
        #expect(throwsCode(.invalidParameter) { try unit.setParameter(42, value: 1) })
        #expect(throwsCode(.invalidParameter) { try unit.setParameter(TestGainUnit.gain, value: 1, scope: .input) })
        try unit.setParameter(TestGainUnit.gain, value: 4)
        #expect(try unit.parameterValue(TestGainUnit.gain) == 4)
    }

    @Test func theErrorNamesTheParameterAndItsRange() {
        let unit = TestGainUnit()
        do {
            try unit.setParameter(TestGainUnit.gain, value: 9)
            Issue.record("no error")
        } catch {
            #expect(error.message.contains("'gain'"))
            #expect(error.message.contains("0.0...4.0"))
        }
    }

    @Test func indexedParametersHaveValueStrings() throws {
        let info = try TestGainUnit().parameterInfo(ParameterAddress(TestGainUnit.mode))
        #expect(info.value(named: "warm") == 1)
        #expect(info.value(named: "Loud") == nil)
        #expect(info.valueString(for: 2) == "Hot")
    }

    @Test(arguments: [0, 1, 17, 63])
    func aChangeAtAnOffsetLandsOnThatFrame(offset: Int) throws {
        let unit = TestGainUnit()
        try unit.initialize()
        try unit.scheduleParameters([ScheduledParameterEvent(ParameterAddress(TestGainUnit.gain), .immediate(offset: offset, value: 2))])
        let samples = renderOnes(unit, frames: 64).samples
        #expect(samples[..<offset].allSatisfy { $0 == 1 })
        #expect(samples[offset...].allSatisfy { $0 == 2 })
    }

    @Test func severalEventsApplyInOffsetOrder() throws {
        let unit = TestGainUnit()
        try unit.initialize()
        try unit.setParameter(TestGainUnit.gain, value: 3, bufferOffset: 40)
        try unit.setParameter(TestGainUnit.gain, value: 2, bufferOffset: 10)
        let samples = renderOnes(unit, frames: 64).samples
        #expect(samples[0] == 1 && samples[9] == 1)
        #expect(samples[10] == 2 && samples[39] == 2)
        #expect(samples[40] == 3 && samples[63] == 3)
        #expect(renderOnes(unit, frames: 8, sampleTime: 64).samples.allSatisfy { $0 == 3 })
    }

    @Test func aRampMovesLinearlyAcrossCycles() throws {
        let unit = TestGainUnit()
        try unit.setParameter(TestGainUnit.gain, value: 0)
        try unit.initialize()
        try unit.scheduleParameters([
            ScheduledParameterEvent(ParameterAddress(TestGainUnit.gain), .ramped(startOffset: 0, duration: 128, startValue: nil, endValue: 4))
        ])
        let first = renderOnes(unit, frames: 64).samples
        let second = renderOnes(unit, frames: 64, sampleTime: 64).samples
        let all = first + second
        let step = Float(AudioUnit.rampSliceFrames)
        // Each ramp slice holds the value at its start: 4 × frame / 128, within one slice's step.
        for frame in stride(from: 0, to: 112, by: AudioUnit.rampSliceFrames) {
            #expect(abs(all[frame] - 4 * Float(frame) / 128) < 1e-6)
        }
        #expect(all == all.sorted())  // never goes back
        #expect(abs(all[127] - 4) <= 4 * step / 128)
        #expect(renderOnes(unit, frames: 16, sampleTime: 128).samples.allSatisfy { $0 == 4 })
        #expect(try unit.parameterValue(TestGainUnit.gain) == 4)
    }

    @Test func scheduledEventsAreCheckedWhenScheduled() throws {
        let unit = TestGainUnit()
        try unit.initialize()
        #expect(throwsCode(.invalidParameterValue) { try unit.setParameter(TestGainUnit.gain, value: 2, bufferOffset: 5000) })
        #expect(throwsCode(.invalidParameterValue) {
            try unit.scheduleParameters([ScheduledParameterEvent(ParameterAddress(TestGainUnit.gain), .ramped(startOffset: 0, duration: 0, startValue: nil, endValue: 1))])
        })
    }

    @Test func resetDropsPendingEvents() throws {
        let unit = TestGainUnit()
        try unit.initialize()
        try unit.setParameter(TestGainUnit.gain, value: 2, bufferOffset: 3)
        try unit.reset()
        #expect(renderOnes(unit, frames: 8).samples.allSatisfy { $0 == 1 })
    }

    /// A cursor reports a change on its first look, then only after an input parameter was
    /// written (the same value too); writes to an output (a meter) are not changes; two
    /// cursors over one table each see every change.
    @Test func aChangeCursorSeesInputWritesOnly() {
        let table = ParameterTable([
            ParameterInfo(id: 0, identifier: "gain", name: "Gain", min: 0, max: 1, default: 0.5),
            ParameterInfo(id: 1, identifier: "level", name: "Level", min: 0, max: 1, default: 0, flags: [.isReadable, .isOutput]),
        ])
        let cursor = ParameterChangeCursor(), other = ParameterChangeCursor()
        var looks: [Bool] = []
        looks.append(cursor.advance(over: table))
        looks.append(cursor.advance(over: table))
        table.storeValue(0.5, at: 0)
        looks.append(cursor.advance(over: table))
        looks.append(cursor.advance(over: table))
        table.storeValue(0.9, at: 1)
        table.exchangeValue(0.1, at: 1)
        looks.append(cursor.advance(over: table))
        table.exchangeValue(0.25, at: 0)
        looks.append(cursor.advance(over: table))
        #expect(looks == [true, false, true, false, false, true])
        #expect(table.value(at: 0) == 0.25)
        let otherLooks = [other.advance(over: table), other.advance(over: table)]
        #expect(otherLooks == [true, false])
    }
}
