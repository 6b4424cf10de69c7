import AUCore
import AUEngine
import AUHost
import Foundation

/// `alloc-check --crossfade`: the live rig's graph (``RigGraph``: capture into the chain
/// switch, the switch into playback) rendering a chain with a MIDI map moved by the
/// driver's MIDI, while the control thread switches it again and again to freshly built
/// chains (alternately the MIDI-mapped chain and a mixer into an EQ), each crossfaded over a
/// few cycles from another frame of a cycle, and disposes each
/// chain the render thread hands back. Counts what the render thread allocates, frees,
/// retains and locks; prints one `key=value` line and exits as the main check does.
/// - Thread: [control]
enum CrossfadeCheck {
    static let other = """
        {"auhost": 1, "name": "alloc-check crossfade",
         "nodes": [{"id": "mix", "unit": "aumx:mcmx:AUHs", "parameters": {"volume": 0.5}}, {"id": "eq", "unit": "aufx:ipeq:AUHs"}],
         "chain": ["mix", "eq"]}
        """

    static func run(shim: Shim, cycles: Int, frames: Int, warmup: Int) -> Never {
        let registry = ComponentRegistry(providers: [BuiltinUnits()])
        let presets: [LoadedPreset]
        do {
            let loader = PresetLoader(registry: registry)
            presets = [
                try loader.load(data: Data(MIDIMapCheck.preset.utf8), file: "alloc-check-midi-map.json"),
                try loader.load(data: Data(other.utf8), file: "alloc-check-crossfade.json"),
            ]
        } catch {
            fail("cannot load the crossfade presets: \(error)", status: 1)
        }
        /// A fresh chain of preset `index`, started, with its MIDI map when it has one.
        func build(_ index: Int) throws -> (ChainGraph, MIDIMap?) {
            let preset = presets[index % 2]
            let chain = try ChainGraph(preset, units: try preset.makeUnits(), registry: registry, sampleRate: 48_000, maximumFrames: frames, parallelism: .singleThreaded)
            let map = preset.midiMap.isEmpty ? nil : try MIDIMap(chain: chain, mappings: preset.midiMap, snapshots: preset.snapshots)
            try chain.graph.start()
            return (chain, map)
        }
        let rig: RigGraph
        var maps: [ObjectIdentifier: MIDIMap] = [:]
        do {
            let (first, map) = try build(0)
            maps[ObjectIdentifier(first)] = map
            rig = try RigGraph(
                first: first, captureChannels: 2, playbackChannels: 2, takesMIDI: true, sendsMIDI: false, registry: registry, sampleRate: 48_000,
                maximumFrames: frames)
        } catch {
            fail("cannot build the rig: \(error)", status: 1)
        }
        let input = RenderLoop.sineInput(frames: frames)
        let loop = RenderLoop(
            graph: rig.graph, shim: shim, frames: frames, cycles: cycles, warmup: warmup, strict: false, input: input,
            driverMIDI: MIDIEvent(offset: Int32(frames / 3), status: 0xB0, data1: 1, data2: 90))
        var requested = 0, disposed = 0, moves = 0
        do {
            while !loop.isFinished {
                if let retired = rig.takeRetired() {
                    moves += maps.removeValue(forKey: ObjectIdentifier(retired))?.moveCount ?? 0
                    retired.dispose()
                    disposed += 1
                }
                if !rig.isSwitching {
                    let (next, map) = try build(requested + 1)
                    maps[ObjectIdentifier(next)] = map
                    // A crossfade of a few cycles, each switch starting at another frame of a cycle.
                    if rig.switchTo(next, crossfadeFrames: 3 * frames + requested % frames) { requested += 1 }
                }
                usleep(500)
            }
        } catch {
            fail("control thread: \(error)", status: 1)
        }
        loop.join()
        let counts = shim.counts()
        moves += maps.values.reduce(0) { $0 + $1.moveCount }
        rig.dispose()
        for chain in rig.chains { chain.dispose() }
        report(counts, """
            cycles=\(cycles) warmup=\(warmup) frames=\(frames) switchesRequested=\(requested) switches=\(rig.switches) chainsDisposed=\(disposed) midiMoves=\(moves) \
            renderFailures=\(loop.failures.load(ordering: .relaxed)) nonFiniteCycles=\(loop.nonFinite.load(ordering: .relaxed))
            """)
        let clean = counts.mallocs + counts.callocs + counts.reallocs + counts.frees + counts.locks == 0
        exit(clean && loop.failures.load(ordering: .relaxed) == 0 && rig.switches > 1 && disposed > 0 && moves > 0 ? 0 : 1)
    }
}
