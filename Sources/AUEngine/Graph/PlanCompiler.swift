import AUCore

/// Compiles a ``GraphModel`` (whose units are initialized and whose formats agree) into a
/// ``RenderPlan``: render order, one buffer per output bus, inputs resolved to their
/// sources' buffers, latency-compensation delays on inputs whose paths are shorter, bypass
/// delays, block adapters. Delay lines and adapters of the previous plan are reused when
/// unchanged, so a live edit does not disturb the paths it did not touch.
/// - Thread: [control]
struct PlanCompiler {
    struct DelayKey: Hashable {
        var connection: GraphConnection
        var delay: Int
        var channels: Int
    }
    struct BypassKey: Hashable {
        var node: GraphNode
        var bus: Int
        var delay: Int
        var channels: Int
    }
    struct AdapterKey: Hashable {
        var node: GraphNode
        var blockSize: Int
    }

    /// What survives from one compilation to the next.
    struct Reuse {
        var delays: [DelayKey: DelayLine] = [:]
        var bypassDelays: [BypassKey: DelayLine] = [:]
        var adapters: [AdapterKey: BlockAdapter] = [:]
    }

    /// Facts about a compiled plan that the control side reports (dump, latency).
    struct Report {
        var order: [GraphNode] = []
        var nodeLatency: [GraphNode: Int] = [:]
        /// Each unit's own latency as the plan compensates it (without a block adapter's).
        var unitLatency: [GraphNode: Int] = [:]
        var connectionDelay: [GraphConnection: Int] = [:]
        var blockRequirement: [GraphNode: BlockSizeRequirement] = [:]
        var latency = 0
        /// The MIDI connections the plan routes: the model's, plus the graph's MIDI input to
        /// each node that takes MIDI and has no source when the model routes the input nowhere.
        var midiConnections: [MIDIConnection] = []
        /// Whether the plan renders on several threads, and why.
        var parallel: ParallelPlanDecision?
    }

    let model: GraphModel
    let order: [GraphNode]
    let runtimes: [GraphNode: NodeRuntime]
    let sliceFrames: Int
    /// The frames of a pipelined chain's slice (at most ``sliceFrames``).
    let pipelineSliceFrames: Int
    let generation: Int
    let measuresTime: Bool
    /// The render workers the graph may use.
    let parallelism: RenderParallelism
    /// Cycles whose node times the runtimes hold (0: none measured yet).
    let timedCycles: UInt64
    /// Why the graph's render workers were measured not to pay (nil: they were not).
    let workersRefusal: String?

    static func latencyFrames(of unit: AudioUnit) -> Int {
        let rate = (unit.formats(.output).first ?? unit.formats(.input).first)?.sampleRate ?? 48_000
        let seconds = unit.latency
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int((seconds * rate).rounded())
    }

    static func requirement(of unit: AudioUnit) -> BlockSizeRequirement {
        (unit as? BlockSizeConstrained)?.blockSizeRequirement ?? .any
    }

    /// Compiles the plan; `schedule` is set when the plan should render its branches on the
    /// workers, `pipeline` when it should render its stages one slice apart.
    func compile(reusing previous: Reuse) throws(AudioUnitError) -> (
        plan: RenderPlan, reuse: Reuse, report: Report, schedule: ParallelSchedule?, pipeline: PipelineSchedule?
    ) {
        var reuse = Reuse()
        var report = Report()
        report.order = order
        let outputNode = model.outputNode

        // Latency of each node and the time at which its output is ready (arrival + latency).
        var ready: [GraphNode: Int] = [:]
        var arrival: [GraphNode: Int] = [:]
        for node in order {
            let unit = model.nodes[node]!.unit!
            var latency = Self.latencyFrames(of: unit)
            report.unitLatency[node] = latency
            let requirement = Self.requirement(of: unit)
            report.blockRequirement[node] = requirement
            if case .fixed(let size) = requirement { latency += size }
            report.nodeLatency[node] = latency
            var time = 0
            for bus in 0..<unit.elementCount(.input) {
                guard let connection = model.connection(into: GraphEndpoint(node, bus: bus)) else { continue }
                time = max(time, connection.source == outputNode ? 0 : ready[connection.source] ?? 0)
            }
            arrival[node] = time
            ready[node] = time + latency
        }
        func readyTime(_ node: GraphNode) -> Int { node == outputNode ? 0 : ready[node] ?? 0 }

        report.midiConnections = try Self.midiRoutes(model, order: order)
        let dependencies = stepDependencies()
        // Measured only when enough cycles were timed and every node was timed in them (a
        // pipeline's later stages render cycles after its first): measured and estimated
        // costs are not on one scale, and a mix of them cut the reference chain's pipeline
        // anywhere (its priming's first cycle times stage 0 alone).
        let spent = order.map { runtimes[$0]?.renderNanoseconds.load(ordering: .relaxed) ?? 0 }
        let measured = timedCycles >= AudioGraph.timedCyclesForMeasuredDecision && !spent.contains(0)
        let cost = order.indices.map { step -> Double in
            measured ? Double(spent[step]) / Double(timedCycles) : ParallelPlanDecision.estimatedCost(of: model.nodes[order[step]]!.unit!)
        }
        // With a scheduler, every node that takes MIDI may be sent some.
        let midiNodes = Set(order.filter { node in
            let unit = model.nodes[node]!.unit!
            return unit.producesMIDIOutput || report.midiConnections.contains { $0.destination == .node(node) }
                || (model.midiScheduler != nil && unit.acceptsMIDIInput)
        })
        report.parallel = ParallelPlanDecision.decide(
            order: order, dependencies: dependencies, cost: cost, isMeasured: measured, parallelism: parallelism,
            pipelineObstacle: pipelineObstacle(midiNodes: midiNodes, midiConnections: report.midiConnections), isOneRun: rendersAsOneRun,
            workersRefusal: workersRefusal)
        let stageCounts = report.parallel?.isPipelined == true ? report.parallel!.stages.map(\.count) : nil

        // Callbacks, in a fixed order.
        let callbackEndpoints = model.inputCallbacks.keys.sorted { ($0.node, $0.bus) < ($1.node, $1.bus) }
        var callbackIndex: [GraphEndpoint: Int] = [:]
        for (index, endpoint) in callbackEndpoints.enumerated() { callbackIndex[endpoint] = index }

        var sinkLatency = 0
        if let outputNode, let connection = model.connection(into: GraphEndpoint(outputNode, bus: 0)) {
            sinkLatency = readyTime(connection.source)
        }
        // A chain that may be pipelined leaves as late as its pipeline allows (PipelineDelay).
        report.latency = sinkLatency + (report.parallel?.addedLatencySlices ?? 0) * pipelineSliceFrames

        let plan = RenderPlan(
            generation: generation, sliceFrames: sliceFrames, steps: order.count,
            maxNodeID: model.order.map(\.rawValue).max() ?? 0, outputNode: outputNode ?? GraphNode(rawValue: 0),
            callbacks: callbackEndpoints.map { model.inputCallbacks[$0]! }, latency: sinkLatency, measuresTime: measuresTime,
            regions: stageCounts?.count ?? 1)

        // Output buffers first, so that inputs can point at them.
        var outputs: [GraphEndpoint: PlanOutput] = [:]
        if let outputNode, let unit = model.nodes[outputNode]?.unit, unit.elementCount(.output) > 0 {
            let channels = unit.formats(.output)[0].channelsPerFrame
            let source = PlanOutput(base: plan.makeBuffer(channels: channels), channels: channels)
            plan.source = source
            outputs[GraphEndpoint(outputNode, bus: 0)] = source
        }
        for node in order {
            let unit = model.nodes[node]!.unit!
            for (bus, format) in unit.formats(.output).enumerated() {
                outputs[GraphEndpoint(node, bus: bus)] = PlanOutput(base: plan.makeBuffer(channels: format.channelsPerFrame), channels: format.channelsPerFrame)
            }
        }

        func resolveInput(_ node: GraphNode, bus: Int, channels: Int, arrivalTime: Int) throws(AudioUnitError) -> PlanInput {
            let endpoint = GraphEndpoint(node, bus: bus)
            let connection = model.connection(into: endpoint)
            let isDirect = connection.map { arrivalTime == readyTime($0.source) } ?? false
            var input = PlanInput(
                kind: .silence, bus: bus, base: plan.makeBuffer(channels: isDirect ? 0 : channels), channels: channels,
                sourceBase: plan.makeBuffer(channels: 0), sourceChannels: 0, delay: nil, callback: -1)
            if let connection {
                guard let source = outputs[GraphEndpoint(connection.source, bus: connection.sourceOutputBus)] else {
                    throw AudioUnitError(.invalidElement, "\(model.label(connection.source)) has no output \(connection.sourceOutputBus) for \(model.label(node)) input \(bus)")
                }
                let delay = arrivalTime - readyTime(connection.source)
                report.connectionDelay[connection] = delay
                if delay == 0 {
                    input.kind = .direct
                    input.base = source.base
                } else {
                    let key = DelayKey(connection: connection, delay: delay, channels: channels)
                    let line = previous.delays[key] ?? DelayLine(delay: delay, channels: channels, maximumFrames: sliceFrames)
                    reuse.delays[key] = line
                    plan.retain(line)
                    input.kind = .delayed
                    input.delay = Unmanaged.passUnretained(line)
                    input.sourceBase = source.base
                    input.sourceChannels = source.channels
                }
            } else if let index = callbackIndex[endpoint] {
                input.kind = .callback
                input.callback = index
            }
            return input
        }

        for (index, node) in order.enumerated() {
            let unit = model.nodes[node]!.unit!
            guard let runtime = runtimes[node] else { preconditionFailure("no runtime for \(node)") }
            plan.retain(unit)
            plan.retain(runtime)
            let inputFormats = unit.formats(.input)
            let outputFormats = unit.formats(.output)
            // What every cycle reads, carved together: where the views point, the views and
            // their channel tables.
            let placement = plan.allocate(ViewPlacement.self, count: 1).baseAddress!
            placement.initialize(to: ViewPlacement())
            let inputViews = plan.makeViews(channels: inputFormats.map(\.channelsPerFrame))
            let outputViews = plan.makeViews(channels: outputFormats.map(\.channelsPerFrame))
            let inputs = plan.allocate(PlanInput.self, count: inputFormats.count)
            for (bus, format) in inputFormats.enumerated() {
                inputs.initializeElement(at: bus, to: try resolveInput(node, bus: bus, channels: format.channelsPerFrame, arrivalTime: arrival[node]!))
            }
            let planOutputs = plan.allocate(PlanOutput.self, count: outputFormats.count)
            let bypassDelays = plan.allocate(Unmanaged<DelayLine>?.self, count: outputFormats.count)
            let latency = report.nodeLatency[node]!
            for (bus, format) in outputFormats.enumerated() {
                planOutputs.initializeElement(at: bus, to: outputs[GraphEndpoint(node, bus: bus)]!)
                var line: Unmanaged<DelayLine>?
                if latency > 0 && bus < inputFormats.count {
                    let key = BypassKey(node: node, bus: bus, delay: latency, channels: format.channelsPerFrame)
                    let made = previous.bypassDelays[key] ?? DelayLine(delay: latency, channels: format.channelsPerFrame, maximumFrames: sliceFrames)
                    reuse.bypassDelays[key] = made
                    plan.retain(made)
                    line = Unmanaged.passUnretained(made)
                }
                bypassDelays.initializeElement(at: bus, to: line)
            }
            var adapter: Unmanaged<BlockAdapter>?
            let requirement = report.blockRequirement[node]!
            if case .fixed(let size) = requirement {
                let key = AdapterKey(node: node, blockSize: size)
                let made = previous.adapters[key] ?? BlockAdapter(
                    blockSize: size, inputChannels: inputFormats.map(\.channelsPerFrame), outputChannels: outputFormats.map(\.channelsPerFrame))
                reuse.adapters[key] = made
                plan.retain(made)
                adapter = Unmanaged.passUnretained(made)
            }
            plan.steps.initializeElement(at: index, to: PlanStep(
                node: node, unit: unit, runtime: runtime, viewPlacement: placement, inputViews: inputViews, outputViews: outputViews,
                inputs: inputs, outputs: planOutputs, latency: latency, bypassDelays: bypassDelays,
                needsPowerOfTwo: requirement == .powerOfTwo, adapter: adapter, hasMIDI: midiNodes.contains(node)))
            plan.stepIndexByNode[Int(node.rawValue)] = Int32(index)
        }
        resolveMIDI(report.midiConnections, nodes: midiNodes, in: plan)

        if let outputNode, let unit = model.nodes[outputNode]?.unit, unit.elementCount(.input) > 0 {
            plan.retain(unit)
            let channels = unit.formats(.input)[0].channelsPerFrame
            plan.sink = try resolveInput(outputNode, bus: 0, channels: channels, arrivalTime: sinkLatency)
        }
        if let source = plan.source {
            plan.sourceBinding = CallerBinding(table: source.base, channels: source.channels, in: plan)
        }
        // Not when the output node's input reads its own output (a pass-through graph): the
        // application's input is then copied to its output.
        if let sink = plan.sink, sink.kind == .direct, sink.base != plan.source?.base {
            plan.sinkBinding = CallerBinding(table: sink.base, channels: sink.channels, in: plan)
        }
        if report.parallel?.isParallel != true && stageCounts == nil { formRuns(in: plan) }
        let pipeline = stageCounts.map { makeRegions(of: plan, stages: $0) }
        return (plan, reuse, report, report.parallel?.isParallel == true ? ParallelSchedule(dependencies: dependencies) : nil, pipeline)
    }

    /// Why the chain cannot be pipelined, nil when it can: its stages would render different
    /// slices at once, so nothing may pass between units outside their buffers. MIDI is
    /// merged per slice on the calling thread, and the host's transport is published once per
    /// cycle, so a unit that reads it would see it a slice late.
    private func pipelineObstacle(midiNodes: Set<GraphNode>, midiConnections: [MIDIConnection]) -> String? {
        if !midiNodes.isEmpty || !midiConnections.isEmpty || model.midiScheduler != nil { return "MIDI travels through it" }
        if let node = order.first(where: { model.nodes[$0]!.unit!.followsHostTransport }) { return "\(model.label(node)) follows the transport" }
        return nil
    }

    /// Whether every node renders in a run with the next (isolated nodes of one child): the
    /// chain then gains nothing from stages (the child renders them one after another on its
    /// one thread, and the run hands them over once a cycle) and renders one slice behind.
    private var rendersAsOneRun: Bool {
        let units = order.map { model.nodes[$0]!.unit! }
        return units.count > 1 && zip(units, units.dropFirst()).allSatisfy { $0.rendersInRun(with: $1) }
    }

    /// The pipeline of a plan whose buffers hold one slice per stage: region 0 is the plan's
    /// own steps, output node buses and channel tables; every other region gets copies of
    /// them whose tables point `region` slices into the same buffers. Units, delay lines,
    /// bypass delays and block adapters are shared: a step renders each slice in turn.
    private func makeRegions(of plan: RenderPlan, stages: [Int]) -> PipelineSchedule {
        let pipeline = PipelineSchedule(stages: stages, plan: plan, sliceFrames: pipelineSliceFrames)
        let steps = plan.steps
        pipeline.regionSteps[0] = steps.baseAddress!
        pipeline.regionSources[0] = plan.source
        pipeline.regionSinks[0] = plan.sink
        // Every channel table, with the channels read through it.
        var tableChannels: [UnsafeMutablePointer<UnsafeMutablePointer<Float>>: Int] = [:]
        func note(_ table: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, _ channels: Int) { tableChannels[table] = max(tableChannels[table] ?? 0, channels) }
        func note(_ input: PlanInput) {
            note(input.base, input.channels)
            note(input.sourceBase, input.sourceChannels)
        }
        for step in steps {
            step.inputs.forEach(note)
            for output in step.outputs { note(output.base, output.channels) }
        }
        if let source = plan.source { note(source.base, source.channels) }
        if let sink = plan.sink { note(sink) }
        for region in 1..<stages.count {
            var shifted: [UnsafeMutablePointer<UnsafeMutablePointer<Float>>: UnsafeMutablePointer<UnsafeMutablePointer<Float>>] = [:]
            for (table, channels) in tableChannels {
                let copy = plan.allocate(UnsafeMutablePointer<Float>.self, count: max(1, channels))
                for channel in 0..<channels { copy[channel] = table[channel] + region * plan.sliceFrames }
                shifted[table] = copy.baseAddress!
            }
            func moved(_ input: PlanInput) -> PlanInput {
                var input = input
                input.base = shifted[input.base]!
                input.sourceBase = shifted[input.sourceBase]!
                return input
            }
            func moved(_ output: PlanOutput) -> PlanOutput { PlanOutput(base: shifted[output.base]!, channels: output.channels) }
            let copies = plan.allocate(PlanStep.self, count: steps.count)
            for (index, original) in steps.enumerated() {
                var step = original
                step.viewPlacement = plan.allocate(ViewPlacement.self, count: 1).baseAddress!
                step.viewPlacement.initialize(to: ViewPlacement())
                step.inputViews = plan.makeViews(channels: original.inputViews.map(\.channelCount))
                step.outputViews = plan.makeViews(channels: original.outputViews.map(\.channelCount))
                step.inputs = plan.allocate(PlanInput.self, count: original.inputs.count)
                _ = step.inputs.initialize(from: original.inputs.map(moved))
                step.outputs = plan.allocate(PlanOutput.self, count: original.outputs.count)
                _ = step.outputs.initialize(from: original.outputs.map(moved))
                copies.initializeElement(at: index, to: step)
            }
            pipeline.regionSteps[region] = copies.baseAddress!
            pipeline.regionSources[region] = plan.source.map(moved)
            pipeline.regionSinks[region] = plan.sink.map(moved)
        }
        return pipeline
    }

    /// For each step in render order, the distinct steps whose output it reads: the edges that order
    /// the nodes (audio and MIDI connections; the output node, which feeds the graph's
    /// input, is no step).
    private func stepDependencies() -> [[Int]] {
        let stepIndex = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        var dependencies = [[Int]](repeating: [], count: order.count)
        for edge in GraphTopology.edges(model) {
            // A node that feeds two buses of another (or sends it audio and MIDI) is one dependency.
            if let source = stepIndex[edge.source], let destination = stepIndex[edge.destination], !dependencies[destination].contains(source) {
                dependencies[destination].append(source)
            }
        }
        return dependencies
    }

    /// The MIDI connections to route, checked: every source sends MIDI and every
    /// destination takes it. Without a connection from the graph's MIDI input, the input
    /// goes to each node that takes MIDI and has no MIDI source (the first MIDI consumers
    /// of a chain; every instrument of a graph without MIDI connections).
    static func midiRoutes(_ model: GraphModel, order: [GraphNode]) throws(AudioUnitError) -> [MIDIConnection] {
        var routes = model.midiConnections
        for connection in routes {
            if let node = connection.source.node, let unit = model.nodes[node]?.unit, !unit.producesMIDIOutput {
                throw AudioUnitError(.invalidPropertyValue, "\(model.label(node)) sends no MIDI; it cannot feed \(describe(connection.destination, in: model))")
            }
            if let node = connection.destination.node, let unit = model.nodes[node]?.unit, !unit.acceptsMIDIInput {
                throw AudioUnitError(.invalidPropertyValue, "\(model.label(node)) takes no MIDI; \(describe(connection.source, in: model)) cannot feed it")
            }
        }
        if !routes.contains(where: { $0.source == .graphInput }) {
            for node in order where model.nodes[node]?.unit?.acceptsMIDIInput == true && !routes.contains(where: { $0.destination == .node(node) }) {
                routes.append(MIDIConnection(source: .graphInput, destination: .node(node)))
            }
        }
        return routes
    }

    /// A MIDI endpoint as errors and dumps name it.
    static func describe(_ endpoint: MIDIEndpoint, in model: GraphModel) -> String {
        switch endpoint {
        case .graphInput: "the graph's MIDI input"
        case .graphOutput: "the graph's MIDI output"
        case .node(let node): model.label(node)
        }
    }

    /// Gives each step in `nodes` its MIDI buffers, then points every MIDI destination (a
    /// step, the graph's output) at its sources' buffers.
    private func resolveMIDI(_ connections: [MIDIConnection], nodes: Set<GraphNode>, in plan: RenderPlan) {
        if let scheduler = model.midiScheduler {
            plan.retain(scheduler)
            plan.midiScheduler = Unmanaged.passUnretained(scheduler)
        }
        guard !nodes.isEmpty || connections.contains(where: { $0.destination == .graphOutput }) || model.midiScheduler != nil else { return }
        plan.routesMIDI = true
        let capacity = 2 * AudioUnit.eventCapacity
        var stepMIDI: [GraphNode: UnsafeMutablePointer<StepMIDI>] = [:]
        func makeBuffer() -> UnsafeMutablePointer<MIDIEventBuffer> {
            let buffer = plan.allocate(MIDIEventBuffer.self, count: 1).baseAddress!
            buffer.initialize(to: MIDIEventBuffer(capacity: capacity, storage: plan.allocate(MIDIEvent.self, count: capacity)))
            return buffer
        }
        for (index, node) in order.enumerated() where nodes.contains(node) {
            let midi = plan.allocate(StepMIDI.self, count: 1).baseAddress!
            midi.initialize(to: StepMIDI(
                sources: plan.allocate(PlanMIDISource.self, count: connections.count { $0.destination == .node(node) }),
                input: MIDIEventBuffer(capacity: capacity, storage: plan.allocate(MIDIEvent.self, count: capacity)),
                output: MIDIEventBuffer(capacity: capacity, storage: plan.allocate(MIDIEvent.self, count: capacity)),
                call: plan.allocate(MIDIEvent.self, count: capacity).baseAddress!,
                producesOutput: model.nodes[node]!.unit!.producesMIDIOutput,
                scheduled: model.midiScheduler != nil && model.nodes[node]!.unit!.acceptsMIDIInput ? makeBuffer() : nil))
            plan.stepMIDI[index] = midi
            stepMIDI[node] = midi
        }
        func sources(into destination: MIDIEndpoint) -> [PlanMIDISource] {
            connections.filter { $0.destination == destination }.compactMap { connection in
                let events: UnsafeMutablePointer<MIDIEventBuffer>
                switch connection.source {
                case .graphInput: events = plan.midiInput
                case .node(let node):
                    guard let midi = stepMIDI[node] else { return nil }
                    events = UnsafeMutableRawPointer(midi).advanced(by: MemoryLayout<StepMIDI>.offset(of: \.output)!).assumingMemoryBound(to: MIDIEventBuffer.self)
                case .graphOutput: return nil
                }
                var table: UnsafePointer<UInt8>?
                if connection.channels != .all {
                    let storage = plan.allocate(UInt8.self, count: 16)
                    _ = storage.initialize(from: connection.channels.table)
                    table = UnsafePointer(storage.baseAddress!)
                }
                return PlanMIDISource(events: events, table: table)
            }
        }
        for (node, midi) in stepMIDI {
            _ = midi.pointee.sources.initialize(from: sources(into: .node(node)))
        }
        let outputs = sources(into: .graphOutput)
        plan.midiOutputSources = plan.allocate(PlanMIDISource.self, count: outputs.count)
        _ = plan.midiOutputSources.initialize(from: outputs)
    }
}
