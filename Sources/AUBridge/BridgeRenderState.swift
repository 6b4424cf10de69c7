import AUCore
import CAUSupport
import Synchronization

/// What an isolated unit's render reads and counts: the shared memory's pointers in flat
/// tables (no Swift array is touched on the render thread), the cycle sequence, and the
/// node's counts and times, published to the render thread while the unit is initialized.
/// - Thread: [render] for ``render(_:)``; the counts are read on [any].
final class BridgeRenderState: @unchecked Sendable {
    let region: BridgeRegion
    /// The child's doorbell, rung when its render thread sleeps (kept mapped while this state lives).
    private let doorbell: BridgeDoorbell
    private let parameters: Unmanaged<ParameterTable>
    private let parameterCount: Int
    private let cursor = ParameterChangeCursor()
    private let inputPointers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private let inputCounts: UnsafeMutableBufferPointer<Int>
    private let outputPointers: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private let outputCounts: UnsafeMutableBufferPointer<Int>
    /// How long a cycle waits for the child, in nanoseconds (live: set from the period).
    let deadlineNanos = Atomic<UInt64>(0)
    /// How long it spins before it sleeps on the futex, and how long at most while the child
    /// renders the request (``au_bridge_await_reply``): a node that takes longer than the
    /// first (a long block offline) is waited for awake, not woken for (tens of µs).
    let spinNanos = Atomic<UInt64>(0)
    let longestSpinNanos = Atomic<UInt64>(0)
    private let sequence = Atomic<UInt32>(0)
    /// A late cycle's sequence still unanswered (0: none).
    private let outstanding = Atomic<UInt32>(0)
    /// Set once the child is gone: every cycle is silent without touching it.
    let ended = Atomic<Bool>(false)
    let cycles = Atomic<UInt64>(0)
    let lateCycles = Atomic<UInt64>(0)
    let totalNanos = Atomic<UInt64>(0)
    let maximumNanos = Atomic<UInt64>(0)

    /// The deadline and the spins are 0 until the unit sets them (``BridgedUnit``'s `applyDeadline`).
    init(region: BridgeRegion, doorbell: BridgeDoorbell, parameters: ParameterTable) {
        self.region = region
        self.doorbell = doorbell
        self.parameters = Unmanaged.passRetained(parameters)
        parameterCount = parameters.count
        func flat(_ buses: [[UnsafeMutablePointer<Float>]]) -> (UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>, UnsafeMutableBufferPointer<Int>) {
            let pointers = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: max(1, buses.joined().count))
            _ = pointers.initialize(from: buses.joined())
            let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(1, buses.count))
            _ = counts.initialize(from: buses.map(\.count))
            return (pointers, UnsafeMutableBufferPointer(rebasing: counts[..<buses.count]))
        }
        (inputPointers, inputCounts) = flat(region.inputs)
        (outputPointers, outputCounts) = flat(region.outputs)
    }

    deinit {
        parameters.release()
        inputPointers.deallocate()
        outputPointers.deallocate()
        inputCounts.baseAddress?.deallocate()
        outputCounts.baseAddress?.deallocate()
    }

    /// When the unanswered cycle was posted (0: none), for the monitor.
    var outstandingRequestNanos: UInt64 { au_bridge_outstanding(region.header) }

    /// One cycle through the child: the inputs, changed parameter values and MIDI into the
    /// shared memory, a ring of the doorbell if the child sleeps, a wait until the deadline, the outputs back; silence when the
    /// child is gone, late (its reply comes in a later cycle) or still busy with a late one.
    /// - Thread: [render] No allocation, no lock, no retain.
    func render(_ context: ProcessContext) -> AudioUnitStatus {
        let header = region.header
        let frames = context.frameCount
        if ended.load(ordering: .relaxed) { return silence(context) }
        let late = outstanding.load(ordering: .relaxed)
        if late != 0 {
            guard au_bridge_answered(header, late) != 0 else {
                lateCycles.add(1, ordering: .relaxed)
                return silence(context)
            }
            outstanding.store(0, ordering: .relaxed)
        }
        var channel = 0
        for bus in 0..<min(context.inputs.count, inputCounts.count) {
            let buffers = context.inputs[bus]
            for index in 0..<inputCounts[bus] {
                if index < buffers.channelCount { inputPointers[channel].update(from: buffers.channelPointers[index], count: frames) }
                channel += 1
            }
        }
        let table = parameters
        table._withUnsafeGuaranteedRef { table in
            if cursor.advance(over: table) {
                for index in 0..<parameterCount { region.parameters[index] = table.value(at: index) }
                header.pointee.parameterWrites &+= 1
            }
        }
        let midiCount = min(context.midiEvents.count, BridgeRegion.midiCapacity)
        for index in 0..<midiCount { region.midi[index] = context.midiEvents[index] }
        header.pointee.midiCount = UInt32(midiCount)
        header.pointee.frames = UInt32(frames)
        header.pointee.sampleTime = context.timestamp.sampleTime
        var next = sequence.load(ordering: .relaxed) &+ 1
        if next >= 0x7FFF_FFFF { next = 1 }
        sequence.store(next, ordering: .relaxed)
        let started = au_bridge_now()
        au_bridge_post_request(header, doorbell.pointer, next)
        let result = au_bridge_await_reply(
            header, next, started + deadlineNanos.load(ordering: .relaxed), spinNanos.load(ordering: .relaxed), longestSpinNanos.load(ordering: .relaxed))
        let elapsed = au_bridge_now() - started
        cycles.add(1, ordering: .relaxed)
        totalNanos.add(elapsed, ordering: .relaxed)
        if elapsed > maximumNanos.load(ordering: .relaxed) { maximumNanos.store(elapsed, ordering: .relaxed) }
        switch result {
        case 0:
            channel = 0
            for bus in 0..<min(context.outputs.count, outputCounts.count) {
                let buffers = context.outputs[bus]
                for index in 0..<outputCounts[bus] {
                    if index < buffers.channelCount { buffers.channelPointers[index].update(from: outputPointers[channel], count: frames) }
                    channel += 1
                }
            }
            return header.pointee.status
        case 1:
            outstanding.store(next, ordering: .relaxed)
            lateCycles.add(1, ordering: .relaxed)
            return silence(context)
        default:
            ended.store(true, ordering: .relaxed)
            return silence(context)
        }
    }

    private func silence(_ context: ProcessContext) -> AudioUnitStatus {
        for output in context.outputs { output.clear() }
        return 0
    }
}
