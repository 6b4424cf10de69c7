import AUCore
import AUEngine
import Testing

@Suite("Updates and render errors")
struct GraphUpdateTests {
    @Test("edits wait for update(); a removed unit is disposed only after the render thread adopted a plan without it")
    func updateAndDisposal() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let source = try graph.addNode(SignalSource())
        let gain = GainUnit(gain: 0.5)
        let gainNode = try graph.addNode(gain)
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(source, to: gainNode)
        try graph.connect(gainNode, to: output)
        try graph.initialize()
        var out = renderFrames(graph, total: 64, block: 64)
        #expect(out[0] == (0..<64).map { testSignal($0) * 0.5 })
        // Remove the gain and connect the source straight through: nothing changes until update().
        try graph.removeNode(gainNode)
        try graph.connect(source, to: output)
        #expect(graph.hasPendingEdits)
        out = renderFrames(graph, total: 64, block: 64, startTime: 64)
        #expect(out[0] == (64..<128).map { testSignal($0) * 0.5 })
        try graph.update()
        #expect(gain.state == .initialized, "the render thread may still use it")
        out = renderFrames(graph, total: 64, block: 64, startTime: 128)
        #expect(out[0] == (128..<192).map { testSignal($0) })
        let notices = graph.dispatchPendingNotifications()
        #expect(notices.contains { $0.kind == .planAdopted })
        #expect(gain.state == .disposed)
    }

    @Test("a unit that fails to render is silenced for the cycle and reported once; the rest plays on")
    func renderError() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let a = try graph.addNode(SignalSource(name: "A"))
        let failing = try graph.addNode(FailingUnit(failAt: 256))
        let b = try graph.addNode(SignalSource(name: "B", scale: 0.5))
        let mixer = try graph.addNode(builtin("aumx", "mcmx"))
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(a, to: failing)
        try graph.connect(failing, to: mixer, input: 0)
        try graph.connect(b, to: mixer, input: 1)
        try graph.connect(mixer, to: output)
        try graph.initialize()
        let out = renderFrames(graph, total: 1024, block: 128)
        let expected = (0..<1024).map { n in (n < 256 ? testSignal(n) : 0) + testSignal(n) * 0.5 }
        #expect(maxDifference(out[0], expected) <= tolerance)
        let errors = graph.dispatchPendingNotifications().filter { $0.kind == .renderError }
        #expect(errors.count == 1)
        #expect(errors.first?.node == failing)
        #expect(errors.first?.status == AudioUnitErrorCode.noConnection.rawValue)
        #expect(graph.dump().contains("last render error \(AudioUnitErrorCode.noConnection.rawValue)"))
    }
}
