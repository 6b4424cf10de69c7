import Glibc
import Synchronization

/// Keeps control-thread work that must not overlap `run()` (state restore, presets with
/// properties) out of the render path without making the render thread wait: the render
/// thread only tries to enter and, when the control side holds the gate, outputs silence
/// for that cycle; the control side waits for the cycle in progress to end.
/// A value stored in the plugin instance (no separate object: one cache line fewer per cycle).
/// - Thread: [render] ``enterRender()`` / ``leaveRender()``; ``withControl(_:)``
///   on control threads.
struct RenderGate: ~Copyable, Sendable {
    private static let free = 0, rendering = 1, controlling = 2
    private let state = Atomic<Int>(RenderGate.free)

    /// - Thread: [render] Never blocks.
    @inline(__always)
    func enterRender() -> Bool {
        state.compareExchange(expected: RenderGate.free, desired: RenderGate.rendering, ordering: .acquiring).exchanged
    }

    /// - Thread: [render]
    @inline(__always)
    func leaveRender() { state.store(RenderGate.free, ordering: .releasing) }

    /// Runs `body` while no render is in progress.
    /// - Thread: [control]
    func withControl<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        while !state.compareExchange(expected: RenderGate.free, desired: RenderGate.controlling, ordering: .acquiring).exchanged {
            usleep(100)
        }
        defer { state.store(RenderGate.free, ordering: .releasing) }
        return try body()
    }
}
