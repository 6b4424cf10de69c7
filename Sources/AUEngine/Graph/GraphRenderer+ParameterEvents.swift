import AUCore

/// The render side of scheduled parameter events: taking them from the control threads' queue
/// into the cycle's sorted list, handing each unit those of its calls, and dropping those
/// the cycle applied. No allocation, no lock.
/// - Thread: [render]
extension GraphRenderer {
    /// Moves waiting events into the cycle's list, sorted by offset (stable).
    func takeParameterEvents() {
        guard pendingEvents.load(ordering: .acquiring) != 0 else { return }
        let before = eventCount
        defer { pendingEvents.wrappingSubtract(eventCount - before, ordering: .relaxed) }
        var count = eventCount
        while count < GraphRenderer.eventCapacity, let event = parameterEvents.pop() { events.insertSorted(event, count: &count, by: { $0.offset }) }
        eventCount = count
    }

    /// Drops the events this cycle applied; later ones, and those of the last `held` frames
    /// (slices a pipeline's later stages have yet to render), move `frameCount` frames closer.
    func retireParameterEvents(frameCount: Int, held: Int) {
        var kept = 0
        for index in 0..<eventCount {
            var event = events[index]
            if event.offset >= Int64(frameCount - held) {
                event.offset -= Int64(frameCount)
                events[kept] = event
                kept += 1
            }
        }
        eventCount = kept
    }

    /// Hands the unit of `step` its events that fall in `[from, to)` of the cycle: scheduled
    /// at their frames of the unit's next call, which starts at `from` (its parameter
    /// scheduler cuts the call there), or, when `scheduling` is false (a bypassed or muted
    /// node, a fixed-block unit) or the unit's queue is full, applied at once.
    @inline(__always)
    func handEvents(_ step: UnsafeMutablePointer<PlanStep>, _ eventCount: Int, from: Int, to: Int, scheduling: Bool) {
        guard eventCount > 0 else { return }
        for eventIndex in 0..<eventCount {
            let event = events[eventIndex]
            if event.node == step.pointee.node.rawValue && event.offset >= Int64(from) && event.offset < Int64(to) {
                step.pointee.unitReference._withUnsafeGuaranteedRef { unit in
                    if !(scheduling && unit.scheduleParameterFromRender(at: Int(event.index), value: event.value, offset: Int(event.offset) - from)) {
                        unit.setParameterFromRender(at: Int(event.index), value: event.value)
                    }
                }
            }
        }
    }
}
