#if canImport(Glibc)
import Glibc
#endif

/// How many render workers a graph may use beside the thread that calls its render, and
/// whether the plan compiler decides for itself if they pay (``ParallelPlanDecision``).
/// - Thread: [any] (a plain value).
public struct RenderParallelism: Sendable, Equatable, CustomStringConvertible {
    /// - Thread: [any]
    public enum Policy: Sendable, Equatable {
        /// Render on several threads when the graph has branches worth it (the default).
        case automatic
        /// Render every graph that has steps to share on several threads, however cheap
        /// (for tests and measurements).
        case always
    }

    /// Render workers beside the calling thread; 0 renders on the calling thread alone.
    public var workers: Int
    public var policy: Policy

    /// - Thread: [any]
    public init(workers: Int, policy: Policy = .automatic) {
        self.workers = max(0, workers)
        self.policy = policy
    }

    /// One worker fewer than the machine's online cores, at least one.
    /// - Thread: [any]
    public static var machineDefault: RenderParallelism {
        RenderParallelism(workers: max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) - 1))
    }

    /// Every cycle on the calling thread (`--threads 0`).
    /// - Thread: [any]
    public static let singleThreaded = RenderParallelism(workers: 0)

    /// - Thread: [any]
    public var description: String {
        workers == 0 ? "single-threaded" : "\(workers) worker\(workers == 1 ? "" : "s")\(policy == .always ? ", always parallel" : "")"
    }
}
