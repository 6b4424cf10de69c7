import AUCore
import Synchronization

/// A serial chain cut into stages that render one slice apart on different threads: stage
/// `j` renders slice `m - j` while stage 0 renders slice `m` (software pipelining, REAPER's
/// anticipative processing), across cycles: a slice that entered in one cycle leaves the
/// last stage in a later one, so the output is `stageCount - 1` slices late (the graph's
/// ``PipelineDelay`` makes that a constant number of frames). Every buffer of the plan holds
/// one slice per stage (its **regions**): slice `m` lives in region `m % regions`, so no two
/// stages ever touch the same memory, and a stage's output waits in its region until the
/// next stage reads it. Each region has its own copy of the steps (views and channel tables
/// pointing into that region; the units, delay lines and block adapters shared), so a step
/// renders in a region exactly as it renders on one thread: each unit sees the slices, times
/// and parameter events of the single-threaded render, in order, and the output is the same,
/// sample for sample, only later.
///
/// Per phase the calling thread renders the deepest stage that has a slice itself and
/// publishes the earlier stages as tasks, which the render workers (and the calling thread,
/// for any left untaken when the next phase needs their regions) take with one atomic
/// increment each.
/// - Thread: [control] builds it; [render] the calling thread and the render workers run it.
final class PipelineSchedule: @unchecked Sendable {
    /// One stage's share of a phase: its slice and the region that slice lives in.
    struct Task: BitwiseCopyable {
        var stage: Int32
        var region: Int32
        var sliceOffset: Int
        var frames: Int
        var time: RenderTimestamp
        /// The cycle's parameter-event count and kind (as in ``ParallelSlice``).
        var events: Int
        var plainCycle: Bool
        var measuresTime: Bool
    }

    /// Stage `s` renders steps `stageStart[s] ..< stageStart[s + 1]`.
    let stageStart: UnsafeMutableBufferPointer<Int32>
    let stageCount: Int
    /// The frames of a slice (at most the plan's ``RenderPlan/sliceFrames``, the room of a region).
    let sliceFrames: Int
    /// The plan (which retains this schedule).
    let plan: Unmanaged<RenderPlan>
    /// The steps of each region (region 0 is the plan's own ``RenderPlan/steps``).
    let regionSteps: UnsafeMutableBufferPointer<UnsafeMutablePointer<PlanStep>>
    /// The output node's buses in each region (nil: the plan has none).
    let regionSources: UnsafeMutableBufferPointer<PlanOutput?>
    let regionSinks: UnsafeMutableBufferPointer<PlanInput?>

    /// A slice in the pipeline: where it lies in the cycle being rendered (negative: it came
    /// in with an earlier cycle), its length and its time.
    struct Slice: BitwiseCopyable {
        var offset: Int
        var frames: Int
        var time: RenderTimestamp
    }
    /// The slices in flight, slice `m` at `m % stageCount`.
    let slices: UnsafeMutablePointer<Slice>
    /// The number of the next slice to enter stage 0, and of the first one since the
    /// pipeline was last emptied (render thread only).
    let positions: UnsafeMutablePointer<(next: Int, first: Int)>

    /// The phase being rendered: its tasks and the next one to take.
    let tasks: UnsafeMutablePointer<Task>
    let taskCount = Atomic<Int32>(0)
    let nextTask = Atomic<Int32>(0)

    /// - Parameter stages: the number of steps of each stage, in render order.
    /// - Thread: [control]
    init(stages: [Int], plan: RenderPlan, sliceFrames: Int) {
        stageCount = stages.count
        self.sliceFrames = sliceFrames
        stageStart = plan.allocate(Int32.self, count: stages.count + 1)
        var start: Int32 = 0
        for (stage, count) in stages.enumerated() {
            stageStart[stage] = start
            start += Int32(count)
        }
        stageStart[stages.count] = start
        regionSteps = plan.allocate(UnsafeMutablePointer<PlanStep>.self, count: stages.count)
        regionSources = plan.allocate(PlanOutput?.self, count: stages.count)
        regionSinks = plan.allocate(PlanInput?.self, count: stages.count)
        regionSources.initialize(repeating: nil)
        regionSinks.initialize(repeating: nil)
        tasks = plan.allocate(Task.self, count: stages.count).baseAddress!
        slices = plan.allocate(Slice.self, count: stages.count).baseAddress!
        positions = plan.allocate((next: Int, first: Int).self, count: 1).baseAddress!
        positions.initialize(to: (0, 0))
        self.plan = Unmanaged.passUnretained(plan)
    }

    /// The slices that entered and have not left the last stage, oldest first: slice `m` of
    /// them has been through stages `0 ..< next - m`.
    /// - Thread: [render]
    @inline(__always)
    var heldSlices: Range<Int> {
        let (next, first) = positions.pointee
        return max(first, next - (stageCount - 1))..<next
    }

    /// The frames of ``heldSlices``.
    /// - Thread: [render]
    @inline(__always)
    var heldFrames: Int {
        var frames = 0
        for slice in heldSlices { frames += slices[slice % stageCount].frames }
        return frames
    }

    /// Forgets the slices in flight (their regions are left as they are).
    /// - Thread: [render]
    @inline(__always)
    func empty() { positions.pointee.first = positions.pointee.next }

    /// Publishes a phase of `count` tasks (written into ``tasks``) before it is opened.
    /// - Thread: [render] the calling thread, while no worker is in a phase.
    @inline(__always)
    func begin(_ count: Int) {
        nextTask.store(0, ordering: .relaxed)
        taskCount.store(Int32(count), ordering: .releasing)
    }

    /// Takes the next task of the phase; -1 when all are taken.
    /// - Thread: [render]
    @inline(__always)
    func take() -> Int32 {
        let index = nextTask.add(1, ordering: .acquiringAndReleasing).oldValue
        return index < taskCount.load(ordering: .acquiring) ? index : -1
    }

    /// Stage costs cut into `stageCount` contiguous runs whose largest total is the smallest
    /// possible (the linear partition problem): each run's step count.
    /// - Thread: [any]
    static func balancedStages(cost: [Double], stageCount: Int) -> [Int] {
        let n = cost.count
        let stages = max(1, min(stageCount, n))
        var prefix = [0.0]
        for value in cost { prefix.append(prefix.last! + value) }
        // best[k][i]: the smallest largest stage when the first i steps form k stages.
        var best = [[Double]](repeating: [Double](repeating: .infinity, count: n + 1), count: stages + 1)
        var cut = [[Int]](repeating: [Int](repeating: 0, count: n + 1), count: stages + 1)
        best[0][0] = 0
        for k in 1...stages {
            for i in k...n {
                for j in (k - 1)..<i {
                    let largest = max(best[k - 1][j], prefix[i] - prefix[j])
                    if largest < best[k][i] {
                        best[k][i] = largest
                        cut[k][i] = j
                    }
                }
            }
        }
        var counts: [Int] = []
        var end = n
        for k in stride(from: stages, to: 0, by: -1) {
            counts.append(end - cut[k][end])
            end = cut[k][end]
        }
        return counts.reversed()
    }
}
