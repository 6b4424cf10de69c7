import AUCore
import AUEngine
import AUMIDI
import AUTestSupport
import Testing

/// A graph of `recorders` (through a mixer) into a generic output, initialized, with
/// `player` playing into it at `sampleRate`.
private func playerGraph(_ recorders: [MIDIRecorder], player: MusicPlayer, sampleRate: Double = 48_000) throws -> (AudioGraph, [GraphNode]) {
    let graph = AudioGraph(registry: ComponentRegistry(providers: [BuiltinUnits()]))
    let nodes = try recorders.map { try graph.addNode($0) }
    let output = try graph.addNode(ComponentDescription(type: "auou", subtype: "genr", manufacturer: BuiltinUnits.manufacturer))
    let mixer = try graph.addNode(ComponentDescription(type: "aumx", subtype: "mcmx", manufacturer: BuiltinUnits.manufacturer))
    for (bus, node) in nodes.enumerated() { try graph.connect(node, to: mixer, input: bus) }
    try graph.connect(mixer, to: output)
    try graph.initialize()
    try player.setAUGraph(graph, sampleRate: sampleRate)
    return (graph, nodes)
}

/// `player` playing `sequence`, its first track sent to `recorder`, in a graph of that
/// recorder, after `configure`.
private func startPlaying(_ sequence: MusicSequence, into recorder: MIDIRecorder, player: MusicPlayer = MusicPlayer(),
                          configure: (MusicPlayer) throws -> Void = { _ in }) throws -> (graph: AudioGraph, sequence: MusicSequence) {
    let (graph, nodes) = try playerGraph([recorder], player: player)
    var sequence = sequence
    sequence.tracks[0].destination = .node(nodes[0])
    player.setSequence(sequence)
    try configure(player)
    try player.start()
    return (graph, sequence)
}

/// Renders `frames` frames from `start` in cycles of `block`.
private func render(_ graph: AudioGraph, frames: Int, block: Int, from start: Int = 0) {
    let buffers = OwnedAudioBuffers(channels: 2, capacity: block)
    var done = 0
    while done < frames {
        let count = min(block, frames - done)
        let status = graph.render(frameCount: count, timestamp: RenderTimestamp(sampleTime: Double(start + done)), output: buffers.buffers(frameCount: count))
        precondition(status == 0, "render failed: \(status)")
        done += count
    }
}

/// A tempo track of 120 BPM, 90 from beat 2, 150 from beat 5.
private func changingTempo() -> MusicTrack {
    var tempo = MusicTrack()
    tempo.addExtendedTempoEvent(at: 0, bpm: 120)
    tempo.addExtendedTempoEvent(at: 2, bpm: 90)
    tempo.addExtendedTempoEvent(at: 5, bpm: 150)
    return tempo
}

/// What a recorder should get for `notes` (beat, note, duration) played from beat 0 at
/// frame 0: each note-on at its beat's frame, its note-off at its end's frame; at one frame
/// note-offs first, then in the order the notes start.
private func expected(_ notes: [(beat: Double, note: UInt8, duration: Double)], channel: UInt8 = 0, map: MusicTempoMap,
                      sampleRate: Double = 48_000, frameOf: ((Double) -> Int64)? = nil) -> [MIDIRecorder.Received] {
    let frame = frameOf ?? { map.sampleFrame(forBeats: $0, sampleRate: sampleRate) }
    var events: [(frame: Int64, isOn: Bool, order: Int, received: MIDIRecorder.Received)] = []
    for (order, note) in notes.enumerated() {
        let on = frame(note.beat), off = frame(note.beat + note.duration)
        events.append((on, true, order, MIDIRecorder.Received(frame: Int(on), status: 0x90 | channel, note: note.note)))
        events.append((off, false, order, MIDIRecorder.Received(frame: Int(off), status: 0x80 | channel, note: note.note)))
    }
    return events.sorted { ($0.frame, $0.isOn ? 1 : 0, $0.order) < ($1.frame, $1.isOn ? 1 : 0, $1.order) }.map(\.received)
}

@Suite("MusicPlayer")
struct MusicPlayerTests {
    static let notes: [(beat: Double, note: UInt8, duration: Double)] = [
        (0, 60, 0.5), (0.75, 62, 1), (1.999, 64, 0.25), (2, 65, 1.5), (3.1, 67, 2.5), (5, 69, 0.125), (5.5, 71, 0.3333), (6.25, 72, 0.5),
    ]

    static func sequence(notes: [(beat: Double, note: UInt8, duration: Double)] = notes, channel: UInt8 = 0) -> MusicSequence {
        var sequence = MusicSequence()
        sequence.tempoTrack = changingTempo()
        var track = MusicTrack()
        for note in notes { track.addMIDINoteEvent(at: note.beat, MIDINoteMessage(channel: channel, note: note.note, velocity: 100, duration: note.duration)) }
        sequence.tracks = [track]
        return sequence
    }

    @Test("each note starts and ends at its exact sample across tempo changes, whatever the block size", arguments: [1, 17, 64, 4096])
    func sampleAccurate(block: Int) throws {
        let recorder = MIDIRecorder(), other = MIDIRecorder(name: "Other")
        let player = MusicPlayer()
        let (graph, nodes) = try playerGraph([recorder, other], player: player)
        defer { graph.dispose() }
        var sequence = Self.sequence()
        sequence.tracks[0].destination = .node(nodes[0])
        var second = MusicTrack()
        second.addMIDINoteEvent(at: 1, MIDINoteMessage(channel: 3, note: 40, velocity: 90, duration: 4))
        second.destination = .node(nodes[1])
        sequence.tracks.append(second)
        player.setSequence(sequence)
        try player.start()
        render(graph, frames: 200_000, block: block)
        #expect(recorder.received == expected(Self.notes, map: sequence.tempoMap))
        #expect(other.received == expected([(1, 40, 4)], channel: 3, map: sequence.tempoMap))
        #expect(player.droppedEvents == 0)
    }

    @Test("a track's loop repeats its first beats at the exact sample, the given number of times")
    func trackLoop() throws {
        let recorder = MIDIRecorder()
        let pattern: [(beat: Double, note: UInt8, duration: Double)] = [(0, 50, 0.25), (0.5, 52, 0.25), (1.5, 53, 0.5), (2.5, 99, 0.1)]
        var looping = Self.sequence(notes: pattern)
        looping.tracks[0].loopInfo = MusicTrackLoopInfo(loopDuration: 2, numberOfLoops: 3)
        let (graph, sequence) = try startPlaying(looping, into: recorder)
        defer { graph.dispose() }
        render(graph, frames: 400_000, block: 64)
        // The note at 2.5 is past the loop: it never plays.
        let played = (0..<3).flatMap { pass in pattern.dropLast().map { (beat: $0.beat + Double(pass) * 2, note: $0.note, duration: $0.duration) } }
        #expect(recorder.received == expected(played, map: sequence.tempoMap))
    }

    @Test("the player's loop goes on from its start at the very frame of its end, across a tempo change, ending the notes sounding")
    func playerLoop() throws {
        let recorder = MIDIRecorder()
        let (graph, sequence) = try startPlaying(Self.sequence(), into: recorder) { try $0.setLoopRange(1..<3.5) }
        defer { graph.dispose() }
        let map = sequence.tempoMap
        let frame = { (beat: Double) in map.sampleFrame(forBeats: beat, sampleRate: 48_000) }
        let loopLength = frame(3.5) - frame(1)
        render(graph, frames: Int(frame(3.5) + 2 * loopLength + 10), block: 17)
        // Pass 0 plays 0..<3.5; passes 1 and 2 play 1..<3.5, shifted by the loop's length in frames.
        var want: [MIDIRecorder.Received] = []
        for pass in 0..<3 {
            let shift = Int64(pass) * loopLength
            let inLoop = Self.notes.filter { $0.beat < 3.5 && (pass == 0 || $0.beat >= 1) }
            let end = frame(3.5) + shift
            for event in expected(inLoop, map: map, frameOf: { beat in min(frame(beat) + shift, end) }) { want.append(event) }
        }
        // The third pass is cut by the end of the render: compare what was rendered.
        let rendered = Int(frame(3.5) + 2 * loopLength + 10)
        let got = recorder.received
        let wanted = want.filter { $0.frame < rendered }
        #expect(got.prefix(wanted.count).elementsEqual(wanted))
        // Notes held over the loop's end get their note-off at that frame, before the next pass starts.
        #expect(got.contains(MIDIRecorder.Received(frame: Int(frame(3.5)), status: 0x80, note: 67)))
    }

    @Test("seek and stop while playing end every sounding note at the cycle's first frame")
    func seekAndStopEndNotes() throws {
        let recorder = MIDIRecorder(), player = MusicPlayer()
        let (graph, _) = try startPlaying(Self.sequence(notes: [(0, 60, 16), (0.5, 61, 16), (4, 70, 16), (8, 80, 1)]), into: recorder, player: player)
        defer { graph.dispose() }
        render(graph, frames: 48_000, block: 64)
        try player.setTime(4)
        render(graph, frames: 64, block: 64, from: 48_000)
        let afterSeek = recorder.received
        #expect(afterSeek == [
            .init(frame: 0, status: 0x90, note: 60), .init(frame: 12_000, status: 0x90, note: 61),
            .init(frame: 48_000, status: 0x80, note: 60), .init(frame: 48_000, status: 0x80, note: 61), .init(frame: 48_000, status: 0x90, note: 70),
        ])
        render(graph, frames: 640, block: 64, from: 48_064)
        player.stop()
        render(graph, frames: 48_000, block: 64, from: 48_704)
        #expect(Array(recorder.received.dropFirst(afterSeek.count)) == [.init(frame: 48_704, status: 0x80, note: 70)])
        #expect(!player.isPlaying)
        // Stopped 640 + 64 frames after beat 4 at 90 BPM (beat 4 is past the tempo change at 2).
        #expect(abs(player.time - (4 + 704.0 / 48_000 * 90 / 60)) < 1e-9)
    }

    @Test("the play-rate scalar scales every event's time")
    func playRate() throws {
        let recorder = MIDIRecorder(), player = MusicPlayer()
        let (graph, sequence) = try startPlaying(Self.sequence(), into: recorder, player: player) { try $0.setPlayRateScalar(2) }
        defer { graph.dispose() }
        render(graph, frames: 100_000, block: 64)
        let map = sequence.tempoMap
        #expect(recorder.received == expected(Self.notes, map: map, frameOf: { MusicTempoMap.sampleFrame(forSeconds: map.seconds(forBeats: $0) / 2, sampleRate: 48_000) }))
        #expect(throws: AudioUnitError.self) { try player.setPlayRateScalar(0) }
    }

    @Test("a muted track does not play; when one is soloed only soloed tracks play; tracks without a destination go to the graph's MIDI input")
    func muteSoloAndDefaultDestination() throws {
        let (first, second) = (MIDIRecorder(name: "First"), MIDIRecorder(name: "Second"))
        let player = MusicPlayer()
        let (graph, _) = try playerGraph([first, second], player: player)
        defer { graph.dispose() }
        var sequence = Self.sequence(notes: [(0, 60, 1)])
        var other = MusicTrack()
        other.addMIDINoteEvent(at: 0.5, MIDINoteMessage(channel: 1, note: 70, velocity: 1, duration: 1))
        sequence.tracks.append(other)
        sequence.tracks[0].isMuted = true
        player.setSequence(sequence)
        try player.start()
        render(graph, frames: 96_000, block: 256)
        // The graph's MIDI input reaches every node that takes MIDI: both recorders.
        let want = expected([(0.5, 70, 1)], channel: 1, map: sequence.tempoMap)
        #expect(first.received == want && second.received == want)
        sequence.tracks[0].isMuted = false
        sequence.tracks[0].isSoloed = true
        player.setSequence(sequence)
        try player.setTime(0)
        render(graph, frames: 96_000, block: 256, from: 96_000)
        #expect(Array(first.received.dropFirst(want.count)) == expected([(0, 60, 1)], map: sequence.tempoMap).map { .init(frame: $0.frame + 96_000, status: $0.status, note: $0.note) })
    }

    @Test("units see the player's transport: rolling, the tempo in force, bar and beat in the time signature")
    func transportFollowsThePlayer() throws {
        let transport = HostTransport()
        let player = MusicPlayer(transport: transport)
        let recorder = MIDIRecorder()
        let (graph, _) = try playerGraph([recorder], player: player)
        defer { graph.dispose() }
        var sequence = Self.sequence()
        sequence.tempoTrack.addMetaEvent(at: 0, .timeSignature(MIDITimeSignature(numerator: 3, denominatorPower: 2)))
        player.setSequence(sequence)
        render(graph, frames: 64, block: 64)
        #expect(!transport.state.isRolling)
        try player.start()
        let map = sequence.tempoMap
        // Beat 4 (at 90 BPM) starts bar 1 (from 0) of 3/4, beat 1 (from 0).
        let frame = Int(map.sampleFrame(forBeats: 4, sampleRate: 48_000))
        render(graph, frames: frame, block: frame)
        render(graph, frames: 64, block: 64, from: frame)
        let state = transport.state
        #expect(state.isRolling && state.beatsPerMinute == 90 && state.bar == 1 && state.beatsPerBar == 3 && state.beatUnit == 4)
        #expect(abs(state.beatInBar - 1) < 1e-6 && abs(state.beat - 4) < 1e-6)
    }
}
