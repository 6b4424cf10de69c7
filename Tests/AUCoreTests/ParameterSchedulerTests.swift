import AUCore
import Testing

/// A stereo effect with one parameter, a gain (0...4, 1 by default), that the scheduler tests
/// record calls of.
class StereoGainTestUnit: AudioUnit, @unchecked Sendable {
    init(subtype: FourCharCode, name: String) {
        super.init(
            description: ComponentDescription(type: "aufx", subtype: subtype, manufacturer: "Test"), name: name,
            inputs: [.canonical(channels: 2, name: "In")], outputs: [.canonical(channels: 2, name: "Out")],
            parameters: [ParameterInfo(id: 0, identifier: "gain", name: "Gain", unit: .linearGain, min: 0, max: 4, default: 1)])
    }
}

/// A stereo gain like ``TestGainUnit`` that applies parameter changes at their frames itself
/// (as a native unit does): it records each call's length and changes.
final class TimedGainUnit: StereoGainTestUnit, @unchecked Sendable {
    private(set) var calls: [(frames: Int, changes: [ParameterChange])] = []

    init() { super.init(subtype: "tgnt", name: "Timed Gain") }

    override var takesTimedParameterChanges: Bool { true }

    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        calls.append((context.frameCount, Array(context.parameterChanges)))
        var gain = context.parameterChanges.first?.previous ?? parameters.value(at: 0)
        var next = 0
        for frame in 0..<context.frameCount {
            while next < context.parameterChanges.count && Int(context.parameterChanges[next].offset) <= frame {
                gain = context.parameterChanges[next].value
                next += 1
            }
            for channel in 0..<2 { context.outputs[0][channel][frame] = context.inputs[0][channel][frame] * gain }
        }
        return 0
    }
}

/// A stereo pass-through whose cycles the scheduler cuts at parameter events (it takes no
/// timed changes): it records each call's sample time and length, and the sample time of each
/// MIDI event it gets (the call's sample time plus the event's offset).
final class SliceRecordingUnit: StereoGainTestUnit, @unchecked Sendable {
    private(set) var calls: [(sampleTime: Double, frames: Int)] = []
    private(set) var midiSampleTimes: [Double] = []

    init() { super.init(subtype: "slcr", name: "Slice Recorder") }

    override var acceptsMIDIInput: Bool { true }

    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        calls.append((context.timestamp.sampleTime, context.frameCount))
        for event in context.midiEvents { midiSampleTimes.append(context.timestamp.sampleTime + Double(event.offset)) }
        context.outputs[0].copy(from: context.inputs[0])
        return 0
    }
}

@Suite struct ParameterSchedulerTests {
    /// The ramp starts at its offset, holds each step's start value, and reaches its end
    /// value at its last frame, not a step early.
    @Test func aRampStartsAtItsOffsetAndEndsAtItsLastFrame() throws {
        let unit = TestGainUnit()
        try unit.setParameter(TestGainUnit.gain, value: 0)
        try unit.initialize()
        try unit.scheduleParameters([
            ScheduledParameterEvent(ParameterAddress(TestGainUnit.gain), .ramped(startOffset: 8, duration: 32, startValue: 2, endValue: 4))
        ])
        let samples = renderOnes(unit, frames: 64).samples
        #expect(samples[0..<8].allSatisfy { $0 == 0 })
        #expect(samples[8..<24].allSatisfy { $0 == 2 })
        #expect(samples[24..<40].allSatisfy { $0 == 3 })
        #expect(samples[40..<64].allSatisfy { $0 == 4 })
    }

    @Test func aRampNotAMultipleOfTheStepEndsOnItsFrame() throws {
        let unit = TestGainUnit()
        try unit.setParameter(TestGainUnit.gain, value: 0)
        try unit.initialize()
        try unit.scheduleParameters([
            ScheduledParameterEvent(ParameterAddress(TestGainUnit.gain), .ramped(startOffset: 3, duration: 20, startValue: nil, endValue: 4))
        ])
        let samples = renderOnes(unit, frames: 64).samples
        #expect(samples[0..<19].allSatisfy { $0 == 0 })
        #expect(samples[19..<23].allSatisfy { $0 == 4 * 16 / 20 })
        #expect(samples[23...].allSatisfy { $0 == 4 })
    }

    @Test func anEventBeyondAShortCycleHoldsFromTheNext() throws {
        let unit = TestGainUnit()
        try unit.initialize()
        try unit.setParameter(TestGainUnit.gain, value: 2, bufferOffset: 40)
        #expect(renderOnes(unit, frames: 32).samples.allSatisfy { $0 == 1 })
        #expect(renderOnes(unit, frames: 32, sampleTime: 32).samples.allSatisfy { $0 == 2 })
    }

    /// A unit that takes timed changes renders the cycle in one call, the change at its offset.
    @Test func aUnitThatTakesTimedChangesIsNotCut() throws {
        let unit = TimedGainUnit()
        try unit.initialize()
        try unit.setParameter(0, value: 2, bufferOffset: 100)
        let samples = renderOnes(unit, frames: 256).samples
        #expect(samples[..<100].allSatisfy { $0 == 1 })
        #expect(samples[100...].allSatisfy { $0 == 2 })
        #expect(unit.calls.count == 1)
        #expect(unit.calls.first?.frames == 256)
        #expect(unit.calls.first?.changes == [ParameterChange(slot: 0, offset: 100, value: 2, previous: 1)])
    }

    /// Its ramps arrive as one change per step, at the step's frame.
    @Test func aTimedUnitGetsRampStepsAtTheirFrames() throws {
        let unit = TimedGainUnit()
        try unit.setParameter(0, value: 0)
        try unit.initialize()
        try unit.scheduleParameters([ScheduledParameterEvent(ParameterAddress(0), .ramped(startOffset: 10, duration: 32, startValue: nil, endValue: 4))])
        let samples = renderOnes(unit, frames: 64).samples
        #expect(unit.calls.count == 1)
        #expect(unit.calls.first?.changes.map(\.offset) == [10, 26, 42])
        #expect(unit.calls.first?.changes.map(\.value) == [0, 2, 4])
        #expect(samples[..<26].allSatisfy { $0 == 0 })
        #expect(samples[26..<42].allSatisfy { $0 == 2 })
        #expect(samples[42...].allSatisfy { $0 == 4 })
        #expect(try unit.parameterValue(0) == 4)
    }

    /// Cut at a parameter event, each piece of the cycle is called at its own sample time, and
    /// each MIDI event reaches the piece it falls in at its offset within that piece.
    @Test func eachSliceHasItsSampleTimeAndItsMIDIAtItsOffsets() throws {
        let unit = SliceRecordingUnit()
        try unit.initialize()
        try unit.scheduleParameters([ScheduledParameterEvent(ParameterAddress(0), .immediate(offset: 20, value: 2))])
        let input = OwnedAudioBuffers(channels: 2, capacity: 64)
        let output = OwnedAudioBuffers(channels: 2, capacity: 64)
        var inputs = [input.buffers()]
        var outputs = [output.buffers()]
        let midi = [5, 30, 50].map { MIDIEvent(offset: Int32($0), status: 0x90, data1: 60, data2: 100) }
        let status = inputs.withUnsafeMutableBufferPointer { ins in
            outputs.withUnsafeMutableBufferPointer { outs in
                midi.withUnsafeBufferPointer {
                    unit.renderCycleFromDriver(
                        timestamp: RenderTimestamp(sampleTime: 1000), frameCount: 64,
                        inputs: UnsafeBufferPointer(ins), outputs: UnsafeBufferPointer(outs), midi: $0)
                }
            }
        }
        #expect(status == 0)
        #expect(unit.calls.map(\.sampleTime) == [1000, 1020] && unit.calls.map(\.frames) == [20, 44], "\(unit.calls)")
        #expect(unit.midiSampleTimes == [1005, 1030, 1050])
    }
}
