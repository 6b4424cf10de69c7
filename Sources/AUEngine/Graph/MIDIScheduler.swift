import AUCore

/// What schedules MIDI for a graph's nodes at the top of every cycle, on the render thread,
/// before any node renders: what a MusicPlayer is to an AUGraph (it sends each track's
/// events to the track's destination at their sample offsets). Attach one with
/// ``AudioGraph/setMIDIScheduler(_:)``; the plan keeps it alive while it renders.
///
/// Subclass it and override ``scheduleCycle(_:)``. The override runs inside the graph's
/// render: no allocation, no lock, no retain.
/// - Thread: [render] for ``scheduleCycle(_:)``; [control] to make and attach it.
open class MIDIScheduler: @unchecked Sendable {
    /// - Thread: [control]
    public init() {}

    /// Whether it sends to the graph's MIDI output (a driver then opens one).
    /// - Thread: [control]
    open var sendsToGraphOutput: Bool { false }

    /// Whether it reads the graph's MIDI input (``MIDISchedulingCycle/graphInputEvents``;
    /// a driver then opens one).
    /// - Thread: [control]
    open var readsGraphInput: Bool { false }

    /// Sends the cycle's events through `cycle` (``MIDISchedulingCycle/send(_:to:)``).
    /// - Thread: [render] No allocation, no lock, no retain.
    open func scheduleCycle(_ cycle: MIDISchedulingCycle) {}
}

/// One cycle as a ``MIDIScheduler`` sees it: its time and length, and where its events go.
/// - Thread: [render] (valid during ``MIDIScheduler/scheduleCycle(_:)`` only).
public struct MIDISchedulingCycle {
    /// The cycle's first frame.
    public let timestamp: RenderTimestamp
    public let frameCount: Int
    let plan: Unmanaged<RenderPlan>
    let graphInput: UnsafeMutablePointer<MIDIEventBuffer>
    let graphOutput: UnsafeMutablePointer<MIDIEventBuffer>

    /// What reached the graph's MIDI input this cycle (the driver's and code's events),
    /// offsets within the cycle, in time order; what ``send(_:to:)`` adds comes after.
    /// - Thread: [render]
    public var graphInputEvents: UnsafeBufferPointer<MIDIEvent> { graphInput.pointee.events }

    /// Queues `event` (its offset within this cycle, clamped into it) for `destination`: a
    /// node that takes MIDI gets it at that frame as if a MIDI connection had brought it;
    /// the graph's MIDI input routes it like the driver's MIDI; the graph's MIDI output
    /// sends it out. False when the destination takes no MIDI in this plan or its buffer
    /// for the cycle is full.
    /// - Thread: [render] No allocation, no lock.
    @discardableResult
    public func send(_ event: MIDIEvent, to destination: MIDIEndpoint) -> Bool {
        var event = event
        event.offset = min(max(0, event.offset), Int32(max(0, frameCount - 1)))
        let buffer: UnsafeMutablePointer<MIDIEventBuffer>
        switch destination {
        case .graphInput: buffer = graphInput
        case .graphOutput: buffer = graphOutput
        case .node(let node):
            guard let scheduled = plan._withUnsafeGuaranteedRef({ $0.scheduledMIDI(for: node) }) else { return false }
            buffer = scheduled
        }
        let dropped = buffer.pointee.dropped
        buffer.pointee.insert(event)
        return buffer.pointee.dropped == dropped
    }

    /// Sets parameter slot `index` of `node`'s unit to `value` at `offset` frames into this
    /// cycle (a track's parameter event): handed to the unit's parameter scheduler, which cuts
    /// its render there when the graph renders the cycle in one slice; in a cycle of several
    /// slices, an event past the first slice takes effect at the start of the next slice.
    /// False when the node is not in this plan or the unit's queue is full.
    /// - Thread: [render] No allocation, no lock.
    @discardableResult
    public func setParameter(at index: Int, value: Float, offset: Int32, of node: GraphNode) -> Bool {
        plan._withUnsafeGuaranteedRef { plan in
            let raw = Int(node.rawValue)
            guard raw >= 0, raw < plan.stepIndexByNode.count, plan.stepIndexByNode[raw] >= 0 else { return false }
            let step = Int(plan.stepIndexByNode[raw])
            let clamped = Int(min(max(0, offset), Int32(max(0, frameCount - 1))))
            return plan.steps[step].unitReference._withUnsafeGuaranteedRef { $0.scheduleParameterFromRender(at: index, value: value, offset: clamped) }
        }
    }
}
