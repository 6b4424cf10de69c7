// alloc-check: renders a real graph (CheckGraph: built-in units, LV2 plugins with control
// ports, atom MIDI in, time:Position, output controls, a latency report and the worker in
// both modes, a native unit, a fixed-block unit with latency that outputs NaN on request)
// for many cycles on a render thread while the control thread changes and ramps parameters,
// sends MIDI, bypasses a node, clears faults, edits the graph live and moves a MusicPlayer
// playing a song into it (CheckSong: seek, stop, start, rate), and reports what the render
// thread allocated, freed, retained, released and locked. Run it under the
// AllocCounter shim:
//
//     LD_PRELOAD=.build/debug/libAllocCounter.so .build/debug/alloc-check [--cycles N] [--frames N] [--warmup N]
//         [--strict]        also trap every system call but futex wake and the clock (seccomp, render thread only)
//         [--misbehave allocate|usleep|write|mutex]   the fixture unit does that in its render (proves the check)
//         [--lv2-fixtures path/to/libLV2Fixtures.so]  adds the LV2 worker fixture (schedules work in every run)
//         [--threads N]     the threads that render, always parallel (default 3: the render thread and
//                           2 render workers; 1: the single-threaded renderer); every worker is
//                           counted and, with --strict, watched
//         [--pipeline]      instead, a serial chain of built-in and LV2 units pipelined over the
//                           threads, cycles of four slices, parameter changes inside them (PipelineCheck)
//         [--isolated]      instead, a chain whose LV2 units run in unit-host children (IsolationCheck)
//         [--isolated-together]  the same, both LV2 units in one child, whose render thread spins
//         [--isolated-behind]  the two LV2 units alone in one child, offered a pipeline: the run
//                           renders one slice behind (posted in one cycle, collected in the next)
//         [--midi-map]      instead, a chain with a MIDI map moved by CCs, notes and pitch bend (MIDIMapCheck)
//         [--crossfade]     instead, the live rig's graph switching chains, crossfaded (CrossfadeCheck)
//         [--pull]          instead, units outside a graph pulled through a render callback and a
//                           connection, as AudioUnitRender does (PullCheck)
//     LD_PRELOAD=... alloc-check --self-test     (proves the shim counts: allocates on purpose)
//
// Prints one `key=value` line; exits 0 when the render thread made no allocation, free or
// lock (nor, with --strict, a trapped system call), 1 when it did, 2 when the shim is not
// loaded, 3 when strict mode cannot be installed. Used by AUEngineTests.
import AUCore
import AUEngine
import AUMIDI
import AUMusicPlayer
import CAUSupport
import Foundation
import Synchronization

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("alloc-check: \(message)\n".utf8))
    exit(status)
}

func report(_ counts: Counts, _ extra: String) {
    print("mallocs=\(counts.mallocs) callocs=\(counts.callocs) reallocs=\(counts.reallocs) frees=\(counts.frees) retains=\(counts.retains) releases=\(counts.releases) locks=\(counts.locks) syscalls=\(counts.syscalls) \(extra)")
}

guard let shim = Shim() else { fail("the AllocCounter shim is not loaded (run with LD_PRELOAD=.../libAllocCounter.so)", status: 2) }

var arguments = CommandLine.arguments.dropFirst()
var cycles = 20_000
var frames = 64
var selfTest = false
var strict = false
var misbehaviour = Misbehaviour.none
var fixtureLibrary: URL?
var threads = 3
var pipeline = false
var isolated = false
var isolation = UnitIsolation.perUnit
var behind = false
var midiMap = false
var crossfade = false
var pull = false
/// Cycles rendered before counting starts: the Swift runtime instantiates generic metadata
/// (allocating, under its own lock) the first time a type is used, once per process.
var warmup = 100
while let argument = arguments.popFirst() {
    switch argument {
    case "--cycles": cycles = Int(arguments.popFirst() ?? "") ?? cycles
    case "--frames": frames = Int(arguments.popFirst() ?? "") ?? frames
    case "--warmup": warmup = Int(arguments.popFirst() ?? "") ?? warmup
    case "--self-test": selfTest = true
    case "--threads":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= 1 else { fail("--threads takes the number of threads that render, counted from 1 (one thread)", status: 64) }
        threads = value
    case "--strict": strict = true
    case "--pipeline": pipeline = true
    case "--isolated": isolated = true
    case "--isolated-together":
        isolated = true
        isolation = .together
    case "--isolated-behind":
        isolated = true
        isolation = .together
        behind = true
    case "--midi-map": midiMap = true
    case "--crossfade": crossfade = true
    case "--pull": pull = true
    case "--lv2-fixtures": fixtureLibrary = arguments.popFirst().map { URL(fileURLWithPath: $0) }
    case "--misbehave":
        guard let value = arguments.popFirst().flatMap(Misbehaviour.init(rawValue:)) else { fail("--misbehave takes allocate, usleep, write or mutex", status: 64) }
        misbehaviour = value
    default: fail("unknown argument '\(argument)'", status: 64)
    }
}

final class Box { var value = 0 }

if selfTest {
    // Everything the real run must not do, done on purpose between begin and end.
    let lock = NSLock()
    shim.reset()
    shim.begin()
    let pointer = UnsafeMutablePointer<Float>.allocate(capacity: 1000)
    pointer.deallocate()
    var array: [Int] = []
    array.append(contentsOf: 0..<100)
    let box = Box()
    box.value = array.count
    let copy = box
    lock.lock()
    lock.unlock()
    shim.end()
    withExtendedLifetime(copy) {}
    let counts = shim.counts()
    report(counts, "selfTest=1")
    exit(counts.mallocs > 0 && counts.frees > 0 && counts.locks > 0 ? 0 : 1)
}

if midiMap { MIDIMapCheck.run(shim: shim, cycles: cycles, frames: frames, warmup: warmup) }
if crossfade { CrossfadeCheck.run(shim: shim, cycles: cycles, frames: frames, warmup: warmup) }
if pull { PullCheck.run(shim: shim, cycles: cycles, frames: frames, warmup: warmup) }
if isolated { IsolationCheck.run(shim: shim, cycles: cycles, frames: frames, warmup: warmup, isolation: isolation, behind: behind) }
if pipeline { PipelineCheck.run(shim: shim, cycles: cycles, frames: frames, warmup: warmup, threads: threads, strict: strict) }

let check: CheckGraph
do {
    if strict { AudioGraph.watchRenderWorkersStrictly() }
    check = try CheckGraph(
        misbehaviour: misbehaviour, lv2Path: fixtureLibrary.map(workerFixtureLV2Path(library:)),
        parallelism: RenderParallelism(threads: threads, policy: .always))
} catch {
    fail("cannot build the graph: \(error)", status: 1)
}
let graph = check.graph
let player: MusicPlayer
do {
    player = try CheckSong.play(in: graph, instrument: check.instrument)
} catch {
    fail("cannot start the song: \(error)", status: 1)
}
let notices = Atomic<Int>(0)
graph.addNoticeListener { notice in
    if notice.kind == .nonFiniteOutput { notices.add(1, ordering: .relaxed) }
}

let input = RenderLoop.sineInput(frames: frames)
let cycleCount = cycles + warmup
// The driver's MIDI for the graph's MIDI input: a control change at an offset inside every
// cycle (the note-ons come from the control thread through sendMIDIEvent).
let renderLoop = RenderLoop(
    graph: graph, shim: shim, frames: frames, cycles: cycles, warmup: warmup, strict: strict, input: input,
    driverMIDI: MIDIEvent(offset: Int32(frames / 2), status: 0xB0, data1: 1, data2: 64), holdsWarmUp: true)
// A first plan swap during the warm-up: the render thread's first adoption of a plan that
// replaces another runs code for the first time (metadata a debug build makes once), which
// the counted cycles must not see. Without it, whether one came before the counting (a
// latency report) depended on the machine's timing.
do {
    // 0 and 1 stages both mean "never pipelined": a new plan, the same rendering.
    let parallelism = graph.parallelism
    graph.parallelism.pipelineStages = parallelism.pipelineStages == 0 ? 1 : 0
    try graph.update()
    graph.parallelism = parallelism
    try graph.update()
    guard graph.waitUntilUpdated(timeout: 10) else { fail("the warm-up's plan swap was not adopted in 10 s", status: 1) }
    // A parallel plan's warm-up lasts until every worker has rendered steps of its own: a
    // worker's first steps run code for the first time too, and on a loaded machine the
    // calling thread can render every step of the first hundred cycles alone.
    let deadline = Date().addingTimeInterval(30)
    while graph.parallelDecision?.isParallel == true, graph.stepsRenderedByEachWorker.contains(where: { $0 < 50 }), Date() < deadline {
        Thread.sleep(forTimeInterval: 0.01)
    }
    // The first note the arpeggiator takes and the first it lets go run code for the first
    // time too (a debug build looks HeldKeys' inline array type up by name, allocating; under
    // load the control thread's first note came after the warm-up): a note on, then off and
    // another on, each answered at the graph's MIDI output, before the counting starts.
    for (index, events) in [[(0x90, 60)], [(0x80, 60), (0x90, 62)], [(0x80, 62)]].enumerated() {
        let heard = renderLoop.warmUpMIDIOutputEvents.load(ordering: .relaxed)
        for (status, note) in events { _ = graph.sendMIDIEvent(MIDIEvent(offset: 0, status: UInt8(status), data1: UInt8(note), data2: status == 0x90 ? 100 : 0)) }
        while index < 2, renderLoop.warmUpMIDIOutputEvents.load(ordering: .relaxed) == heard, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }
} catch {
    fail("the warm-up's plan swap failed: \(error)", status: 1)
}
renderLoop.finishWarmUp()

// The control thread: parameter changes, bypass and live edits while the render thread runs.
var parameterChanges = 0
var edits = 0
var inserted: GraphNode?
var lastEditAt = 0
var lastParameterAt = 0
var ramps = 0
var midiEvents = 0
var nanRequests = 0
var lastNaNAt = 0
var playerMoves = 0
var lastMoveAt = 0
var impulseChanges = 0
var lastImpulseAt = 0
let impulseResponses: [String]
do {
    impulseResponses = try ImpulseResponseFiles.write()
} catch {
    fail("cannot write the impulse responses: \(error)", status: 1)
}
do {
    while renderLoop.done.load(ordering: .acquiring) < cycleCount {
        let now = renderLoop.done.load(ordering: .acquiring)
        renderLoop.controlSaw(now)
        if now - lastParameterAt >= 50 {
            lastParameterAt = now
            let band = ParameterID(parameterChanges % 10)
            try graph.scheduleParameter(check.eq, ParameterAddress(band), value: Float(parameterChanges % 13) - 6, atFrame: parameterChanges % frames)
            try graph.scheduleParameter(check.mixer, ParameterAddress(0, scope: .input, element: 1), value: Float(parameterChanges % 4) * 0.25, atFrame: (parameterChanges * 7) % frames)
            try graph.scheduleParameter(check.mixer, ParameterAddress(2, scope: .input, element: 0), value: Float(parameterChanges % 3) - 1)
            parameterChanges += 3
            if let node = check.native, let unit = try? graph.unit(of: node), let info = unit.parameters.infos.first(where: { $0.isWritable }) {
                try graph.scheduleParameter(node, info.address, value: max(info.minValue, min(info.maxValue, -Float(parameterChanges % 12))), atFrame: parameterChanges % frames)
                parameterChanges += 1
            }
            if let node = check.lv2Amp, let unit = try? graph.unit(of: node), let info = unit.parameters.infos.first(where: { $0.isWritable }) {
                try graph.scheduleParameter(node, info.address, value: max(info.minValue, min(info.maxValue, -Float(parameterChanges % 12))), atFrame: parameterChanges % frames)
                parameterChanges += 1
            }
            // A ramp starting inside the cycle (the unit's own scheduler splits it there).
            if let node = check.native, let unit = try? graph.unit(of: node), let info = unit.parameters.infos.first(where: { $0.isWritable }) {
                let end = max(info.minValue, min(info.maxValue, -Float(ramps % 9)))
                try unit.scheduleParameters([ScheduledParameterEvent(info.address, .ramped(startOffset: 1 + ramps % (frames - 1), duration: 3 * frames / 2, startValue: nil, endValue: end))])
                ramps += 1
            }
            // Note on and note off in turn, at an offset inside the cycle.
            if check.instrument != nil || check.midiProcessor != nil {
                let on = midiEvents % 2 == 0
                _ = graph.sendMIDIEvent(MIDIEvent(offset: Int32(midiEvents % frames), status: on ? 0x90 : 0x80, data1: UInt8(36 + midiEvents / 2 % 24), data2: on ? 100 : 0))
                midiEvents += 1
            }
            graph.dispatchPendingNotifications()
        }
        // NaN now and then: the graph mutes the fixture and sends a notice; it plays again at once.
        if graph.isFaulted(check.fixtureNode) { try graph.clearFault(check.fixtureNode) }
        if now - lastNaNAt >= max(1, cycles / 10) {
            lastNaNAt = now
            check.fixture.requestNaN()
            nanRequests += 1
        }
        // The song: seek, stop, start and a new rate in turn (the render thread ends the
        // sounding notes and moves the clock each time).
        if now - lastMoveAt >= max(1, cycles / 40) {
            lastMoveAt = now
            try CheckSong.move(player, step: playerMoves)
            playerMoves += 1
        }
        // A new impulse response for zeroconvo now and then: a patch:Set through its atom
        // port (its worker thread loads the file), its reply read back.
        if let node = check.fileConvolver, now - lastImpulseAt >= max(1, cycles / 8) {
            lastImpulseAt = now
            let unit = try graph.unit(of: node)
            try unit.setPropertyParameter("ir", to: .path(impulseResponses[impulseChanges % 2]))
            _ = unit.propertyParameterValue("ir")
            impulseChanges += 1
        }
        if misbehaviour == .mutex { check.fixture.contended.withLock { _ in _ = usleep(100) } }
        if now - lastEditAt >= max(1, cycles / 20) {
            lastEditAt = now
            if let node = inserted {
                try graph.removeNode(node)
                try graph.connect(check.splitter, output: 1, to: check.mixer, input: 1)
                inserted = nil
            } else {
                try graph.disconnect(check.mixer, input: 1)
                let eq = try graph.addNode(ComponentDescription(parsing: "aufx:ipeq:AUHs")!, name: "Inserted EQ")
                try graph.connect(check.splitter, output: 1, to: eq)
                try graph.connect(eq, to: check.mixer, input: 1)
                inserted = eq
            }
            try graph.setBypass(edits % 3 == 1, for: check.eq)
            try graph.update()
            edits += 1
        }
        usleep(200)
    }
} catch {
    fail("control thread: \(error)", status: 1)
}
renderLoop.join()
let counts = shim.counts()
graph.dispatchPendingNotifications()
let latency = graph.latencyFrames
let parallel = graph.parallelDecision?.isParallel == true ? 1 : 0, workerSteps = graph.stepsRenderedByWorkers
graph.dispose()
let trapped = strict ? reportTrappedCalls() : 0
if renderLoop.strictStatus.load(ordering: .relaxed) != 0 {
    fail("strict mode: the kernel refused the seccomp filter (errno \(renderLoop.strictStatus.load(ordering: .relaxed)))", status: 3)
}
func flag(_ node: GraphNode?) -> Int { node == nil ? 0 : 1 }
report(counts, """
    trapped=\(trapped) cycles=\(cycles) warmup=\(warmup) frames=\(frames) edits=\(edits) parameterChanges=\(parameterChanges) ramps=\(ramps) \
    midiEvents=\(midiEvents) midiOutputEvents=\(renderLoop.midiOutputEvents.load(ordering: .relaxed)) midiProcessor=\(flag(check.midiProcessor)) playerMoves=\(playerMoves) arpeggiator=\(flag(check.arpeggiator)) nanRequests=\(nanRequests) nanNotices=\(notices.load(ordering: .relaxed)) graphLatency=\(latency) \
    lv2=\(flag(check.lv2Amp)) native=\(flag(check.native)) instrument=\(flag(check.instrument)) latencyReport=\(flag(check.dpl)) \
    transport=\(flag(check.meter)) threadedWorker=\(flag(check.threadedWorker)) fileConvolver=\(flag(check.fileConvolver)) impulseChanges=\(impulseChanges) immediateWorker=\(flag(check.immediateWorker)) schedulingWorkers=\(check.schedulingWorkers.count) \
    renderFailures=\(renderLoop.failures.load(ordering: .relaxed)) nonFiniteCycles=\(renderLoop.nonFinite.load(ordering: .relaxed)) \
    threads=\(threads) parallel=\(parallel) workerSteps=\(workerSteps) workerWakes=\(au_futex_render_wakes())
    """)
let clean = counts.mallocs + counts.callocs + counts.reallocs + counts.frees + counts.locks + trapped == 0
exit(clean && renderLoop.failures.load(ordering: .relaxed) == 0 && edits > 0 ? 0 : 1)
