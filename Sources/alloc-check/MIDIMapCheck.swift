import AUCore
import AUEngine
import AUHost
import Foundation

/// `alloc-check --midi-map`: a chain (built-in EQ into a mixer) with a preset's `midiMap`
/// and `snapshots` attached (``MIDIMap``): every curve (linear, log with a glide, toggle,
/// momentary) moved by control changes, pitch bend and notes at offsets inside the cycles,
/// snapshots recalled ramped by program changes and by name, while the control
/// thread learns, unlearns and adds mappings (the render table's edit ring), and each node's
/// output level is measured (``LiveLevels``: a post-render notification into a
/// ``SignalLevelMeter``) and read. Counts what the
/// render thread allocates, frees, retains and locks; prints one `key=value` line and exits
/// as the main check does.
/// - Thread: [control]
enum MIDIMapCheck {
    static let preset = """
        {"auhost": 1, "name": "alloc-check MIDI map",
         "nodes": [{"id": "eq", "unit": "aufx:ipeq:AUHs"}, {"id": "mix", "unit": "aumx:mcmx:AUHs"}],
         "chain": ["eq", "mix"],
         "midiMap": [{"cc": 1, "parameter": "eq.band0", "min": -12, "max": 12},
                     {"cc": 2, "channel": 1, "parameter": "eq.band1", "min": 1, "max": 12, "curve": "log", "smoothing": 5},
                     {"cc": 64, "parameter": "eq.band2", "curve": "toggle"},
                     {"note": 60, "parameter": "eq.band3", "curve": "momentary"},
                     {"pitchBend": true, "parameter": "mix.volume", "min": 0, "max": 2, "smoothing": 2}],
         "snapshots": [{"name": "flat", "parameters": {"eq.band6": 0, "eq.band7": 0, "mix.volume": 1}, "ramp": 3},
                       {"name": "smile", "parameters": {"eq.band6": 6, "eq.band7": -3, "mix.volume": 0.8}},
                       {"name": "cut", "parameters": {"eq.band6": -6}, "ramp": 0}]}
        """

    static func run(shim: Shim, cycles: Int, frames: Int, warmup: Int) -> Never {
        let registry = ComponentRegistry(providers: [BuiltinUnits()])
        let chain: ChainGraph
        let map: MIDIMap
        let levels: LiveLevels
        do {
            let loaded = try PresetLoader(registry: registry).load(data: Data(preset.utf8), file: "alloc-check.json")
            chain = try ChainGraph(loaded, registry: registry, sampleRate: 48_000, maximumFrames: frames, parallelism: .singleThreaded)
            map = try MIDIMap(chain: chain, mappings: loaded.midiMap, snapshots: loaded.snapshots)
            try chain.graph.start()
            levels = LiveLevels(chain: chain, input: SignalLevelMeter(channels: 2), output: SignalLevelMeter(channels: 2))
        } catch {
            fail("cannot build the mapped chain: \(error)", status: 1)
        }
        let input = RenderLoop.sineInput(frames: frames)
        // The driver's MIDI of every cycle: CC 1 inside it (what a learn takes, too).
        let loop = RenderLoop(
            graph: chain.graph, shim: shim, frames: frames, cycles: cycles, warmup: warmup, strict: false, input: input,
            driverMIDI: MIDIEvent(offset: Int32(frames / 3), status: 0xB0, data1: 1, data2: 90))
        var sent = 0, learned = 0, tableEdits = 0, measured = 0
        var lastSendAt = -1, lastEditAt = 0, lastReadAt = 0
        do {
            while !loop.isFinished {
                let now = loop.done.load(ordering: .acquiring)
                if now - lastSendAt >= 5 {
                    lastSendAt = now
                    let offset = Int32((sent * 11) % frames), value = UInt8(sent * 37 % 128)
                    for event in [
                        MIDIEvent(offset: offset, status: 0xB0, data1: 2, data2: value),
                        MIDIEvent(offset: offset, status: 0xB0, data1: 64, data2: sent % 2 == 0 ? 127 : 0),
                        MIDIEvent(offset: offset, status: sent % 2 == 0 ? 0x90 : 0x80, data1: 60, data2: 100),
                        MIDIEvent(offset: offset, status: 0xE0, data1: value, data2: UInt8(sent * 13 % 128)),
                        MIDIEvent(offset: offset, status: 0xC0, data1: UInt8(sent / 4 % 4), data2: 0),
                    ] { _ = chain.graph.sendMIDIEvent(event) }
                    sent += 5
                    if sent % 3 == 0 { map.recall(["flat", "smile", "cut"][sent / 3 % 3]) }
                }
                if now - lastEditAt >= max(1, cycles / 20) {
                    lastEditAt = now
                    if map.learning == nil, map.mappings.contains(where: { $0.mapping.parameter == "eq.band5" }) {
                        try map.remove(parameter: "eq.band5")
                        tableEdits += 1
                    } else if map.learning == nil {
                        try map.learn("eq.band5")
                    }
                }
                if map.takeLearned() != nil {
                    learned += 1
                    tableEdits += 1
                }
                chain.graph.dispatchPendingNotifications()
                if now - lastReadAt >= 50, let eq = levels.meterWords.first(where: { $0.hasPrefix("eq.peak=") }), eq != "eq.peak=-inf" {
                    lastReadAt = now
                    measured += 1
                }
                usleep(200)
            }
        } catch {
            fail("control thread: \(error)", status: 1)
        }
        loop.join()
        let counts = shim.counts()
        let moves = map.moveCount, recalled = map.recalledSnapshot != nil
        levels.detach()
        chain.dispose()
        report(counts, """
            cycles=\(cycles) warmup=\(warmup) frames=\(frames) midiSent=\(sent) midiMoves=\(moves) learned=\(learned) tableEdits=\(tableEdits) levelsRead=\(measured) snapshotRecalled=\(recalled ? 1 : 0) \
            renderFailures=\(loop.failures.load(ordering: .relaxed)) nonFiniteCycles=\(loop.nonFinite.load(ordering: .relaxed))
            """)
        let clean = counts.mallocs + counts.callocs + counts.reallocs + counts.frees + counts.locks == 0
        exit(clean && loop.failures.load(ordering: .relaxed) == 0 && moves > 0 && learned > 0 && measured > 0 && recalled ? 0 : 1)
    }
}
