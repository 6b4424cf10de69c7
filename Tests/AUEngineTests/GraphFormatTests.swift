import AUCore
import AUEngine
import Testing

@Suite("Graph formats and validation")
struct GraphFormatTests {
    @Test("initialize propagates formats along connections: channels into a mixer, sample rate through an effect")
    func propagation() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        let mono = try graph.addNode(SignalSource(name: "Mono", channels: 1, sampleRate: 44_100))
        let gain = try graph.addNode(GainUnit(channels: 1))
        let mixer = try graph.addNode(builtin("aumx", "mcmx"))
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.open()
        try graph.connect(mono, to: gain)
        try graph.connect(gain, to: mixer, input: 2)
        try graph.connect(mixer, to: output)
        try graph.initialize()
        let gainUnit = try graph.unit(of: gain)
        #expect(gainUnit.formats(.input)[0] == .canonical(sampleRate: 44_100, channels: 1))
        #expect(gainUnit.formats(.output)[0] == .canonical(sampleRate: 44_100, channels: 1))
        let mixerUnit = try graph.unit(of: mixer)
        #expect(mixerUnit.formats(.input)[2] == .canonical(sampleRate: 44_100, channels: 1))
        #expect(mixerUnit.formats(.output)[0] == .canonical(sampleRate: 44_100, channels: 2))
        #expect(graph.outputFormat == .canonical(sampleRate: 44_100, channels: 2))
        graph.dispose()
    }

    enum Failure: String, CaseIterable, CustomTestStringConvertible {
        case channelMismatch, sampleRateMismatch, cycle, inputTaken, noSuchBus, secondOutput, selfConnection, unknownNode
        var testDescription: String { rawValue }
    }

    @Test("each validation error names the nodes and buses", arguments: Failure.allCases)
    func validation(_ failure: Failure) throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let error: AudioUnitError
        switch failure {
        case .channelMismatch:
            let mono = try graph.addNode(SignalSource(name: "Mono", channels: 1))
            let gain = try graph.addNode(GainUnit(name: "Stereo Gain", channels: 2))
            try graph.connect(mono, to: gain)
            error = try #require(throws: AudioUnitError.self) { try graph.initialize() }
            #expect(error.code == .formatNotSupported)
            #expect(error.message.contains("'Mono' (\(mono)) output 0"))
            #expect(error.message.contains("'Stereo Gain' (\(gain)) input 0"))
            #expect(error.message.contains("channel counts differ (1 vs 2)"))
            #expect(error.message.contains("aufc:conv"))
        case .sampleRateMismatch:
            let a = try graph.addNode(SignalSource(name: "At 44.1", sampleRate: 44_100))
            let b = try graph.addNode(SignalSource(name: "At 48", sampleRate: 48_000))
            let mixer = try graph.addNode(builtin("aumx", "mcmx"), name: "Desk")
            try graph.open()
            try graph.connect(a, to: mixer, input: 0)
            try graph.connect(b, to: mixer, input: 1)
            error = try #require(throws: AudioUnitError.self) { try graph.initialize() }
            #expect(error.code == .formatNotSupported)
            #expect(error.message.contains("'Desk' (\(mixer)) input 0 is at 44100 Hz but input 1 is at 48000 Hz"))
        case .cycle:
            let source = try graph.addNode(SignalSource())
            let mixer = try graph.addNode(builtin("aumx", "mcmx"), name: "Desk")
            let a = try graph.addNode(GainUnit(name: "A"))
            let b = try graph.addNode(GainUnit(name: "B"))
            try graph.open()
            try graph.connect(source, to: mixer, input: 0)
            try graph.connect(mixer, to: a)
            try graph.connect(a, to: b)
            try graph.connect(b, to: mixer, input: 1)
            error = try #require(throws: AudioUnitError.self) { try graph.initialize() }
            #expect(error.message.contains("cycle"))
            #expect(error.message.contains("'A' (\(a)) output 0 -> 'B' (\(b)) input 0"))
            #expect(error.message.contains("'B' (\(b)) output 0 -> 'Desk' (\(mixer)) input 1"))
        case .inputTaken:
            let a = try graph.addNode(SignalSource(name: "A"))
            let b = try graph.addNode(SignalSource(name: "B"))
            let gain = try graph.addNode(GainUnit())
            try graph.connect(a, to: gain)
            error = try #require(throws: AudioUnitError.self) { try graph.connect(b, to: gain) }
            #expect(error.message.contains("'Gain' (\(gain)) input 0 is already fed by 'A' (\(a)) output 0"))
        case .noSuchBus:
            let a = try graph.addNode(SignalSource(name: "A"))
            let gain = try graph.addNode(GainUnit())
            error = try #require(throws: AudioUnitError.self) { try graph.connect(a, to: gain, input: 3) }
            #expect(error.code == .invalidElement)
            #expect(error.message.contains("'Gain' (\(gain)) has 1 input bus(es); there is no input 3"))
        case .secondOutput:
            try graph.addNode(builtin("auou", "genr"), name: "Out")
            error = try #require(throws: AudioUnitError.self) { try graph.addNode(builtin("auou", "genr")) }
            #expect(error.message.contains("already has an output node, 'Out'"))
        case .selfConnection:
            let gain = try graph.addNode(GainUnit())
            error = try #require(throws: AudioUnitError.self) { try graph.connect(gain, to: gain) }
            #expect(error.message.contains("'Gain' (\(gain)) output 0 to its own input 0"))
        case .unknownNode:
            let gain = try graph.addNode(GainUnit())
            error = try #require(throws: AudioUnitError.self) { try graph.connect(GraphNode(rawValue: 99), to: gain) }
            #expect(error.message.contains("no node #99"))
        }
        #expect(!graph.isInitialized)
    }

    @Test("a graph cannot be initialized with a node the registry cannot make, and names it")
    func unknownDescription() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        let error = try #require(throws: AudioUnitError.self) { try graph.addNode(ComponentDescription(type: "aufx", subtype: "nope", manufacturer: "AUHs")) }
        #expect(error.code == .extensionNotFound)
        #expect(error.message.contains("aufx:nope:AUHs"))
    }

    @Test("life cycle: open, initialize, start, stop, uninitialize, close, reopen, dispose")
    func lifeCycle() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        let splitter = try graph.addNode(builtin("aufx", "splt"))
        let output = try graph.addNode(builtin("auou", "genr"))
        #expect(throws: AudioUnitError.self) { try graph.unit(of: splitter) }
        try graph.open()
        try graph.connect(output, to: splitter)
        try graph.connect(splitter, output: 1, to: output)
        try #require(throws: AudioUnitError.self) { try graph.start() }
        try graph.initialize()
        try graph.start()
        #expect(graph.isRunning)
        // The application's input passes through the splitter's second output back to it.
        let input = OwnedAudioBuffers(channels: 2, capacity: 64)
        for channel in 0..<2 { for frame in 0..<64 { input.buffers()[channel][frame] = testSignal(frame, channel: channel) } }
        let out = OwnedAudioBuffers(channels: 2, capacity: 64)
        #expect(graph.render(frameCount: 64, timestamp: RenderTimestamp(sampleTime: 0), input: input.buffers(), output: out.buffers()) == 0)
        #expect(Array(out.buffers()[1]) == Array(input.buffers()[1]))
        graph.stop()
        graph.uninitialize()
        #expect(graph.render(frameCount: 64, timestamp: RenderTimestamp(sampleTime: 0), output: out.buffers()) == AudioUnitErrorCode.uninitialized.rawValue)
        let oldUnit = try graph.unit(of: splitter)
        graph.close()
        #expect(oldUnit.state == .disposed)
        try graph.initialize()
        #expect(try graph.unit(of: splitter) !== oldUnit)
        #expect(graph.render(frameCount: 64, timestamp: RenderTimestamp(sampleTime: 0), input: input.buffers(), output: out.buffers()) == 0)
        #expect(Array(out.buffers()[0]) == Array(input.buffers()[0]))
        graph.dispose()
        #expect(throws: AudioUnitError.self) { try graph.addNode(builtin("aufx", "splt")) }
    }
}
