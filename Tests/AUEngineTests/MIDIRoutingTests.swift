import AUCore
import AUEngine
import AUTestSupport
import Testing

// MIDI between units: test units that send, change and record MIDI, so that where and
// when each event arrives can be predicted exactly.

/// Sends a note-on every `period` frames of sample time (note 60 + k % 12, channels 1 and 2
/// in turn): a MIDI generator, no MIDI input, no audio.
final class NoteGenerator: AudioUnit, @unchecked Sendable {
    let period: Int
    let firstNote: UInt8
    init(name: String = "Notes", period: Int, firstNote: UInt8 = 60) {
        self.period = period
        self.firstNote = firstNote
        super.init(description: ComponentDescription(type: "aumi", subtype: "ngen", manufacturer: "Test"), name: name, inputs: [], outputs: [], parameters: [])
    }
    override var producesMIDIOutput: Bool { true }
    override var acceptsMIDIInput: Bool { false }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        let start = Int(context.timestamp.sampleTime)
        var frame = (start + period - 1) / period * period
        while frame < start + context.frameCount {
            let k = frame / period
            context.sendMIDI(MIDIEvent(offset: Int32(frame - start), status: 0x90 | UInt8(k % 2), data1: firstNote + UInt8(k % 12), data2: 100))
            frame += period
        }
        return 0
    }
}

/// Moves every note by `semitones`: a MIDI processor, no audio.
final class Transposer: AudioUnit, @unchecked Sendable {
    let semitones: Int
    init(name: String = "Transpose", semitones: Int) {
        self.semitones = semitones
        super.init(description: ComponentDescription(type: "aumi", subtype: "trns", manufacturer: "Test"), name: name, inputs: [], outputs: [], parameters: [])
    }
    override var producesMIDIOutput: Bool { true }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        for var event in context.midiEvents {
            if event.status & 0xE0 == 0x80 { event.data1 = UInt8(Int(event.data1) + semitones) }
            context.sendMIDI(event)
        }
        return 0
    }
}

/// A ``Transposer`` that the graph calls in power-of-two pieces only.
final class PowerOfTwoTransposer: AudioUnit, BlockSizeConstrained, @unchecked Sendable {
    init() {
        super.init(description: ComponentDescription(type: "aumi", subtype: "trn2", manufacturer: "Test"), name: "Transpose in pieces", inputs: [], outputs: [], parameters: [])
    }
    var blockSizeRequirement: BlockSizeRequirement { .powerOfTwo }
    override var producesMIDIOutput: Bool { true }
    override func process(_ context: ProcessContext) -> AudioUnitStatus {
        guard context.frameCount & (context.frameCount - 1) == 0 else { return AudioUnitErrorCode.tooManyFramesToProcess.rawValue }
        for var event in context.midiEvents {
            event.data1 += 12
            context.sendMIDI(event)
        }
        return 0
    }
}

/// What a ``NoteGenerator`` of `period` sends in `0..<total`, through `transform`.
func expectedNotes(period: Int, total: Int, firstNote: Int = 60, transform: (MIDIRecorder.Received) -> MIDIRecorder.Received? = { $0 }) -> [MIDIRecorder.Received] {
    stride(from: 0, to: total, by: period).compactMap { frame in
        let k = frame / period
        return transform(MIDIRecorder.Received(frame: frame, status: 0x90 | UInt8(k % 2), note: UInt8(firstNote + k % 12)))
    }
}

@Suite("MIDI between units")
struct MIDIRoutingTests {
    /// A graph with an output node fed by `recorders` through a mixer (or the one recorder).
    static func graph(_ build: (AudioGraph) throws -> [GraphNode]) throws -> AudioGraph {
        let graph = AudioGraph(registry: builtinRegistry())
        let audible = try build(graph)
        let output = try graph.addNode(builtin("auou", "genr"))
        if audible.count == 1 {
            try graph.connect(audible[0], to: output)
        } else {
            let mixer = try graph.addNode(builtin("aumx", "mcmx"))
            for (bus, node) in audible.enumerated() { try graph.connect(node, to: mixer, input: bus) }
            try graph.connect(mixer, to: output)
        }
        try graph.initialize()
        return graph
    }

    @Test("a processor's MIDI reaches the instrument after it in the same cycle, at the same frame", arguments: [17, 64, 4096])
    func sameCycleSameFrame(block: Int) throws {
        let recorder = MIDIRecorder()
        let graph = try Self.graph { graph in
            // Added consumer first: only the MIDI edges put them in render order.
            let synth = try graph.addNode(recorder)
            let up = try graph.addNode(Transposer(semitones: 12))
            let notes = try graph.addNode(NoteGenerator(period: 1000))
            try graph.connectMIDI(.node(notes), to: .node(up))
            try graph.connectMIDI(.node(up), to: .node(synth))
            return [synth]
        }
        defer { graph.dispose() }
        _ = renderFrames(graph, total: 10_000, block: block)
        #expect(recorder.received == expectedNotes(period: 1000, total: 10_000, firstNote: 72))
    }

    @Test("a unit called in power-of-two pieces gets each event in its piece and sends it at the same frame", arguments: [100, 4000])
    func powerOfTwoPieces(block: Int) throws {
        let recorder = MIDIRecorder()
        let graph = try Self.graph { graph in
            let notes = try graph.addNode(NoteGenerator(period: 37))
            let up = try graph.addNode(PowerOfTwoTransposer())
            let synth = try graph.addNode(recorder)
            try graph.connectMIDI(.node(notes), to: .node(up))
            try graph.connectMIDI(.node(up), to: .node(synth))
            return [synth]
        }
        defer { graph.dispose() }
        _ = renderFrames(graph, total: 8000, block: block)
        #expect(recorder.received == expectedNotes(period: 37, total: 8000, firstNote: 72))
    }

    @Test("fan-out copies a source to every destination; fan-in merges sources in time order")
    func fanOutAndFanIn() throws {
        let (first, second, merged) = (MIDIRecorder(name: "First"), MIDIRecorder(name: "Second"), MIDIRecorder(name: "Merged"))
        let graph = try Self.graph { graph in
            let slow = try graph.addNode(NoteGenerator(name: "Slow", period: 700))
            let fast = try graph.addNode(NoteGenerator(name: "Fast", period: 300, firstNote: 30))
            let nodes = try [first, second, merged].map { try graph.addNode($0) }
            try graph.connectMIDI(.node(slow), to: .node(nodes[0]))
            try graph.connectMIDI(.node(slow), to: .node(nodes[1]))
            try graph.connectMIDI(.node(slow), to: .node(nodes[2]))
            try graph.connectMIDI(.node(fast), to: .node(nodes[2]))
            return nodes
        }
        defer { graph.dispose() }
        _ = renderFrames(graph, total: 6000, block: 256)
        let slow = expectedNotes(period: 700, total: 6000)
        #expect(first.received == slow && second.received == slow)
        // At a frame both send (2100, 4200), the connection made first comes first.
        let all = (slow + expectedNotes(period: 300, total: 6000, firstNote: 30)).enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        #expect(merged.received == all)
    }

    @Test("a connection passes only its channels and can move them to one channel (a split keyboard)")
    func channelSplit() throws {
        let (piano, bass) = (MIDIRecorder(name: "Piano"), MIDIRecorder(name: "Bass"))
        let graph = try Self.graph { graph in
            let keyboard = try graph.addNode(NoteGenerator(period: 500))
            let nodes = try [piano, bass].map { try graph.addNode($0) }
            try graph.connectMIDI(.node(keyboard), to: .node(nodes[0]), channels: MIDIChannelMap(channels: 1...1))
            try graph.connectMIDI(.node(keyboard), to: .node(nodes[1]), channels: MIDIChannelMap(channels: 2...16, target: 5))
            return nodes
        }
        defer { graph.dispose() }
        _ = renderFrames(graph, total: 5000, block: 64)
        #expect(piano.received == expectedNotes(period: 500, total: 5000) { $0.status == 0x90 ? $0 : nil })
        #expect(bass.received == expectedNotes(period: 500, total: 5000) { $0.status == 0x91 ? MIDIRecorder.Received(frame: $0.frame, status: 0x94, note: $0.note) : nil })
    }

    @Test("a cycle of MIDI connections is refused, naming its nodes")
    func cycleIsRefused() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let a = try graph.addNode(Transposer(name: "Up", semitones: 1))
        let b = try graph.addNode(Transposer(name: "Down", semitones: -1))
        let synth = try graph.addNode(MIDIRecorder())
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(synth, to: output)
        try graph.connectMIDI(.node(a), to: .node(b))
        try graph.connectMIDI(.node(b), to: .node(a))
        try graph.connectMIDI(.node(b), to: .node(synth))
        #expect(throws: AudioUnitError.self) { try graph.initialize() }
        do {
            try graph.initialize()
        } catch {
            #expect(error.message.contains("'Up' (\(a)) MIDI -> 'Down' (\(b))") && error.message.contains("'Down' (\(b)) MIDI -> 'Up' (\(a))"), "\(error.message)")
        }
        #expect(throws: AudioUnitError.self) { try graph.connectMIDI(.node(a), to: .node(a)) }
    }

    @Test("a unit that sends no MIDI cannot be a MIDI source; one that takes none cannot be a destination")
    func sourcesSendAndDestinationsTake() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let gain = try graph.addNode(GainUnit())
        let synth = try graph.addNode(MIDIRecorder())
        try graph.connectMIDI(.node(gain), to: .node(synth))
        #expect { try graph.initialize() } throws: { ($0 as? AudioUnitError)?.message.contains("sends no MIDI") == true }
        try graph.disconnectMIDI(.node(gain), from: .node(synth))
        try graph.connectMIDI(.node(synth), to: .node(gain))
        #expect { try graph.initialize() } throws: { ($0 as? AudioUnitError)?.message.contains("sends no MIDI") == true }
    }

    @Test("MIDI connections are made and broken while the graph renders, through update")
    func liveEdits() throws {
        let recorder = MIDIRecorder()
        var notes = GraphNode(rawValue: 0), synth = GraphNode(rawValue: 0)
        let graph = try Self.graph { graph in
            notes = try graph.addNode(NoteGenerator(period: 100))
            synth = try graph.addNode(recorder)
            try graph.connectMIDI(.node(notes), to: .node(synth))
            return [synth]
        }
        defer { graph.dispose() }
        _ = renderFrames(graph, total: 1000, block: 100)
        try graph.disconnectMIDI(.node(notes), from: .node(synth))
        try graph.update()
        _ = renderFrames(graph, total: 1000, block: 100, startTime: 1000)
        try graph.connectMIDI(.node(notes), to: .node(synth))
        try graph.update()
        _ = renderFrames(graph, total: 1000, block: 100, startTime: 2000)
        let expected = expectedNotes(period: 100, total: 3000).filter { $0.frame < 1000 || $0.frame >= 2000 }
        #expect(recorder.received == expected)
    }

    @Test("the graph's MIDI input goes to every node that takes MIDI and has no source, unless a connection starts there")
    func graphInputRouting() throws {
        let (first, second) = (MIDIRecorder(name: "First"), MIDIRecorder(name: "Second"))
        var nodes: [GraphNode] = []
        let graph = try Self.graph { graph in
            nodes = try [first, second].map { try graph.addNode($0) }
            return nodes
        }
        defer { graph.dispose() }
        let buffers = OwnedAudioBuffers(channels: 2, capacity: 64)
        func play(_ note: UInt8, at time: Int) {
            let events = [MIDIEvent(offset: 10, status: 0x90, data1: note, data2: 90)]
            events.withUnsafeBufferPointer { midi in
                _ = graph.render(frameCount: 64, timestamp: RenderTimestamp(sampleTime: Double(time)), output: buffers.buffers(), midi: midi)
            }
        }
        play(60, at: 0)
        #expect(first.received == [.init(frame: 10, status: 0x90, note: 60)] && second.received == first.received)
        try graph.connectMIDI(.graphInput, to: .node(nodes[1]))
        try graph.update()
        play(61, at: 64)
        #expect(first.received.count == 1 && second.received.last == .init(frame: 74, status: 0x90, note: 61))
        // From code, too: at its offset in the next cycle.
        #expect(graph.sendMIDIEvent(MIDIEvent(offset: 5, status: 0x90, data1: 62, data2: 90)))
        _ = graph.render(frameCount: 64, timestamp: RenderTimestamp(sampleTime: 128), output: buffers.buffers())
        #expect(second.received.last == .init(frame: 133, status: 0x90, note: 62))
    }

    @Test("what reaches the graph's MIDI output is there after each cycle, at its offsets; a bypassed processor passes MIDI through")
    func graphOutputAndBypass() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let notes = try graph.addNode(NoteGenerator(period: 40))
        let up = try graph.addNode(Transposer(semitones: 7))
        try graph.connectMIDI(.node(notes), to: .node(up))
        try graph.connectMIDI(.node(up), to: .graphOutput)
        try graph.initialize()
        #expect(graph.sendsMIDIOutput)
        let buffers = OwnedAudioBuffers(channels: 2, capacity: 64)
        func cycle(_ time: Int) -> [MIDIRecorder.Received] {
            _ = graph.render(frameCount: 64, timestamp: RenderTimestamp(sampleTime: Double(time)), output: buffers.buffers())
            return graph.midiOutputFromRender.map { .init(frame: time + Int($0.offset), status: $0.status, note: $0.data1) }
        }
        #expect(cycle(0) == [.init(frame: 0, status: 0x90, note: 67), .init(frame: 40, status: 0x91, note: 68)])
        try graph.setBypass(true, for: up)
        #expect(cycle(64) == [.init(frame: 80, status: 0x90, note: 62), .init(frame: 120, status: 0x91, note: 63)])
    }

    @Test("the graph's MIDI output merges its sources in time order, a tie in the order the connections were made")
    func graphOutputFanIn() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let sevens = try graph.addNode(NoteGenerator(name: "Sevens", period: 7))
        let tens = try graph.addNode(NoteGenerator(name: "Tens", period: 10, firstNote: 30))
        try graph.connectMIDI(.node(sevens), to: .graphOutput)
        try graph.connectMIDI(.node(tens), to: .graphOutput)
        try graph.initialize()
        let buffers = OwnedAudioBuffers(channels: 2, capacity: 64)
        let status = graph.render(frameCount: 64, timestamp: RenderTimestamp(sampleTime: 0), output: buffers.buffers())
        try #require(status == 0, "render returned \(status)")
        let sent = graph.midiOutputFromRender.map { MIDIRecorder.Received(frame: Int($0.offset), status: $0.status, note: $0.data1) }
        let both = (expectedNotes(period: 7, total: 64) + expectedNotes(period: 10, total: 64, firstNote: 30)).enumerated()
        #expect(sent == both.sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element))
    }
}

@Suite("MIDI between units: system messages")
struct MIDISystemMessageRoutingTests {
    /// Clock (F8), Start (FA) and Stop (FC) between notes on channels 1 and 2, at the graph's input.
    static let input: [MIDIEvent] = [
        MIDIEvent(offset: 0, status: 0xFA, data1: 0),
        MIDIEvent(offset: 1, status: 0xF8, data1: 0),
        MIDIEvent(offset: 2, status: 0x90, data1: 60, data2: 90),
        MIDIEvent(offset: 3, status: 0x91, data1: 61, data2: 90),
        MIDIEvent(offset: 4, status: 0xF8, data1: 0),
        MIDIEvent(offset: 5, status: 0xFC, data1: 0),
    ]

    /// Through a connection of channel 1 only, and one of every channel moved to channel 5,
    /// the system messages arrive unchanged; only the channel messages are filtered or moved
    /// (F8, FA and FC read as channel messages would be channels 9, 11 and 13).
    @Test("system messages (clock, start, stop) pass unchanged through channel-filtered and remapped connections")
    func systemMessagesPassUnchanged() throws {
        let (filtered, remapped) = (MIDIRecorder(name: "Channel 1"), MIDIRecorder(name: "To channel 5"))
        let graph = try MIDIRoutingTests.graph { graph in
            let nodes = try [filtered, remapped].map { try graph.addNode($0) }
            try graph.connectMIDI(.graphInput, to: .node(nodes[0]), channels: MIDIChannelMap(channels: 1...1))
            try graph.connectMIDI(.graphInput, to: .node(nodes[1]), channels: MIDIChannelMap(channels: 1...16, target: 5))
            return nodes
        }
        defer { graph.dispose() }
        let buffers = OwnedAudioBuffers(channels: 2, capacity: 64)
        let status = Self.input.withUnsafeBufferPointer { midi in
            graph.render(frameCount: 64, timestamp: RenderTimestamp(sampleTime: 0), output: buffers.buffers(), midi: midi)
        }
        try #require(status == 0, "render returned \(status)")
        let system: [MIDIRecorder.Received] = [.init(frame: 0, status: 0xFA, note: 0), .init(frame: 1, status: 0xF8, note: 0)]
        let end: [MIDIRecorder.Received] = [.init(frame: 4, status: 0xF8, note: 0), .init(frame: 5, status: 0xFC, note: 0)]
        #expect(filtered.received == system + [.init(frame: 2, status: 0x90, note: 60)] + end)
        #expect(remapped.received == system + [.init(frame: 2, status: 0x94, note: 60), .init(frame: 3, status: 0x94, note: 61)] + end)
    }
}
