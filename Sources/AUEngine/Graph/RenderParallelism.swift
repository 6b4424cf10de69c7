#if canImport(Glibc)
import Glibc
#endif

/// How many threads may render a graph (the thread that calls its render and the render
/// workers beside it), whether the plan compiler decides for itself if the workers pay
/// (``ParallelPlanDecision``), and whether a serial chain may be pipelined at the price of
/// latency.
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

    /// The threads that may render, the calling thread included (at least 1; 1 renders on
    /// the calling thread alone, `threads - 1` render workers beside it otherwise).
    public var threads: Int
    public var policy: Policy
    /// The most stages a serial chain may be cut into, each rendering one slice
    /// (MaximumFramesPerSlice frames) after the stage before it: pipelining adds
    /// `stages - 1` slices of latency, which the graph reports (``AudioGraph/latencyFrames``).
    /// 0 or 1: never pipelined (the default; `auhost run --pipeline` asks for 2, one period,
    /// and `auhost render` for one per thread, its latency compensated away).
    public var pipelineStages: Int

    /// `threads` below 1 is taken as 1.
    /// - Thread: [any]
    public init(threads: Int, policy: Policy = .automatic, pipelineStages: Int = 0) {
        self.threads = max(1, threads)
        self.policy = policy
        self.pipelineStages = max(0, pipelineStages)
    }

    /// The render workers beside the calling thread.
    var workers: Int { max(1, threads) - 1 }

    /// The stages a serial chain is cut into at most: ``pipelineStages``, no more than the
    /// threads; 1 when it is not pipelined.
    /// - Thread: [any]
    public var stageLimit: Int { max(1, min(pipelineStages, threads)) }

    /// The same threads, pipelining serial chains over as many stages as there are threads
    /// (offline, where the added latency is compensated away).
    /// - Thread: [any]
    public var pipeliningOverEveryThread: RenderParallelism {
        RenderParallelism(threads: threads, policy: policy, pipelineStages: threads)
    }

    /// As many threads as the machine has online cores.
    /// - Thread: [any]
    public static var machineDefault: RenderParallelism {
        RenderParallelism(threads: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Every cycle on the calling thread (`--threads 1`).
    /// - Thread: [any]
    public static let singleThreaded = RenderParallelism(threads: 1)

    /// - Thread: [any]
    public var description: String {
        threads == 1 ? "single-threaded" : "\(threads) threads\(policy == .always ? ", always parallel" : "")"
            + (stageLimit > 1 ? ", pipelined in up to \(stageLimit) stages" : "")
    }
}
