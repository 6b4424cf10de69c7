#if canImport(Glibc)
import Glibc
#endif

/// How many render workers a graph may use beside the thread that calls its render, whether
/// the plan compiler decides for itself if they pay (``ParallelPlanDecision``), and whether
/// a serial chain may be pipelined at the price of latency.
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
    /// The most stages a serial chain may be cut into, each rendering one slice
    /// (MaximumFramesPerSlice frames) after the stage before it: pipelining adds
    /// `stages - 1` slices of latency, which the graph reports (``AudioGraph/latencyFrames``).
    /// 0 or 1: never pipelined (the default; `auhost run --pipeline` asks for 2, one period,
    /// and `auhost render` for one per thread, its latency compensated away).
    public var pipelineStages: Int

    /// - Thread: [any]
    public init(workers: Int, policy: Policy = .automatic, pipelineStages: Int = 0) {
        self.workers = max(0, workers)
        self.policy = policy
        self.pipelineStages = max(0, pipelineStages)
    }

    /// The stages a serial chain is cut into at most: ``pipelineStages``, no more than the
    /// threads; 1 when it is not pipelined.
    /// - Thread: [any]
    public var stageLimit: Int { workers == 0 ? 1 : max(1, min(pipelineStages, workers + 1)) }

    /// The same workers, pipelining serial chains over as many stages as there are threads
    /// (offline, where the added latency is compensated away).
    /// - Thread: [any]
    public var pipeliningOverEveryThread: RenderParallelism {
        RenderParallelism(workers: workers, policy: policy, pipelineStages: workers + 1)
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
            + (stageLimit > 1 ? ", pipelined in up to \(stageLimit) stages" : "")
    }
}
