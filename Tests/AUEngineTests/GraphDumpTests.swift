import AUCore
import AUEngine
import Testing

@Suite("Graph dump and DOT")
struct GraphDumpTests {
    @Test("the dump names nodes, formats, connections, delays, latency and render shares; DOT has every node and edge")
    func dumpAndDot() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let source = try graph.addNode(SignalSource(name: "Tone"))
        let splitter = try graph.addNode(builtin("aufx", "splt"))
        let slow = try graph.addNode(LatencyUnit(name: "Look-ahead", frames: 32))
        let mixer = try graph.addNode(builtin("aumx", "mcmx"))
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(source, to: splitter)
        try graph.connect(splitter, output: 0, to: slow)
        try graph.connect(slow, to: mixer, input: 0)
        try graph.connect(splitter, output: 1, to: mixer, input: 1)
        try graph.connect(mixer, to: output)
        try graph.initialize()
        try graph.setBypass(true, for: slow)
        // 32 cycles: the last is timed (one in 32).
        _ = renderFrames(graph, total: 32 * 256, block: 256)
        let dump = graph.dump()
        #expect(dump.contains("AudioGraph: 5 node(s), 5 connection(s), initialized"))
        #expect(dump.contains("node \(source): 'Tone' augn:sigl:Test"))
        #expect(dump.contains("node \(slow): 'Look-ahead' aufx:test:Test [bypassed]"))
        #expect(dump.contains("node \(output): 'Generic Output' auou:genr:AUHs [output]"))
        #expect(dump.contains("output 0: 48000 Hz, 2 ch, Float32, non-interleaved"))
        #expect(dump.contains("'Splitter' (\(splitter)) output 1 -> 'Multichannel Mixer' (\(mixer)) input 1  (aligned by a 32-frame delay)"))
        #expect(dump.contains("Latency: 32 frame(s)"))
        #expect(dump.contains("% of render time"))
        #expect(dump.contains("Rendered 32 cycle(s)"))
        let dot = graph.dotGraph()
        #expect(dot.hasPrefix("digraph AudioGraph {"))
        for node in graph.nodes { #expect(dot.contains("n\(node.rawValue) [label=")) }
        #expect(dot.contains("n\(splitter.rawValue) -> n\(mixer.rawValue) [label=\"1→1 (2 ch)\\ndelay 32\"]"))
        #expect(dot.contains("style=dashed"))
    }
}
