import AUCore
import Synchronization

/// How one input bus of a plan step gets its audio in a cycle.
enum PlanInputKind: UInt8, BitwiseCopyable {
    /// Nothing feeds it: it reads a buffer of zeros.
    case silence
    /// It reads its source's output buffer directly (no copy).
    case direct
    /// It reads its own buffer, into which a delay line copies the source, aligned.
    case delayed
    /// It reads its own buffer, which a render callback fills.
    case callback
}

/// One input bus of a plan step, resolved to pointers.
struct PlanInput {
    var kind: PlanInputKind
    var bus: Int
    /// Channel base pointers the unit reads from (the source's buffer or its own).
    var base: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var channels: Int
    /// The source's output channel pointers (delayed inputs).
    var sourceBase: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var sourceChannels: Int
    /// The aligning delay (delayed inputs); the plan keeps it alive.
    var delay: Unmanaged<DelayLine>?
    /// Index into ``RenderPlan/callbacks`` (callback inputs).
    var callback: Int

    /// A full-length view of what the unit reads.
    @inline(__always)
    func view(_ frames: Int) -> AudioBuffers {
        AudioBuffers(channelPointers: UnsafeMutableBufferPointer(start: base, count: channels), frameCount: frames)
    }
}

/// One output bus of a plan step: the buffer the unit writes and others read.
struct PlanOutput {
    var base: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var channels: Int

    @inline(__always)
    func view(_ frames: Int) -> AudioBuffers {
        AudioBuffers(channelPointers: UnsafeMutableBufferPointer(start: base, count: channels), frameCount: frames)
    }
}

/// Where a step's views point: `offset << 32 | frames` (-1: nowhere yet), and the
/// ``BufferStamp`` the unit gets while they point there.
struct ViewPlacement: BitwiseCopyable {
    var offsetAndFrames = -1
    var stamp: UInt64 = 0
}

/// What a plan step needs besides one call of its unit over the slice.
struct StepTraits: OptionSet, BitwiseCopyable {
    let rawValue: UInt8
    /// An input needs work before the unit runs (a delay or a render callback); without it
    /// every input reads its source's buffer directly (or silence).
    static let needsInputPreparation = StepTraits(rawValue: 1)
    /// Every call is split into power-of-two lengths.
    static let needsPowerOfTwo = StepTraits(rawValue: 2)
    /// `latency > 0`: bypass delays must be fed.
    static let hasLatency = StepTraits(rawValue: 4)
    /// A `BlockAdapter` gives the unit fixed blocks.
    static let hasAdapter = StepTraits(rawValue: 8)
    /// MIDI reaches the unit through the graph, or the unit sends MIDI (``RenderPlan/stepMIDI``).
    static let hasMIDI = StepTraits(rawValue: 16)
    /// The step leads a ``UnitRun`` of it and the steps after it (``RenderPlan/stepRuns``).
    static let leadsRun = StepTraits(rawValue: 32)
}

/// One node in render order, with everything resolved: no look-up happens on the render
/// thread. Class references are unmanaged: the plan holds the strong ones, so copying a step
/// does no reference counting.
///
/// 128 bytes, 64-byte aligned in the plan: what an ordinary cycle reads fills the first
/// cache line, the rest the second (a plugin's `run()` evicts the host's data, so each line
/// read after it is a miss).
struct PlanStep {
    // Read every cycle.
    var unitReference: Unmanaged<AudioUnit>
    var runtimeReference: Unmanaged<NodeRuntime>
    /// Where the views point now. Render thread only.
    var viewPlacement: UnsafeMutablePointer<ViewPlacement>
    /// Views handed to the unit, re-pointed at an offset for each call; carved right after
    /// `viewPlacement`, with their channel tables.
    var inputViews: UnsafeMutableBufferPointer<AudioBuffers>
    var outputViews: UnsafeMutableBufferPointer<AudioBuffers>
    var node: GraphNode
    /// What the step needs besides one call of its unit; empty for a plain step.
    var traits: StepTraits

    // Read when a node is bypassed, faulted, delayed, fed by a callback or split.
    var inputs: UnsafeMutableBufferPointer<PlanInput>
    var outputs: UnsafeMutableBufferPointer<PlanOutput>
    /// Frames of latency (the unit's plus a block adapter's).
    var latency: Int
    /// Delays that keep a bypassed node's latency, one per output bus that has a matching
    /// input (nil entries when the node has no latency).
    var bypassDelays: UnsafeMutableBufferPointer<Unmanaged<DelayLine>?>
    /// Buffers fixed-size blocks; the plan keeps it alive.
    var adapter: Unmanaged<BlockAdapter>?

    init(
        node: GraphNode, unit: AudioUnit, runtime: NodeRuntime, viewPlacement: UnsafeMutablePointer<ViewPlacement>,
        inputViews: UnsafeMutableBufferPointer<AudioBuffers>, outputViews: UnsafeMutableBufferPointer<AudioBuffers>,
        inputs: UnsafeMutableBufferPointer<PlanInput>, outputs: UnsafeMutableBufferPointer<PlanOutput>, latency: Int,
        bypassDelays: UnsafeMutableBufferPointer<Unmanaged<DelayLine>?>, needsPowerOfTwo: Bool, adapter: Unmanaged<BlockAdapter>?,
        hasMIDI: Bool
    ) {
        unitReference = Unmanaged.passUnretained(unit)
        runtimeReference = Unmanaged.passUnretained(runtime)
        self.viewPlacement = viewPlacement
        self.inputViews = inputViews
        self.outputViews = outputViews
        self.node = node
        traits = []
        if inputs.contains(where: { $0.kind == .delayed || $0.kind == .callback }) { traits.insert(.needsInputPreparation) }
        if needsPowerOfTwo { traits.insert(.needsPowerOfTwo) }
        if latency > 0 { traits.insert(.hasLatency) }
        if adapter != nil { traits.insert(.hasAdapter) }
        if hasMIDI { traits.insert(.hasMIDI) }
        self.inputs = inputs
        self.outputs = outputs
        self.latency = latency
        self.bypassDelays = bypassDelays
        self.adapter = adapter
    }
}

/// The compiled graph: nodes in topological order with their buffers, aligning delays and
/// resolved pointers. Built on the control thread by ``PlanCompiler``, published to the
/// render thread by ``GraphRenderer``, and freed on the control thread after the render
/// thread hands it back.
/// - Thread: [control] builds and frees it; [render] renders it.
final class RenderPlan: @unchecked Sendable {
    let generation: Int
    /// The longest slice one unit call renders (the graph's MaximumFramesPerSlice).
    let sliceFrames: Int
    /// 64-byte aligned (see ``PlanStep``).
    let steps: UnsafeMutableBufferPointer<PlanStep>
    /// The output node's input bus 0, copied to the application's output (nil: no output node).
    var sink: PlanInput?
    /// The output node's output bus 0, filled from the application's input.
    var source: PlanOutput?
    /// `source`'s table, pointed at the application's input when it can be read in place.
    var sourceBinding: CallerBinding?
    /// The table of the output `sink` reads directly, pointed at the application's output
    /// when the node that feeds the output node can write there.
    var sinkBinding: CallerBinding?
    /// The output node, for notices.
    let outputNode: GraphNode
    let callbacks: [RenderCallback]
    /// Node ID → step index (-1: not in the plan), for parameter events.
    let stepIndexByNode: UnsafeMutableBufferPointer<Int32>
    /// The graph's latency in frames: from the application's input (or any source) to its output.
    let latency: Int
    /// Whether each node's render time is measured (for the dump).
    let measuresTime: Bool
    /// The MIDI side of each step (by step index) that has ``StepTraits/hasMIDI``.
    let stepMIDI: UnsafeMutableBufferPointer<UnsafeMutablePointer<StepMIDI>?>
    /// The run each step that has ``StepTraits/leadsRun`` leads (by step index); the plan retains them.
    let stepRuns: UnsafeMutableBufferPointer<Unmanaged<UnitRun>?>
    /// The graph's MIDI input in the current slice (offsets within the slice).
    let midiInput: UnsafeMutablePointer<MIDIEventBuffer>
    /// What feeds the graph's MIDI output.
    var midiOutputSources = UnsafeMutableBufferPointer<PlanMIDISource>(start: nil, count: 0)
    /// Whether any MIDI travels through the plan (a MIDI connection, a node that sends, a
    /// scheduler).
    var routesMIDI = false
    /// The graph's ``MIDIScheduler``, called at the top of every cycle (the plan retains it).
    var midiScheduler: Unmanaged<MIDIScheduler>?

    /// The steps' dependencies, when the plan renders on several threads (nil: in order on
    /// the calling thread); the plan retains it and ``workers``.
    var parallel: Unmanaged<ParallelSchedule>?
    /// The render workers of a parallel or pipelined plan.
    var workers: Unmanaged<RenderWorkerPool>?
    /// The stages of a pipelined plan (nil: not pipelined); the plan retains it.
    var pipeline: Unmanaged<PipelineSchedule>?
    /// Slices each buffer holds: one per pipeline stage (1 when not pipelined).
    let regions: Int
    /// The graph's constant output delay when its chain may be pipelined (nil: none); the
    /// plan retains it, and the plans that follow share it while its shape holds.
    var outputDelay: Unmanaged<PipelineDelay>?
    /// The slice a plan of one run renders behind the graph (``GraphRenderer/renderBehind``),
    /// when its output is delayed anyway (nil: the plan renders every slice at once).
    private(set) var runBehind: UnsafeMutablePointer<RunBehind>?

    /// The steps' tables, carved in step order so that one step's share cache lines.
    private let arena = RenderArena()
    /// Strong references to everything the steps point at unowned.
    private var retained: [AnyObject] = []

    init(generation: Int, sliceFrames: Int, steps: Int, maxNodeID: Int32, outputNode: GraphNode,
         callbacks: [RenderCallback], latency: Int, measuresTime: Bool, regions: Int = 1) {
        self.generation = generation
        self.sliceFrames = sliceFrames
        self.regions = regions
        assert(MemoryLayout<PlanStep>.stride == 128, "PlanStep is laid out in two cache lines")
        let stepMemory = UnsafeMutableRawPointer.allocate(byteCount: max(1, steps) * MemoryLayout<PlanStep>.stride, alignment: 64)
        self.steps = UnsafeMutableBufferPointer(start: stepMemory.bindMemory(to: PlanStep.self, capacity: steps), count: steps)
        self.outputNode = outputNode
        self.callbacks = callbacks
        stepIndexByNode = .allocate(capacity: Int(maxNodeID) + 1)
        stepIndexByNode.initialize(repeating: -1)
        self.latency = latency
        self.measuresTime = measuresTime
        stepMIDI = arena.allocate(UnsafeMutablePointer<StepMIDI>?.self, count: steps)
        stepMIDI.initialize(repeating: nil)
        stepRuns = arena.allocate(Unmanaged<UnitRun>?.self, count: steps)
        stepRuns.initialize(repeating: nil)
        midiInput = arena.allocate(MIDIEventBuffer.self, count: 1).baseAddress!
        midiInput.initialize(to: MIDIEventBuffer(capacity: 2 * AudioUnit.eventCapacity, storage: arena.allocate(MIDIEvent.self, count: 2 * AudioUnit.eventCapacity)))
    }

    /// Where a scheduler's events for `node` wait for the cycle, nil when the node takes no
    /// MIDI in this plan.
    /// - Thread: [render]
    @inline(__always)
    func scheduledMIDI(for node: GraphNode) -> UnsafeMutablePointer<MIDIEventBuffer>? {
        let raw = Int(node.rawValue)
        guard raw >= 0, raw < stepIndexByNode.count else { return nil }
        let index = Int(stepIndexByNode[raw])
        guard index >= 0 else { return nil }
        return stepMIDI[index]?.pointee.scheduled
    }

    /// True while a render worker is still inside a step of a slice this plan abandoned.
    /// - Thread: [render]
    @inline(__always)
    var hasStalledWorker: Bool {
        guard let workers else { return false }
        return workers._withUnsafeGuaranteedRef { $0.abandoned.load(ordering: .relaxed) && $0.busy.load(ordering: .relaxed) > 0 }
    }

    /// Makes the plan render its stages one slice apart on `pool`'s workers.
    /// - Thread: [control] before the plan is published.
    func renderInPipeline(_ schedule: PipelineSchedule, on pool: RenderWorkerPool) {
        retain(schedule)
        retain(pool)
        pipeline = Unmanaged.passUnretained(schedule)
        workers = Unmanaged.passUnretained(pool)
    }

    /// Makes the plan delay its output through `delay`; a plan of one run then renders it
    /// one slice behind (``GraphRenderer/renderBehind``).
    /// - Thread: [control] before the plan is published.
    func delayOutput(through delay: PipelineDelay) {
        retain(delay)
        outputDelay = Unmanaged.passUnretained(delay)
        if isOneRun {
            runBehind = allocate(RunBehind.self, count: 1).baseAddress!
            runBehind?.initialize(to: RunBehind())
        }
    }

    /// Makes the plan render on `pool`'s workers along `schedule`.
    /// - Thread: [control] before the plan is published.
    func renderInParallel(_ schedule: ParallelSchedule, on pool: RenderWorkerPool) {
        retain(schedule)
        retain(pool)
        parallel = Unmanaged.passUnretained(schedule)
        workers = Unmanaged.passUnretained(pool)
    }

    deinit {
        RenderThread.assertNotCurrent("RenderPlan.deinit")
        UnsafeMutableRawPointer(steps.baseAddress!).deallocate()
        stepIndexByNode.deallocate()
    }

    // MARK: - Building (control thread)

    /// Allocates `count` values that live as long as the plan.
    func allocate<T: BitwiseCopyable>(_ type: T.Type, count: Int) -> UnsafeMutableBufferPointer<T> {
        arena.allocate(type, count: count)
    }

    /// Keeps `object` alive as long as the plan.
    func retain(_ object: AnyObject) { retained.append(object) }

    /// A zeroed buffer of `channels` × ``sliceFrames`` × ``regions`` owned by the plan;
    /// returns its channel base pointers (at region 0).
    func makeBuffer(channels: Int) -> UnsafeMutablePointer<UnsafeMutablePointer<Float>> {
        let owned = OwnedAudioBuffers(channels: channels, capacity: sliceFrames * regions)
        retain(owned)
        let pointers = allocate(UnsafeMutablePointer<Float>.self, count: max(1, channels))
        let view = owned.buffers()
        for channel in 0..<channels { pointers[channel] = view.channelPointers[channel] }
        return pointers.baseAddress!
    }

    /// One view per bus with `channels[bus]` channel pointers (re-pointed per call): the
    /// views, then their channel tables, carved together.
    func makeViews(channels: [Int]) -> UnsafeMutableBufferPointer<AudioBuffers> {
        let views = allocate(AudioBuffers.self, count: channels.count)
        for (bus, count) in channels.enumerated() {
            views.initializeElement(at: bus, to: AudioBuffers(channelPointers: allocate(UnsafeMutablePointer<Float>.self, count: count), frameCount: 0))
        }
        return views
    }
}
