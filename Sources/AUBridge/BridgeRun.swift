import AUCore
import CAUSupport

/// Isolated units of one child that render one after another in one hand-over a cycle
/// (``UnitRun``): the host copies the first unit's input into the shared memory, posts every
/// unit's cycle (the first one's last, which rings the child), and the child renders each unit
/// over the output of the one before it in its own memory, silencing a unit that fails or
/// writes NaN or infinity as the graph would; the host waits for each unit's reply in turn and
/// copies the last one's output back. One wake-up and two copies a cycle instead of one and
/// two per unit. A cycle in which a unit cannot render plainly, has moved to another child
/// (``BridgedUnit/reload()``), or has a late cycle unanswered is declined: the graph renders the
/// units one by one, each through its own ``BridgeRenderState``.
/// - Thread: [control] to make; [render] ``render(frames:time:input:output:)``.
final class BridgeRun: UnitRun, @unchecked Sendable {
    private let units: UnsafeMutableBufferPointer<Unmanaged<BridgedUnit>>
    /// The units' render states and sequences of the cycle being rendered.
    private let states: UnsafeMutableBufferPointer<Unmanaged<BridgeRenderState>?>
    private let sequences: UnsafeMutableBufferPointer<UInt32>
    /// How many units answered the last cycle rendered (the rest were late or their child is gone).
    private var answered = 0
    /// When the cycle posted last must be answered by (``au_bridge_now()``'s clock).
    private var deadline: UInt64 = 0

    init(_ units: [BridgedUnit]) {
        self.units = .allocate(capacity: units.count)
        _ = self.units.initialize(from: units.map { Unmanaged.passRetained($0) })
        states = .allocate(capacity: units.count)
        states.initialize(repeating: nil)
        sequences = .allocate(capacity: units.count)
        sequences.initialize(repeating: 0)
        super.init(count: units.count)
    }

    deinit {
        units.forEach { $0.release() }
        units.deallocate()
        states.deallocate()
        sequences.deallocate()
    }

    /// Copies the input in and posts every unit's cycle; each unit's sequence stays pending
    /// in its render state until ``collect(frames:time:output:)`` takes the reply.
    /// - Thread: [render] No allocation, no lock, no retain.
    override func post(frames: Int, time: RenderTimestamp, input: AudioBuffers) -> Bool {
        guard gather(frames: frames) else { return false }
        // The followers first, without a ring: the child takes them only after the unit before.
        for index in 1..<count {
            states[index].unsafelyUnwrapped._withUnsafeGuaranteedRef { state in
                state.stage(frames: frames, sampleTime: time.sampleTime, midiCount: 0, next: nextIndex(after: index))
                let sequence = state.advanceSequence() | AU_BRIDGE_IN_RUN
                sequences[index] = sequence
                state.markPending(sequence)
                au_bridge_post_in_run(state.region.header, sequence)
            }
        }
        states[0].unsafelyUnwrapped._withUnsafeGuaranteedRef { state in
            withUnsafePointer(to: input) { state.copyInputs(UnsafeBufferPointer(start: $0, count: 1), frames: frames) }
            state.stage(frames: frames, sampleTime: time.sampleTime, midiCount: 0, next: nextIndex(after: 0))
            let sequence = state.advanceSequence()
            sequences[0] = sequence
            state.markPending(sequence)
            deadline = au_bridge_now() &+ state.deadlineNanos.load(ordering: .relaxed)
            au_bridge_post_request(state.region.header, state.doorbellAddress, sequence)
        }
        return true
    }

    /// Waits for each unit's reply in turn (until the deadline set when the cycle was
    /// posted), counting each wait from the one before (the first from now), then copies
    /// the last unit's output back and reports each unit's status to it.
    /// - Thread: [render] No allocation, no lock, no retain.
    override func collect(frames: Int, time: RenderTimestamp, output: AudioBuffers) {
        var since = au_bridge_now()
        for index in 0..<count {
            let answered = states[index].unsafelyUnwrapped._withUnsafeGuaranteedRef { state -> Bool in
                let result = state.awaitReply(sequences[index], deadline: deadline)
                let now = au_bridge_now()
                let waited = now &- since
                state.count(waited)
                since = now
                switch result {
                case 0:
                    state.markPending(0)
                    units[index]._withUnsafeGuaranteedRef { state.collectOutputParameters(into: $0) }
                    state.runCycles.add(1, ordering: .relaxed)
                    let header = state.region.header
                    outcomes[index] = UnitRunOutcome(status: header.pointee.status, wroteNonFinite: header.pointee.nonFinite != 0, nanoseconds: waited)
                    return true
                case 1:
                    for late in index..<count { states[late].unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.markLate(sequences[late]) } }
                default:
                    for gone in index..<count { states[gone].unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.ended.store(true, ordering: .relaxed) } }
                }
                return false
            }
            guard answered else {
                self.answered = index
                for silent in index..<count { outcomes[silent] = UnitRunOutcome() }
                output.clear()
                return
            }
        }
        answered = count
        states[count - 1].unsafelyUnwrapped._withUnsafeGuaranteedRef { state in
            withUnsafePointer(to: output) { state.copyOutputs(UnsafeBufferPointer(start: $0, count: 1), frames: frames) }
        }
        for index in 0..<count {
            let status = outcomes[index].status
            let buffers = index == count - 1 ? output : states[index].unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.outputBus(frames: frames) }
            units[index]._withUnsafeGuaranteedRef { unit in
                unit.recordRunStatus(status)
                unit.notifyRenderAfterRun(status: status, timestamp: time, buffers: buffers)
            }
        }
    }

    /// - Thread: [render] No allocation, no lock, no retain.
    override func input(of member: Int, frames: Int) -> AudioBuffers {
        guard member <= answered else { return AudioBuffers(channelPointers: UnsafeMutableBufferPointer(start: nil, count: 0), frameCount: frames) }
        return states[member - 1].unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.outputBus(frames: frames) }
    }

    /// Finds every unit's published render state, and whether all can take this cycle: each
    /// renders plainly, its child is the first unit's and has answered every cycle.
    @inline(__always)
    private func gather(frames: Int) -> Bool {
        var doorbell: UnsafeMutablePointer<au_bridge_doorbell>?
        for index in 0..<count {
            let ready = units[index]._withUnsafeGuaranteedRef { unit -> Bool in
                guard unit.rendersPlainly(frameCount: frames), let state = unit.publishedRenderState else { return false }
                states[index] = state
                return state._withUnsafeGuaranteedRef { state in
                    if doorbell == nil { doorbell = state.doorbellAddress }
                    return state.isIdle && state.doorbellAddress == doorbell
                }
            }
            guard ready else { return false }
        }
        return true
    }

    /// What the child renders after unit `index`: the next unit's index in the child + 1, 0 after the last.
    @inline(__always)
    private func nextIndex(after index: Int) -> UInt32 {
        index + 1 < count ? UInt32(states[index + 1].unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.unitIndex } + 1) : 0
    }
}
