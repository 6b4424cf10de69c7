import Testing

extension Trait where Self == TimeLimitTrait {
    /// The hang guard of a test that awaits an exit test's child process: 10 minutes. Such a
    /// test waits for the child, then for a thread of the test pool to resume it; in `make
    /// test`'s CPU track every suite runs at once on two cores and the pool's threads are
    /// held by synchronous tests, so an exit test that takes a second ends 240-270 s after it
    /// started, and the time limit's own timer races its resumption. One minute was exceeded
    /// that way once (`concurrentCapturesDoNotMix`, a CI run of 2026-12-05) while the child
    /// had done its work. A child that truly hangs still fails the test, at 10 minutes.
    /// - Thread: [any]
    public static var exitTestHangGuard: Self { .timeLimit(.minutes(10)) }
}
