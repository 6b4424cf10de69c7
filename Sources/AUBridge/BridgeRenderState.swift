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
    /// The unit's input parameters (the host writes them) and output parameters (the child
    /// writes them after each cycle: meters, an LV2 plugin's latency).
    private let inputSlots: UnsafeMutableBufferPointer<Int>
    private let outputSlots: UnsafeMutableBufferPointer<Int>
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
    /// A late or posted cycle's sequence still unanswered (0: none).
    private let outstanding = Atomic<UInt32>(0)
    /// Set once the child is gone: every cycle is silent without touching it.
    let ended = Atomic<Bool>(false)
    let cycles = Atomic<UInt64>(0)
    let lateCycles = Atomic<UInt64>(0)
    let totalNanos = Atomic<UInt64>(0)
    let maximumNanos = Atomic<UInt64>(0)
    /// The cycles it rendered in a run (``BridgeRun``), with the units before and after it.
    let runCycles = Atomic<UInt64>(0)
    /// The unit's index in its child (what the host's requests name).
    let unitIndex: Int

    /// The deadline and the spins are 0 until the unit sets them (``BridgedUnit``'s `applyDeadline`).
    init(region: BridgeRegion, doorbell: BridgeDoorbell, parameters: ParameterTable, unitIndex: Int) {
        self.region = region
        self.unitIndex = unitIndex
        self.doorbell = doorbell
        self.parameters = Unmanaged.passRetained(parameters)
        func slots(_ indices: [Int]) -> UnsafeMutableBufferPointer<Int> {
            let slots = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(1, indices.count))
            _ = slots.initialize(from: indices)
            return UnsafeMutableBufferPointer(rebasing: slots[..<indices.count])
        }
        inputSlots = slots(parameters.infos.indices.filter { !parameters.infos[$0].isOutput })
        outputSlots = slots(parameters.outputSlots)
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
        inputSlots.baseAddress?.deallocate()
        outputSlots.baseAddress?.deallocate()
        outputCounts.baseAddress?.deallocate()
    }

    /// When the unanswered cycle was posted (0: none), for the monitor.
    var outstandingRequestNanos: UInt64 { au_bridge_outstanding(region.header) }

    /// One cycle through the child: the inputs, changed parameter values and MIDI into the
    /// shared memory, a ring of the doorbell if the child sleeps, a wait until the deadline, the outputs back; silence when the
    /// child is gone, late (its reply comes in a later cycle) or still busy with a late one.
    /// An answered cycle's output parameters go into `unit`'s table.
    /// - Thread: [render] No allocation, no lock, no retain.
    func render(_ context: ProcessContext, of unit: AudioUnit) -> AudioUnitStatus {
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
        copyInputs(context.inputs, frames: frames)
        let midiCount = min(context.midiEvents.count, BridgeRegion.midiCapacity)
        for index in 0..<midiCount { region.midi[index] = context.midiEvents[index] }
        stage(frames: frames, sampleTime: context.timestamp.sampleTime, midiCount: midiCount, next: 0)
        let next = advanceSequence()
        let started = au_bridge_now()
        au_bridge_post_request(header, doorbell.pointer, next)
        let result = awaitReply(next, deadline: started + deadlineNanos.load(ordering: .relaxed))
        count(au_bridge_now() - started)
        switch result {
        case 0:
            copyOutputs(context.outputs, frames: frames)
            collectOutputParameters(into: unit)
            return header.pointee.status
        case 1:
            markLate(next)
            return silence(context)
        default:
            ended.store(true, ordering: .relaxed)
            return silence(context)
        }
    }

    // MARK: - The steps of a cycle (a run's too, ``BridgeRun``)

    /// The child's doorbell in this process: two states with the same one share a child.
    var doorbellAddress: UnsafeMutablePointer<au_bridge_doorbell> { doorbell.pointer }

    /// Whether a cycle can be posted now: the child is there and has answered every cycle.
    @inline(__always)
    var isIdle: Bool { !ended.load(ordering: .relaxed) && outstanding.load(ordering: .relaxed) == 0 }

    /// Copies `inputs` into the shared input channels.
    @inline(__always)
    func copyInputs(_ inputs: UnsafeBufferPointer<AudioBuffers>, frames: Int) {
        Self.copy(inputs, shared: inputPointers, counts: inputCounts, intoShared: true, frames: frames)
    }

    /// Copies the shared output channels into `outputs`.
    @inline(__always)
    func copyOutputs(_ outputs: UnsafeBufferPointer<AudioBuffers>, frames: Int) {
        Self.copy(outputs, shared: outputPointers, counts: outputCounts, intoShared: false, frames: frames)
    }

    /// Copies `frames` frames between `buses` and the shared channels `shared` (`counts` per
    /// bus, flat): into the shared memory when `intoShared`, else out of it.
    @inline(__always)
    private static func copy(
        _ buses: UnsafeBufferPointer<AudioBuffers>, shared: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>,
        counts: UnsafeMutableBufferPointer<Int>, intoShared: Bool, frames: Int
    ) {
        var channel = 0
        for bus in 0..<min(buses.count, counts.count) {
            let buffers = buses[bus]
            for index in 0..<counts[bus] {
                if index < buffers.channelCount {
                    if intoShared {
                        shared[channel].update(from: buffers.channelPointers[index], count: frames)
                    } else {
                        buffers.channelPointers[index].update(from: shared[channel], count: frames)
                    }
                }
                channel += 1
            }
        }
    }

    /// The shared output bus 0 (`frames` long), as the child left it.
    @inline(__always)
    func outputBus(frames: Int) -> AudioBuffers {
        AudioBuffers(channelPointers: UnsafeMutableBufferPointer(start: outputPointers.baseAddress, count: outputCounts.isEmpty ? 0 : outputCounts[0]), frameCount: frames)
    }

    /// Writes a cycle's parameter values (when the table changed), MIDI count, frames, time,
    /// and the unit the child renders next over this one's output (its index + 1; 0: none).
    @inline(__always)
    func stage(frames: Int, sampleTime: Double, midiCount: Int, next: UInt32) {
        let header = region.header
        parameters._withUnsafeGuaranteedRef { table in
            if cursor.advance(over: table) {
                for index in inputSlots { region.parameters[index] = table.value(at: index) }
                header.pointee.parameterWrites &+= 1
            }
        }
        header.pointee.midiCount = UInt32(midiCount)
        header.pointee.frames = UInt32(frames)
        header.pointee.sampleTime = sampleTime
        header.pointee.next = next
    }

    /// Takes the output parameters' values the child wrote with the cycle just answered.
    @inline(__always)
    func collectOutputParameters(into unit: AudioUnit) {
        for index in outputSlots { _ = unit.setParameterFromRender(at: index, value: region.parameters[index]) }
    }

    /// The next cycle's sequence (1, 2, …, below ``AU_BRIDGE_IN_RUN``).
    @inline(__always)
    func advanceSequence() -> UInt32 {
        var next = sequence.load(ordering: .relaxed) &+ 1
        if next >= 0x7FFF_FFFF { next = 1 }
        sequence.store(next, ordering: .relaxed)
        return next
    }

    /// Waits for the reply to `sequence` until `deadline`: 0 answered, 1 late, 2 the child is gone.
    @inline(__always)
    func awaitReply(_ sequence: UInt32, deadline: UInt64) -> Int32 {
        au_bridge_await_reply(region.header, sequence, deadline, spinNanos.load(ordering: .relaxed), longestSpinNanos.load(ordering: .relaxed))
    }

    /// Counts a cycle that took `elapsed` nanoseconds.
    @inline(__always)
    func count(_ elapsed: UInt64) {
        cycles.add(1, ordering: .relaxed)
        totalNanos.add(elapsed, ordering: .relaxed)
        if elapsed > maximumNanos.load(ordering: .relaxed) { maximumNanos.store(elapsed, ordering: .relaxed) }
    }

    /// Remembers `sequence` as posted and not yet answered (0: answered), so that a cycle
    /// posted by a run and never collected is waited for as a late one.
    @inline(__always)
    func markPending(_ sequence: UInt32) { outstanding.store(sequence, ordering: .relaxed) }

    /// Remembers `sequence` as unanswered: cycles are silent until its reply comes.
    @inline(__always)
    func markLate(_ sequence: UInt32) {
        outstanding.store(sequence, ordering: .relaxed)
        lateCycles.add(1, ordering: .relaxed)
    }

    private func silence(_ context: ProcessContext) -> AudioUnitStatus {
        for output in context.outputs { output.clear() }
        return 0
    }
}
