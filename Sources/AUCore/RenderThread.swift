import CAUSupport

/// Knows whether the calling thread is inside a render call, so that control-side code
/// can assert it never runs there (debug builds) and listeners are never called there.
/// - Thread: [any]; never allocates or blocks.
public enum RenderThread {
    /// True while the calling thread is inside ``run(_:)``.
    /// - Thread: [any]
    public static var isCurrent: Bool { au_is_render_thread() }

    /// Runs `body` marked as render-thread code, with denormals flushed to zero.
    /// - Thread: [render]
    @inline(__always)
    public static func run<Result>(_ body: () -> Result) -> Result {
        au_render_thread_enter()
        defer { au_render_thread_leave() }
        return body()
    }

    /// Runs `body`, a loop that renders cycle after cycle on the calling thread, with
    /// denormals flushed throughout, so that each cycle's ``run(_:)`` does not touch the
    /// floating-point control register: writing it stalls the pipeline, and even reading it
    /// waits for the floating-point work before it (it holds the sticky exception flags).
    /// Setting and restoring it around every cycle cost the graph 0.3 % on the reference
    /// chain, reading it 0.4 % more (docs/BENCHMARKS.md). The caller's state is restored
    /// afterwards. A plugin that cleared FTZ/DAZ would leave them cleared until then.
    /// - Thread: [render] a render loop's own thread.
    public static func flushingDenormals<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let floatState = au_enable_flush_denormals()
        let kept = au_render_thread_keep_flushing(true)
        defer {
            au_render_thread_keep_flushing(kept)
            au_restore_float_state(floatState)
        }
        return try body()
    }

    /// Flushes denormals on the calling thread for the rest of its life, for a thread that
    /// does nothing but render (a JACK process thread), with the same effect on
    /// ``run(_:)`` as ``flushingDenormals(_:)``.
    /// - Thread: [render] before the thread's first cycle.
    public static func flushDenormalsForThisThread() {
        _ = au_enable_flush_denormals()
        au_render_thread_keep_flushing(true)
    }

    /// True when the calling thread flushes denormals to zero (FTZ and DAZ, or the
    /// architecture's equivalent).
    /// - Thread: [any]
    public static var flushesDenormals: Bool { au_flushes_denormals() != 0 }

    /// What the AllocCounter shim counted inside render calls (allocations, frees, retains,
    /// releases, locks) when it is preloaded (`LD_PRELOAD=libAllocCounter.so`); nil otherwise.
    /// - Thread: [any]
    public static var allocationCounts: (allocations: UInt64, frees: UInt64, retains: UInt64, releases: UInt64, locks: UInt64)? {
        var counts = au_render_counts()
        guard au_render_counts_read(&counts) else { return nil }
        return (counts.mallocs + counts.callocs + counts.reallocs, counts.frees, counts.retains, counts.releases, counts.locks)
    }

    /// Stops a debug build when control-side code is entered from the render thread.
    /// - Thread: [any]
    @inline(__always)
    public static func assertNotCurrent(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        assert(!isCurrent, "\(what()) called on the render thread", file: file, line: line)
    }
}
