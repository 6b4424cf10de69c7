import AUCore

/// The constant delay of a graph that may pipeline its chain: its output leaves `frames`
/// frames late, whatever the plan. A pipelined plan pushes each slice as its last stage
/// finishes it (up to `frames` frames are still inside the stages); a plan that is not
/// pipelined pushes each slice at once. Every cycle pops as many frames as it renders, so
/// the latency stays `frames` across plan swaps, cycles of any length and a pipeline cut
/// into fewer stages than allowed. A ring of `frames` plus two slices per channel, primed
/// with `frames` frames of silence.
/// - Thread: [control] creates it; [render] the rest.
final class PipelineDelay: @unchecked Sendable {
    /// The delay, in frames.
    let frames: Int
    let channels: Int
    private let capacity: Int
    private let samples: UnsafeMutablePointer<Float>
    /// Where the oldest frame is, and how many frames wait (render thread only).
    private let state: UnsafeMutablePointer<(read: Int, count: Int)>

    /// - Thread: [control]
    init(frames: Int, channels: Int, sliceFrames: Int) {
        self.frames = frames
        self.channels = max(1, channels)
        capacity = frames + 2 * sliceFrames
        samples = .allocate(capacity: self.channels * capacity)
        state = .allocate(capacity: 1)
        state.initialize(to: (0, 0))
        reset()
    }

    deinit {
        samples.deallocate()
        state.deallocate()
    }

    /// Back to `frames` frames of silence (after an abandoned cycle lost what was in flight).
    /// - Thread: [render], or [control] while no render runs.
    func reset() {
        samples.update(repeating: 0, count: channels * capacity)
        state.pointee = (0, frames)
    }

    /// Frames waiting to leave.
    /// - Thread: [render]
    @inline(__always)
    var count: Int { state.pointee.count }

    /// Appends `frameCount` frames of `view` (silence for channels it lacks; nil: silence).
    /// - Thread: [render]
    @inline(__always)
    func push(_ view: AudioBuffers?, at offset: Int = 0, frames frameCount: Int) {
        let room = min(frameCount, capacity - state.pointee.count)
        let write = (state.pointee.read + state.pointee.count) % capacity
        let first = min(room, capacity - write)
        for channel in 0..<channels {
            let ring = samples + channel * capacity
            if let view, channel < view.channelCount {
                let source = view.channelPointers[channel] + offset
                (ring + write).update(from: source, count: first)
                ring.update(from: source + first, count: room - first)
            } else {
                (ring + write).update(repeating: 0, count: first)
                ring.update(repeating: 0, count: room - first)
            }
        }
        state.pointee.count += room
    }

    /// Moves up to `frameCount` of the oldest frames into `output` at `offset` (silence for
    /// channels the ring lacks); returns how many.
    /// - Thread: [render]
    @inline(__always)
    @discardableResult
    func pop(into output: AudioBuffers, at offset: Int, frames frameCount: Int) -> Int {
        let moved = min(frameCount, state.pointee.count)
        guard moved > 0 else { return 0 }
        let read = state.pointee.read
        let first = min(moved, capacity - read)
        for channel in 0..<output.channelCount {
            let target = output.channelPointers[channel] + offset
            if channel < channels {
                let ring = samples + channel * capacity
                target.update(from: ring + read, count: first)
                (target + first).update(from: ring, count: moved - first)
            } else {
                target.update(repeating: 0, count: moved)
            }
        }
        state.pointee = ((read + moved) % capacity, state.pointee.count - moved)
        return moved
    }

    /// Delays `frameCount` frames of `output` at `offset` in place: they go in, and as many
    /// older ones come out in their place.
    /// - Thread: [render]
    @inline(__always)
    func delay(_ output: AudioBuffers, at offset: Int, frames frameCount: Int) {
        push(output, at: offset, frames: frameCount)
        pop(into: output, at: offset, frames: frameCount)
    }
}
