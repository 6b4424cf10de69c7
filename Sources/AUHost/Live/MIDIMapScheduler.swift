import AUCore
import AUEngine
import Synchronization

/// The render side of a ``MIDIMap``: attached to the chain's graph as its MIDI scheduler, it
/// reads the graph's MIDI input at the top of every cycle and moves each mapped parameter
/// at its event's frame (``AudioUnit/scheduleParameterFromRender(at:value:offset:)``); a
/// mapping with smoothing glides there in steps of ``glideStepFrames``. A scheduler
/// attached before it (a song's player) keeps running inside it.
///
/// Its table is preallocated; the control side edits it through a ring of slot updates
/// that the render thread applies at the top of a cycle. `learn` arms it to report the next
/// control change it sees.
/// - Thread: [render] for ``scheduleCycle(_:)``; [control] for the rest.
final class MIDIMapScheduler: MIDIScheduler, @unchecked Sendable {
    /// The most mappings and snapshot values one chain has.
    static let capacity = 512
    /// A glide's step: a parameter event every this many frames while it moves.
    static let glideStepFrames = 32

    /// A slot update from the control side.
    struct Edit: BitwiseCopyable {
        var slot: Int32
        var entry: MIDIMapEntry
    }

    /// What the render thread keeps per slot.
    private struct SlotState {
        /// The last value sent (NaN: none yet; the parameter's own value then).
        var current = Float.nan
        /// A glide: from `start` at absolute frame `startFrame` to `target` over the entry's frames.
        var start: Float = 0
        var target: Float = 0
        var startFrame: Int64 = 0
        var isGliding = false
        /// A toggle's state, and whether the control was pressed at its last event.
        var isOn = false
        var wasPressed = false
    }

    let edits = RealTimeRing<Edit>(minimumCapacity: 2 * MIDIMapScheduler.capacity)
    /// Set by `learn`; the render thread clears it when it reports a control change.
    let isLearning = Atomic<Bool>(false)
    /// The control change learnt: 1 << 16 | channel (0–15) << 8 | number; 0: none yet.
    let learned = Atomic<Int>(0)
    /// Moves the render thread made (any mapping), for the control side's listeners.
    let moveCount = Atomic<Int>(0)
    /// A snapshot the control side asks for (`snapshot NAME`), -1: none.
    let requestedSnapshot = Atomic<Int>(-1)
    /// The last snapshot recalled (by a program change or a request), -1: none yet.
    let recalledSnapshot = Atomic<Int>(-1)
    /// Whether a program change asks for a bank's preset (``requestedProgram``) instead of
    /// recalling a snapshot.
    let programChangesOpenPresets = Atomic<Bool>(false)
    /// The last program a program change asked for while they open presets, -1: none.
    let requestedProgram = Atomic<Int>(-1)

    private let entries: UnsafeMutablePointer<MIDIMapEntry>
    private let states: UnsafeMutablePointer<SlotState>
    private var slotsInUse = 0
    private var cycleStart: Int64 = 0
    /// The scheduler this one wraps (a song's player), kept alive here.
    let wrapped: MIDIScheduler?
    private let innerReference: Unmanaged<MIDIScheduler>?

    init(wrapping inner: MIDIScheduler?) {
        wrapped = inner
        innerReference = inner.map { Unmanaged.passUnretained($0) }
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(repeating: MIDIMapEntry(), count: Self.capacity)
        states = .allocate(capacity: Self.capacity)
        states.initialize(repeating: SlotState(), count: Self.capacity)
    }

    deinit {
        entries.deallocate()
        states.deallocate()
    }

    override var readsGraphInput: Bool { true }
    override var sendsToGraphOutput: Bool { wrapped?.sendsToGraphOutput ?? false }

    /// One cycle: the control side's edits, then the input's events in time order (glides
    /// stepping up to each), then the glides to the cycle's end; then the wrapped scheduler.
    /// - Thread: [render] No allocation, no lock, no retain.
    override func scheduleCycle(_ cycle: MIDISchedulingCycle) {
        while let edit = edits.pop() {
            let slot = Int(edit.slot)
            entries[slot] = edit.entry
            states[slot] = SlotState()
            slotsInUse = max(slotsInUse, slot + 1)
        }
        let frames = cycle.frameCount
        let requested = requestedSnapshot.exchange(-1, ordering: .acquiring)
        if requested >= 0 { recall(requested, offset: 0) }
        var done = 0
        for event in cycle.graphInputEvents {
            let offset = min(max(0, Int(event.offset)), max(0, frames - 1))
            glide(from: done, to: offset)
            done = offset
            if event.status & 0xF0 == 0xC0 {
                if programChangesOpenPresets.load(ordering: .relaxed) {
                    requestedProgram.store(Int(event.data1), ordering: .releasing)
                } else {
                    recall(Int(event.data1), offset: offset)
                }
            }
            if event.status & 0xF0 == 0xB0, isLearning.load(ordering: .relaxed) {
                learned.store(1 << 16 | Int(event.status & 0x0F) << 8 | Int(event.data1), ordering: .releasing)
                isLearning.store(false, ordering: .relaxed)
            }
            for slot in 0..<slotsInUse where entries[slot].matches(event) { apply(event, slot: slot, offset: offset) }
        }
        glide(from: done, to: frames)
        cycleStart += Int64(frames)
        innerReference?._withUnsafeGuaranteedRef { $0.scheduleCycle(cycle) }
    }

    /// Recalls snapshot `index` at `offset`: each of its values glides from where its
    /// parameter is to the snapshot's over the snapshot's ramp; glides of other snapshots stop.
    @inline(__always)
    private func recall(_ index: Int, offset: Int) {
        var found = false
        for slot in 0..<slotsInUse where entries[slot].snapshot >= 0 {
            guard Int(entries[slot].snapshot) == index else {
                states[slot].isGliding = false
                continue
            }
            found = true
            guard entries[slot].smoothingFrames > 0 else {
                states[slot].isGliding = false
                send(entries[slot].target, slot: slot, offset: offset)
                continue
            }
            states[slot].start = currentValue(slot)
            states[slot].target = entries[slot].target
            states[slot].startFrame = cycleStart + Int64(offset)
            states[slot].isGliding = true
        }
        if found { recalledSnapshot.store(index, ordering: .relaxed) }
    }

    /// Moves slot `slot` as `event` asks, at `offset` frames into the cycle.
    @inline(__always)
    private func apply(_ event: MIDIEvent, slot: Int, offset: Int) {
        let entry = entries[slot]
        let (position, isPressed) = MIDIMapEntry.position(of: event)
        let value: Float
        switch entry.curve {
        case .linear, .log:
            value = entry.value(at: position)
        case .momentary:
            value = isPressed ? entry.maximum : entry.minimum
        case .toggle:
            let pressedNow = isPressed && !states[slot].wasPressed
            states[slot].wasPressed = isPressed
            guard pressedNow else { return }
            states[slot].isOn.toggle()
            value = states[slot].isOn ? entry.maximum : entry.minimum
        }
        if entry.curve != .toggle { states[slot].wasPressed = isPressed }
        moveCount.add(1, ordering: .relaxed)
        guard entry.smoothingFrames > 0, entry.curve == .linear || entry.curve == .log else {
            states[slot].isGliding = false
            send(value, slot: slot, offset: offset)
            return
        }
        let from = states[slot].current.isNaN ? currentValue(slot) : valueNow(slot, frame: cycleStart + Int64(offset))
        states[slot].start = from
        states[slot].target = value
        states[slot].startFrame = cycleStart + Int64(offset)
        states[slot].isGliding = true
    }

    /// Sends the gliding slots' steps that fall in `[from, to)` of the cycle: one every
    /// ``glideStepFrames`` frames of the cycle, and the target at the glide's last frame.
    @inline(__always)
    private func glide(from: Int, to: Int) {
        guard from < to else { return }
        for slot in 0..<slotsInUse where states[slot].isGliding {
            let end = states[slot].startFrame + Int64(entries[slot].smoothingFrames) - cycleStart
            var frame = (from + Self.glideStepFrames - 1) / Self.glideStepFrames * Self.glideStepFrames
            if states[slot].startFrame - cycleStart >= Int64(from) { frame = Int(states[slot].startFrame - cycleStart) }
            while frame < to && Int64(frame) < end {
                send(valueNow(slot, frame: cycleStart + Int64(frame)), slot: slot, offset: frame)
                frame = (frame / Self.glideStepFrames + 1) * Self.glideStepFrames
            }
            if end >= Int64(from) && end < Int64(to) {
                send(states[slot].target, slot: slot, offset: Int(end))
                states[slot].isGliding = false
            }
        }
    }

    /// Where slot `slot`'s glide is at absolute frame `frame`.
    @inline(__always)
    private func valueNow(_ slot: Int, frame: Int64) -> Float {
        let state = states[slot]
        guard state.isGliding else { return state.current.isNaN ? currentValue(slot) : state.current }
        let fraction = min(1, max(0, Float(frame - state.startFrame) / Float(max(1, entries[slot].smoothingFrames))))
        let value = state.start + (state.target - state.start) * fraction
        return entries[slot].isWhole ? value.rounded() : value
    }

    /// The parameter's value in its unit's table.
    @inline(__always)
    private func currentValue(_ slot: Int) -> Float {
        guard let table = entries[slot].table else { return 0 }
        return Unmanaged<ParameterTable>.fromOpaque(table)._withUnsafeGuaranteedRef { $0.value(at: Int(entries[slot].parameterIndex)) }
    }

    /// Schedules `value` on the slot's parameter at `offset`; applied at once when the
    /// unit's queue is full.
    @inline(__always)
    private func send(_ value: Float, slot: Int, offset: Int) {
        states[slot].current = value
        guard let unit = entries[slot].unit else { return }
        let index = Int(entries[slot].parameterIndex)
        Unmanaged<AudioUnit>.fromOpaque(unit)._withUnsafeGuaranteedRef { unit in
            if !unit.scheduleParameterFromRender(at: index, value: value, offset: offset) { _ = unit.setParameterFromRender(at: index, value: value) }
        }
    }
}
