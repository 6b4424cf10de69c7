import AUCore
import Synchronization

/// What one rendering thread of a graph reports on its own: the calling thread has one, and
/// each render worker another, so that no two threads push into the same ring. The control
/// side drains every lane's notices (``AudioGraph/dispatchPendingNotifications()``), and a
/// watchdog reads the node each lane is inside.
/// - Thread: [render] the lane's thread writes it; [control] reads it.
final class RenderLane: @unchecked Sendable {
    /// Notices for the control side (faults, render errors, stalls).
    let notices = RealTimeRing<GraphNotice>(minimumCapacity: 1024)
    /// The raw value of the node whose step the lane's thread is in, -1 outside the steps,
    /// ``schedulingMIDI`` while the graph's MIDI scheduler runs (the main lane only).
    let renderingNode = Atomic<Int32>(-1)
    /// ``renderingNode`` while the lane's thread is inside the graph's ``MIDIScheduler``.
    static let schedulingMIDI: Int32 = -2
    /// Steps the lane's thread rendered in parallel slices (written by that thread only).
    let stepsRendered = Atomic<UInt64>(0)
}
