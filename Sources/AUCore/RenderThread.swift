import CAUSupport

/// Knows whether the calling thread is inside a render call, so that control-side code
/// can assert it never runs there (debug builds) and listeners are never called there.
/// - Thread: any; never allocates or blocks.
public enum RenderThread {
    /// True while the calling thread is inside ``run(_:)``.
    public static var isCurrent: Bool { au_is_render_thread() }

    /// Runs `body` marked as render-thread code, with denormals flushed to zero.
    /// - Thread: render.
    @inline(__always)
    public static func run<Result>(_ body: () -> Result) -> Result {
        let depth = au_render_thread_enter()
        let floatState: UInt32 = depth == 1 ? au_enable_flush_denormals() : 0
        defer {
            if depth == 1 { au_restore_float_state(floatState) }
            au_render_thread_leave()
        }
        return body()
    }

    /// What the AllocCounter shim counted inside render calls (allocations, frees, retains,
    /// releases, locks) when it is preloaded (`LD_PRELOAD=libAllocCounter.so`); nil otherwise.
    /// - Thread: any.
    public static var allocationCounts: (allocations: UInt64, frees: UInt64, retains: UInt64, releases: UInt64, locks: UInt64)? {
        var counts = au_render_counts()
        guard au_render_counts_read(&counts) else { return nil }
        return (counts.mallocs + counts.callocs + counts.reallocs, counts.frees, counts.retains, counts.releases, counts.locks)
    }

    /// Stops a debug build when control-side code is entered from the render thread.
    @inline(__always)
    public static func assertNotCurrent(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        assert(!isCurrent, "\(what()) called on the render thread", file: file, line: line)
    }
}
