// alloc-check: renders a real graph for many cycles on a render thread while the control
// thread changes parameters, bypasses a node and edits the graph live, and reports what the
// render thread allocated, freed, retained, released and locked. Run it under the
// AllocCounter shim:
//
//     LD_PRELOAD=.build/debug/libAllocCounter.so .build/debug/alloc-check [--cycles N] [--frames N] [--warmup N]
//     LD_PRELOAD=... alloc-check --self-test     (proves the shim counts: allocates on purpose)
//
// Prints one `key=value` line; exits 0 when the render thread made no allocation, free or
// lock, 1 when it did, 2 when the shim is not loaded. Used by AUEngineTests.
import AUCore
import AUEngine
import AULV2
import AUNative
import Foundation
import Synchronization

struct Counts {
    var mallocs: UInt64 = 0, callocs: UInt64 = 0, reallocs: UInt64 = 0, frees: UInt64 = 0
    var retains: UInt64 = 0, releases: UInt64 = 0, locks: UInt64 = 0, syscalls: UInt64 = 0
}

/// The shim's entry points, found in the preloaded library.
struct Shim {
    typealias Void0 = @convention(c) () -> Void
    typealias Read = @convention(c) (UnsafeMutableRawPointer) -> Void
    let begin: Void0, end: Void0, reset: Void0, read: Read

    init?() {
        guard let begin = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "alloc_counter_begin"),
              let end = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "alloc_counter_end"),
              let reset = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "alloc_counter_reset"),
              let read = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "alloc_counter_read") else { return nil }
        self.begin = unsafeBitCast(begin, to: Void0.self)
        self.end = unsafeBitCast(end, to: Void0.self)
        self.reset = unsafeBitCast(reset, to: Void0.self)
        self.read = unsafeBitCast(read, to: Read.self)
    }

    func counts() -> Counts {
        var counts = Counts()
        withUnsafeMutableBytes(of: &counts) { read($0.baseAddress!) }
        return counts
    }
}

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
/// Cycles rendered before counting starts: the Swift runtime instantiates generic metadata
/// (allocating, under its own lock) the first time a type is used, once per process.
var warmup = 100
while let argument = arguments.popFirst() {
    switch argument {
    case "--cycles": cycles = Int(arguments.popFirst() ?? "") ?? cycles
    case "--frames": frames = Int(arguments.popFirst() ?? "") ?? frames
    case "--warmup": warmup = Int(arguments.popFirst() ?? "") ?? warmup
    case "--self-test": selfTest = true
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

// The graph: application input -> EQ (Bass Booster) -> native Gain -> splitter -> mixer
// input 0; splitter output 1 -> [live edits: a second EQ inserted and removed] -> mixer
// input 1; splitter output 2 -> converter (stereo to mono) -> LV2 swh amp (mono) -> mixer
// input 2; mixer -> output. Without the LV2 or native unit (not installed, not built) the
// graph is built without it and the report says so (lv2=0 / native=0).
let registry = ComponentRegistry(providers: [BuiltinUnits(), LV2Provider(probeCacheFile: nil), NativeProvider()])
let lv2Amp = registry.components(matching: ComponentDescription(type: "aufx", subtype: "amp ", manufacturer: "StHa"))
    .first { $0.identifier == "http://plugin.org.uk/swh-plugins/amp" }
let nativeGain = registry.components(matching: ComponentDescription(type: "aufx", subtype: "gain", manufacturer: "AUHs"))
    .first { $0.format == .native }
let graph = AudioGraph(registry: registry)
func node(_ code: String, _ name: String) throws -> GraphNode {
    try graph.addNode(ComponentDescription(parsing: code)!, name: name)
}
let built: (output: GraphNode, eq: GraphNode, splitter: GraphNode, mixer: GraphNode, converter: GraphNode)
var plugins: (lv2: GraphNode?, native: GraphNode?) = (nil, nil)
do {
    let output = try node("auou:genr:AUHs", "Out")
    let eq = try node("aufx:ipeq:AUHs", "EQ")
    let splitter = try node("aufx:splt:AUHs", "Split")
    let mixer = try node("aumx:mcmx:AUHs", "Mixer")
    let converter = try node("aufc:conv:AUHs", "Converter")
    if let nativeGain { plugins.native = try graph.addNode(try nativeGain.instantiate(), name: "Native Gain") }
    if let lv2Amp { plugins.lv2 = try graph.addNode(try lv2Amp.instantiate(), name: "LV2 Amp") }
    try graph.open()
    try graph.unit(of: splitter).setValue(3, for: .elementCount, scope: .output)
    try graph.unit(of: eq).setValue(UnitPreset(number: 2, name: "Bass Booster"), for: .presentPreset)
    try graph.unit(of: converter).setValue(StreamFormat.canonical(sampleRate: 48_000, channels: 1), for: .streamFormat, scope: .output)
    try graph.connect(output, to: eq)
    if let gain = plugins.native {
        try graph.connect(eq, to: gain)
        try graph.connect(gain, to: splitter)
    } else {
        try graph.connect(eq, to: splitter)
    }
    try graph.connect(splitter, output: 0, to: mixer, input: 0)
    try graph.connect(splitter, output: 1, to: mixer, input: 1)
    try graph.connect(splitter, output: 2, to: converter)
    if let amp = plugins.lv2 {
        try graph.connect(converter, to: amp)
        try graph.connect(amp, to: mixer, input: 2)
    } else {
        try graph.connect(converter, to: mixer, input: 2)
    }
    try graph.connect(mixer, to: output)
    graph.maximumFramesPerSlice = 1024
    try graph.initialize()
    try graph.start()
    built = (output, eq, splitter, mixer, converter)
} catch {
    fail("cannot build the graph: \(error)", status: 1)
}

let input = OwnedAudioBuffers(channels: 2, capacity: frames)
for channel in 0..<2 {
    for frame in 0..<frames { input.buffers()[channel][frame] = Float(sin(Double(frame) * 0.05 + Double(channel))) * 0.25 }
}
let output = OwnedAudioBuffers(channels: 2, capacity: frames)
let done = Atomic<Int>(0)
let failures = Atomic<Int>(0)
let nonFinite = Atomic<Int>(0)

let cycleCount = cycles + warmup, frameCount = frames, warmupCycles = warmup
let renderThread = Thread {
    let frames = frameCount
    let inputView = input.buffers(frameCount: frames)
    let outputView = output.buffers(frameCount: frames)
    for cycle in 0..<cycleCount {
        // RenderThread.run may count on its own (CAUSupport begins counting when the shim is
        // loaded): forget what the warm-up counted.
        if cycle == warmupCycles { shim.reset() }
        if cycle >= warmupCycles { shim.begin() }
        let status = graph.render(frameCount: frames, timestamp: RenderTimestamp(sampleTime: Double(cycle * frames)), input: inputView, output: outputView)
        shim.end()
        if status != 0 { failures.add(1, ordering: .relaxed) }
        if outputView.containsNonFinite() { nonFinite.add(1, ordering: .relaxed) }
        done.store(cycle + 1, ordering: .releasing)
    }
}
shim.reset()
renderThread.start()

// The control thread: parameter changes, bypass and live edits while the render thread runs.
var parameterChanges = 0
var edits = 0
var inserted: GraphNode?
var lastEditAt = 0
var lastParameterAt = 0
do {
    while done.load(ordering: .acquiring) < cycleCount {
        let now = done.load(ordering: .acquiring)
        if now - lastParameterAt >= 50 {
            lastParameterAt = now
            let band = ParameterID(parameterChanges % 10)
            try graph.scheduleParameter(built.eq, ParameterAddress(band), value: Float(parameterChanges % 13) - 6, atFrame: parameterChanges % frames)
            try graph.scheduleParameter(built.mixer, ParameterAddress(0, scope: .input, element: 1), value: Float(parameterChanges % 4) * 0.25, atFrame: (parameterChanges * 7) % frames)
            try graph.scheduleParameter(built.mixer, ParameterAddress(2, scope: .input, element: 0), value: Float(parameterChanges % 3) - 1)
            parameterChanges += 3
            if let node = plugins.native, let unit = try? graph.unit(of: node), let info = unit.parameters.infos.first(where: { $0.isWritable }) {
                try graph.scheduleParameter(node, info.address, value: max(info.minValue, min(info.maxValue, -Float(parameterChanges % 12))), atFrame: parameterChanges % frames)
                parameterChanges += 1
            }
            if let node = plugins.lv2, let unit = try? graph.unit(of: node), let info = unit.parameters.infos.first(where: { $0.isWritable }) {
                try graph.scheduleParameter(node, info.address, value: max(info.minValue, min(info.maxValue, -Float(parameterChanges % 12))), atFrame: parameterChanges % frames)
                parameterChanges += 1
            }
            graph.dispatchPendingNotifications()
        }
        if now - lastEditAt >= max(1, cycles / 20) {
            lastEditAt = now
            if let node = inserted {
                try graph.removeNode(node)
                try graph.connect(built.splitter, output: 1, to: built.mixer, input: 1)
                inserted = nil
            } else {
                try graph.disconnect(built.mixer, input: 1)
                let eq = try graph.addNode(ComponentDescription(parsing: "aufx:ipeq:AUHs")!, name: "Inserted EQ")
                try graph.connect(built.splitter, output: 1, to: eq)
                try graph.connect(eq, to: built.mixer, input: 1)
                inserted = eq
            }
            try graph.setBypass(edits % 3 == 1, for: built.eq)
            try graph.update()
            edits += 1
        }
        usleep(200)
    }
} catch {
    fail("control thread: \(error)", status: 1)
}
while !renderThread.isFinished { usleep(1000) }
let counts = shim.counts()
graph.dispatchPendingNotifications()
graph.dispose()
report(counts, "cycles=\(cycles) warmup=\(warmup) frames=\(frames) edits=\(edits) parameterChanges=\(parameterChanges) lv2=\(plugins.lv2 == nil ? 0 : 1) native=\(plugins.native == nil ? 0 : 1) renderFailures=\(failures.load(ordering: .relaxed)) nonFiniteCycles=\(nonFinite.load(ordering: .relaxed))")
let clean = counts.mallocs + counts.callocs + counts.reallocs + counts.frees + counts.locks == 0
exit(clean && failures.load(ordering: .relaxed) == 0 && edits > 0 ? 0 : 1)
