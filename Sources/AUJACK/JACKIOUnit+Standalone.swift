import AUCore
import AUEngine

/// The JACK I/O unit without a graph, an output unit as Apple's are: JACK plays its input
/// bus 0, and `AudioUnitRender` on it returns that input.
extension JACKIOUnit {
    /// `auou:genr:AUHs`, the output node of the graph a unit without one plays.
    static let standaloneOutputDescription = ComponentDescription(type: ComponentType.output, subtype: "genr", manufacturer: "AUHs")

    /// Makes, initializes and keeps ``standaloneGraph``: one generic output node at the
    /// playback bus's format whose input callback pulls this unit's input bus 0 (its render
    /// callback or connection). The JACK cycle renders it as it renders any graph (resampled
    /// to the server's rate when the bus is at another).
    /// - Thread: [control]
    func makeStandaloneGraph() throws(AudioUnitError) -> AudioGraph {
        let playback = try busConfiguration(scope: .input, element: Self.playbackBus).format
        let output = GenericOutputUnit(description: Self.standaloneOutputDescription, name: "\(name) input", sampleRate: playback.sampleRate)
        try output.setValue(try value(of: .maximumFramesPerSlice), for: .maximumFramesPerSlice)
        try output.setValue(playback, for: .streamFormat, scope: .input, element: 0)
        try output.setValue(playback, for: .streamFormat, scope: .output, element: 0)
        let graph = AudioGraph()
        do {
            let node = try graph.addNode(output)
            // Borrowed, not retained, on the render thread: the unit owns the graph.
            let unit = Unmanaged.passUnretained(self)
            try graph.setInputCallback(RenderCallback { flags, timestamp, _, buffers in
                unit._withUnsafeGuaranteedRef { $0.pullInput(Self.playbackBus, flags: &flags, timestamp: timestamp, into: buffers) }
            }, for: node, input: 0)
            try graph.initialize()
        } catch {
            graph.dispose()
            throw error
        }
        standaloneGraph = graph
        return graph
    }

    /// Disposes ``standaloneGraph``, if any (the cycle no longer renders it).
    /// - Thread: [control]
    func disposeStandaloneGraph() {
        standaloneGraph?.dispose()
        standaloneGraph = nil
    }

}
