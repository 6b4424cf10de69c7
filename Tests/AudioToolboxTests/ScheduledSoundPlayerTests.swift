import AudioToolbox
import Foundation
import Testing

/// Apple's ScheduledSoundPlayer through the C API in an AUGraph into a GenericOutput pulled
/// with AudioUnitRender: slices of the program's float buffers play sample for sample at their
/// sample times in the unit's timeline from the start time stamp, each slice's flags say it
/// began and completed, its completion procedure is called once, a slice scheduled for a time
/// already past is marked late; CurrentPlayTime; wrong arguments.
@Suite struct ScheduledSoundPlayerTests {
    /// A slice's left samples: `base` + n / 1000 for each frame n.
    static func ramp(from base: Float, count: Int) -> [Float] {
        (0..<count).map { (n: Int) -> Float in base + Float(n) / 1000 }
    }

    /// A slice of `frames` frames at `time`: left frame n is `base` + n / 1000, right its negative.
    final class Slice {
        let left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        let slice = UnsafeMutablePointer<ScheduledAudioSlice>.allocate(capacity: 1)

        init(frames: Int, at time: Double, base: Float, completions: UnsafeMutablePointer<Int>) {
            left = .allocate(capacity: frames)
            right = .allocate(capacity: frames)
            for (n, sample) in ScheduledSoundPlayerTests.ramp(from: base, count: frames).enumerated() {
                left[n] = sample
                right[n] = -sample
            }
            list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: left)
            list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: right)
            slice.initialize(to: ScheduledAudioSlice())
            slice.pointee.mTimeStamp.mFlags = kAudioTimeStampSampleTimeValid
            slice.pointee.mTimeStamp.mSampleTime = time
            slice.pointee.mNumberFrames = UInt32(frames)
            slice.pointee.mBufferList = list.unsafeMutablePointer
            slice.pointee.mCompletionProc = { userData, _ in userData!.assumingMemoryBound(to: Int.self).pointee += 1 }
            slice.pointee.mCompletionProcUserData = UnsafeMutableRawPointer(completions)
        }

        deinit {
            left.deallocate()
            right.deallocate()
            free(list.unsafeMutablePointer)
            slice.deallocate()
        }

        var flags: UInt32 { slice.pointee.mFlags }
    }

    @Test func slicesPlayAtTheirTimesAndReportCompletion() throws {
        let (graph, _, player, output) = OneUnitGraph.make(kAudioUnitType_Generator, kAudioUnitSubType_ScheduledSoundPlayer)
        defer { DisposeAUGraph(graph!) }
        #expect(AUGraphInitialize(graph) == noErr)
        let outputUnit = try #require(output)

        let completions = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        completions.initialize(to: 0)
        defer { completions.deallocate() }
        let sliceSize = UInt32(MemoryLayout<ScheduledAudioSlice>.size)
        let first = Slice(frames: 300, at: 100, base: 0.1, completions: completions)
        let second = Slice(frames: 200, at: 1000, base: 0.5, completions: completions)
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleAudioSlice, kAudioUnitScope_Global, 0, first.slice, sliceSize) == noErr)
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleAudioSlice, kAudioUnitScope_Global, 0, second.slice, sliceSize) == noErr)
        #expect(SequenceRenderTests.render(outputUnit, from: 0, frames: 512).allSatisfy { $0 == 0 }, "nothing before the start time stamp")

        var start = AudioTimeStamp()
        start.mFlags = kAudioTimeStampSampleTimeValid
        start.mSampleTime = -1
        let stampSize = UInt32(MemoryLayout<AudioTimeStamp>.size)
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0, &start, stampSize) == noErr)
        let opening = SequenceRenderTests.render(outputUnit, from: 512, frames: 512)
        try #require(opening.count == 512)
        #expect(opening[0..<100].allSatisfy { $0 == 0 } && opening[400...].allSatisfy { $0 == 0 }, "silence around the first slice")
        #expect(Array(opening[100..<400]) == Self.ramp(from: 0.1, count: 300), "the first slice, sample for sample")
        #expect(first.flags == kScheduledAudioSliceFlag_BeganToRender | kScheduledAudioSliceFlag_Complete)
        #expect(second.flags == 0, "the second has not begun")
        #expect(completions.pointee == 1)

        let rest = SequenceRenderTests.render(outputUnit, from: 1024, frames: 1024)
        try #require(rest.count == 1024)
        #expect(Array(rest[488..<688]) == Self.ramp(from: 0.5, count: 200), "the second slice at timeline frame 1000")
        #expect(rest[0..<488].allSatisfy { $0 == 0 } && rest[688...].allSatisfy { $0 == 0 })
        #expect(second.flags == kScheduledAudioSliceFlag_BeganToRender | kScheduledAudioSliceFlag_Complete)
        #expect(completions.pointee == 2, "each completion procedure called once")

        var now = AudioTimeStamp()
        var size = stampSize
        #expect(AudioUnitGetProperty(player, kAudioUnitProperty_CurrentPlayTime, kAudioUnitScope_Global, 0, &now, &size) == noErr && now.mSampleTime == 1536)

        // A slice for a time already played: marked late, its remaining frames (none) played.
        let late = Slice(frames: 100, at: 0, base: 0.9, completions: completions)
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleAudioSlice, kAudioUnitScope_Global, 0, late.slice, sliceSize) == noErr)
        #expect(SequenceRenderTests.render(outputUnit, from: 2048, frames: 512).allSatisfy { $0 == 0 })
        #expect(late.flags == kScheduledAudioSliceFlag_BeganToRender | kScheduledAudioSliceFlag_BeganToRenderLate | kScheduledAudioSliceFlag_Complete)

        // Wrong arguments.
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleAudioSlice, kAudioUnitScope_Global, 0, first.slice, 8) == kAudioUnitErr_InvalidPropertyValue)
        let empty = Slice(frames: 10, at: 0, base: 0, completions: completions)
        empty.slice.pointee.mBufferList = nil
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleAudioSlice, kAudioUnitScope_Global, 0, empty.slice, sliceSize) == kAudioUnitErr_InvalidPropertyValue)
        let looping = Slice(frames: 10, at: 0, base: 0, completions: completions)
        looping.slice.pointee.mFlags = kScheduledAudioSliceFlag_Loop
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleAudioSlice, kAudioUnitScope_Global, 0, looping.slice, sliceSize) == kAudio_UnimplementedError)
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleAudioSlice, kAudioUnitScope_Input, 0, first.slice, sliceSize) == kAudioUnitErr_InvalidScope)
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_CurrentPlayTime, kAudioUnitScope_Global, 0, &now, stampSize) == kAudioUnitErr_PropertyNotWritable)
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleAudioSlice, kAudioUnitScope_Global, 0, nil, sliceSize) == kAudio_ParamError)
    }
}
