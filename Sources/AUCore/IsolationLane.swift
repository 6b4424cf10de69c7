/// Which of a batch's jobs makes the units being made on this thread: the isolated nodes of
/// one job share children of their own (``ComponentIsolator``), so that two jobs' units do
/// not queue on one child's render thread. 0 outside a batch's workers (a preset's own
/// units, live, the library): the lane every job's first child is shared with.
/// - Thread: [any] (bound per thread, or per task, with `$current.withValue`).
public enum IsolationLane {
    @TaskLocal public static var current = 0
}
