import Synchronization
import AUCore
public import CAudioToolbox

// Apple's ScheduledSoundPlayer (`augn sspl appl`): the program schedules slices of its own
// audio (ScheduledAudioSlice: a sample time in the unit's timeline, frames and an
// AudioBufferList of 32-bit float non-interleaved samples) with
// kAudioUnitProperty_ScheduleAudioSlice, and starts the timeline with
// kAudioUnitProperty_ScheduleStartTimeStamp. The unit keeps the slices' pointers (the program
// keeps them alive until they are complete, as on Apple). The list is published to the
// render thread, which copies each slice's frames under the cycle, sets its BeganToRender
// (and BeganToRenderLate) and Complete flags in the program's struct, and calls its
// completion procedure on the render thread once its last frame is rendered: no allocation,
// lock or system call in the render.

/// A scheduled slice's address, as the render reads it.
struct SlicePointer: @unchecked Sendable {
    let slice: UnsafeMutablePointer<ScheduledAudioSlice>
}

/// `augn:sspl:appl`.
/// - Thread: [control] for set-up; ``process(_:)`` on the render thread.
public final class ScheduledSoundPlayerUnit: AUCore.AudioUnit, @unchecked Sendable {
    /// The slices scheduled and not yet seen complete (control side).
    private var scheduled: [SlicePointer] = []
    private let published = RenderSnapshot<SlicePointer>()
    /// The timeline's start: a sample time, -1 the first render's, NaN not started; as bits.
    private let startTime = Atomic<UInt64>(Double.nan.bitPattern)
    /// The sample time the first render took as the start (when the start was -1), as bits.
    private let firstRenderTime = Atomic<UInt64>(Double.nan.bitPattern)
    /// Frames since the start (`CurrentPlayTime`).
    let framesPlayed = Atomic<Int>(0)

    init(description: ComponentDescription) {
        super.init(description: description, name: "AUScheduledSoundPlayer", inputs: [], outputs: [.canonical(channels: 2, name: "Output")], parameters: [])
    }

    /// Adds a slice (its flags cleared) and publishes the list; completed slices are dropped.
    /// - Thread: [control]
    public func schedule(_ slice: UnsafeMutablePointer<ScheduledAudioSlice>) {
        slice.pointee.mFlags = 0
        scheduled.removeAll { $0.slice.pointee.mFlags & kScheduledAudioSliceFlag_Complete != 0 }
        scheduled.append(SlicePointer(slice: slice))
        published.publish(scheduled)
    }

    /// Starts the timeline at `sampleTime` (-1: the next render).
    /// - Thread: [control]
    public func start(atSampleTime sampleTime: Double) {
        firstRenderTime.store(Double.nan.bitPattern, ordering: .releasing)
        framesPlayed.store(0, ordering: .releasing)
        startTime.store(sampleTime.bitPattern, ordering: .releasing)
    }

    /// Stops playing and forgets the slices (AudioUnitReset), as Apple's does.
    /// - Thread: [control]
    public override func resetState() {
        startTime.store(Double.nan.bitPattern, ordering: .releasing)
        scheduled = []
        published.publish([])
        framesPlayed.store(0, ordering: .releasing)
    }

    /// The timeline's frame at the start of this cycle, nil before a start.
    /// - Thread: [render]
    private func timelineFrame(_ sampleTime: Double) -> Int? {
        var start = Double(bitPattern: startTime.load(ordering: .acquiring))
        guard !start.isNaN else { return nil }
        if start < 0 {
            let first = Double(bitPattern: firstRenderTime.load(ordering: .acquiring))
            if first.isNaN {
                firstRenderTime.store(sampleTime.bitPattern, ordering: .releasing)
                start = sampleTime
            } else {
                start = first
            }
        }
        return Int((sampleTime - start).rounded())
    }

    /// - Thread: [render]
    public override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let output = context.outputs[0]
        output.clear()
        guard let cycleStart = timelineFrame(context.timestamp.sampleTime) else { return 0 }
        let cycleEnd = cycleStart + context.frameCount
        framesPlayed.store(max(0, cycleEnd), ordering: .releasing)
        published.read { slices in
            for entry in slices {
                let slice = entry.slice
                guard slice.pointee.mFlags & kScheduledAudioSliceFlag_Complete == 0, let list = slice.pointee.mBufferList else { continue }
                let sliceStart = Int(slice.pointee.mTimeStamp.mSampleTime.rounded())
                let sliceEnd = sliceStart + Int(slice.pointee.mNumberFrames)
                guard sliceStart < cycleEnd else { continue }
                if slice.pointee.mFlags & kScheduledAudioSliceFlag_BeganToRender == 0 {
                    slice.pointee.mFlags |= kScheduledAudioSliceFlag_BeganToRender | (sliceStart < cycleStart ? kScheduledAudioSliceFlag_BeganToRenderLate : 0)
                }
                let buffers = Self.buffers(of: list)
                let first = max(sliceStart, cycleStart), last = min(sliceEnd, cycleEnd)
                if first < last, buffers.count > 0 {
                    for channel in 0..<output.channelCount {
                        guard let data = buffers[min(channel, buffers.count - 1)].mData?.assumingMemoryBound(to: Float.self) else { continue }
                        for frame in first..<last { output.channelPointers[channel][frame - cycleStart] += data[frame - sliceStart] }
                    }
                }
                if sliceEnd <= cycleEnd {
                    slice.pointee.mFlags |= kScheduledAudioSliceFlag_Complete
                    slice.pointee.mCompletionProc?(slice.pointee.mCompletionProcUserData, slice)
                }
            }
        }
        return 0
    }

    /// The buffers of a program's AudioBufferList: its variable-length array, whose first
    /// element ends the struct.
    /// - Thread: [render]
    private static func buffers(of list: UnsafeMutablePointer<AudioBufferList>) -> UnsafeMutableBufferPointer<AudioBuffer> {
        let offset = MemoryLayout<AudioBufferList>.size - MemoryLayout<AudioBuffer>.size
        let first = UnsafeMutableRawPointer(list).advanced(by: offset).assumingMemoryBound(to: AudioBuffer.self)
        return UnsafeMutableBufferPointer(start: first, count: Int(list.pointee.mNumberBuffers))
    }
}
