import AUCore
import AUEngine
import AUMIDI
import AUMusicPlayer
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

    @Test("channel messages other than notes land at their exact frames, in time order, whatever the block size", arguments: [1, 17, 4096])
    func channelMessagesAtTheirFrames(block: Int) throws {
        let recorder = MIDIRecorder()
        var sequence = Self.sequence(notes: [(1.25, 60, 1)])
        let messages: [(Double, MIDIChannelMessage)] = [
            (0.3, .controlChange(channel: 2, controller: 7, value: 90)), (1.25, .programChange(channel: 2, program: 33)),
            (2.001, .pitchBend(channel: 2, value: 0x2001)), (4.7, .channelPressure(channel: 2, pressure: 64)),
            (5.5, .polyPressure(channel: 2, note: 61, pressure: 10)), (6.2, .controlChange(channel: 2, controller: 64, value: 0)),
        ]
        for (beat, message) in messages { sequence.tracks[0].addMIDIChannelEvent(at: beat, message) }
        let (graph, played) = try startPlaying(sequence, into: recorder)
        defer { graph.dispose() }
        render(graph, frames: 170_000, block: block)
        let frame = { (beat: Double) in Int(played.tempoMap.sampleFrame(forBeats: beat, sampleRate: 48_000)) }
        // At 1.25 the program change was added after the note: it follows it.
        var want = messages.map { MIDIRecorder.Received(frame: frame($0.0), status: $0.1.status, note: $0.1.data1) }
        want.insert(.init(frame: frame(1.25), status: 0x90, note: 60), at: 1)
        want.insert(.init(frame: frame(2.25), status: 0x80, note: 60), at: 4)
        #expect(recorder.received == want)
    }

    @Test("a track's offset delays its events by that many beats, across the tempo changes, and a seek lands in the shifted track")
    func trackOffset() throws {
        let recorder = MIDIRecorder(), player = MusicPlayer()
        var shifted = Self.sequence()
        shifted.tracks[0].offset = 1.5
        let (graph, sequence) = try startPlaying(shifted, into: recorder, player: player)
        defer { graph.dispose() }
        render(graph, frames: 249_984, block: 64)
        let later = Self.notes.map { (beat: $0.beat + 1.5, note: $0.note, duration: $0.duration) }
        #expect(recorder.received == expected(later, map: sequence.tempoMap))
        // From beat 6.5 (the shifted note at 5 + 1.5): that note and the two after it.
        try player.setTime(6.5)
        render(graph, frames: 100_032, block: 64, from: 249_984)
        let seekFrame = Int64(249_984) - sequence.tempoMap.sampleFrame(forBeats: 6.5, sampleRate: 48_000)
        let fromSeek = expected(Array(later.suffix(3)), map: sequence.tempoMap).map { MIDIRecorder.Received(frame: $0.frame + Int(seekFrame), status: $0.status, note: $0.note) }
        #expect(Array(recorder.received.dropFirst(2 * later.count)) == fromSeek)
    }

    @Test("preroll needs a sequence; start needs a sequence and a graph")
    func preroll() throws {
        let player = MusicPlayer()
        #expect(throws: AudioUnitError.self) { try player.preroll() }
        #expect(throws: AudioUnitError.self) { try player.start() }
        player.setSequence(Self.sequence())
        try player.preroll()
        #expect(!player.isPlaying)
        #expect(throws: AudioUnitError.self) { try player.start() }
        let (graph, _) = try playerGraph([MIDIRecorder()], player: player)
        defer { graph.dispose() }
        try player.preroll()
        try player.start()
        #expect(player.isPlaying)
    }

    @Test("host time and beats convert both ways along the driver's clock, across the tempo changes, while playing")
    func hostTimeAndBeats() throws {
        let recorder = MIDIRecorder(), player = MusicPlayer()
        let (graph, sequence) = try startPlaying(Self.sequence(), into: recorder, player: player)
        defer { graph.dispose() }
        // A driver whose host time is 5 s plus the sample time, in nanoseconds.
        let base: UInt64 = 5_000_000_000
        let host = { (frame: Int) in base + UInt64((Double(frame) / 48_000 * 1e9).rounded()) }
        #expect(throws: AudioUnitError.self) { try player.hostTime(forBeats: 1) }
        render(graph, frames: 640, block: 64)
        // Without host times from the driver there is no answer.
        #expect(throws: AudioUnitError.self) { try player.hostTime(forBeats: 1) }
        let buffers = OwnedAudioBuffers(channels: 2, capacity: 64)
        for cycle in 10..<800 {
            let timestamp = RenderTimestamp(sampleTime: Double(cycle * 64), hostTime: host(cycle * 64), flags: [.sampleTimeValid, .hostTimeValid])
            #expect(graph.render(frameCount: 64, timestamp: timestamp, output: buffers.buffers(frameCount: 64)) == 0)
        }
        for beat in [0, 1, 2, 3.5, 5, 7.25] {
            let seconds = sequence.tempoMap.seconds(forBeats: beat)
            let want = base + UInt64((seconds * 1e9).rounded())
            let got = try player.hostTime(forBeats: beat)
            #expect(max(got, want) - min(got, want) <= 2, "beat \(beat): \(got) ns, expected \(want)")
            #expect(abs(try player.beats(forHostTime: want) - beat) < 1e-8, "beat \(beat)")
        }
        player.stop()
        render(graph, frames: 64, block: 64, from: 800 * 64)
        #expect(throws: AudioUnitError.self) { try player.beats(forHostTime: base) }
    }

    /// A graph of `recorder` that `player` plays into, following `syncSource`: at 120 BPM,
    /// key 48 + n at beat n for 3/4 of a beat, n = 0...15. The player is started, which
    /// changes nothing here: the outside transport or clock starts the song.
    static func followBeats(into recorder: MIDIRecorder, player: MusicPlayer, syncSource: MusicPlayerSyncSource) throws -> AudioGraph {
        let (graph, nodes) = try playerGraph([recorder], player: player)
        var sequence = MusicSequence()
        sequence.tempoTrack.addExtendedTempoEvent(at: 0, bpm: 120)
        var track = MusicTrack()
        for beat in 0..<16 { track.addMIDINoteEvent(at: Double(beat), MIDINoteMessage(channel: 0, note: UInt8(48 + beat), velocity: 100, duration: 0.75)) }
        track.destination = .node(nodes[0])
        sequence.tracks = [track]
        try player.setSyncSource(syncSource)
        player.setSequence(sequence)
        try player.start()
        return graph
    }

    @Test("following the host transport: it starts, jumps while rolling (note-offs, then the song from there), drifts under 0.25 s (the notes go on, the anchor moves) and stops")
    func followsHostTransport() throws {
        // 120 BPM: a beat is 24,000 frames.
        let rig = try FollowedTransport()
        defer { rig.graph.dispose() }
        let (player, recorder) = (rig.player, rig.recorder)
        // Cycles of 64 frames from `start`, the transport's frame advancing while it rolls.
        func cycles(_ count: Int, from start: Int, transportFrame: Int64, rolling: Bool) {
            for cycle in 0..<count { rig.cycle(at: start + cycle * 64, transportFrame: transportFrame + (rolling ? Int64(cycle * 64) : 0), rolling: rolling) }
        }
        cycles(2, from: 0, transportFrame: 0, rolling: false)
        #expect(recorder.received.isEmpty && !player.isPlaying, "played before the transport rolled")
        // It rolls from frame 0 at driver frame 128.
        cycles(563, from: 128, transportFrame: 0, rolling: true)
        #expect(player.isPlaying)
        #expect(recorder.received == [.init(frame: 128, status: 0x90, note: 48), .init(frame: 18_128, status: 0x80, note: 48), .init(frame: 24_128, status: 0x90, note: 49)])
        // Another client locates to beat 8 while it rolls: key 49 ends, key 56 starts, there.
        let jump = 128 + 563 * 64
        cycles(100, from: jump, transportFrame: 192_000, rolling: true)
        #expect(Array(recorder.received.dropFirst(3)) == [.init(frame: jump, status: 0x80, note: 49), .init(frame: jump, status: 0x90, note: 56)])
        // An xrun: the transport is 0.1 s (4,800 frames) ahead of the song. The anchor moves:
        // key 56 goes on and ends 4,800 frames early; key 57 starts 4,800 frames early.
        let drift = jump + 100 * 64
        cycles(300, from: drift, transportFrame: 192_000 + 6_400 + 4_800, rolling: true)
        #expect(Array(recorder.received.dropFirst(5)) == [.init(frame: drift + 6_800, status: 0x80, note: 56), .init(frame: drift + 12_800, status: 0x90, note: 57)])
        // It stops (where the song is): key 57 ends there, and nothing plays after.
        let stop = drift + 300 * 64
        let stopFrame: Int64 = 192_000 + 6_400 + 4_800 + 19_200
        cycles(400, from: stop, transportFrame: stopFrame, rolling: false)
        #expect(Array(recorder.received.dropFirst(7)) == [.init(frame: stop, status: 0x80, note: 57)])
        #expect(!player.isPlaying)
        #expect(abs(player.time - Double(stopFrame) / 24_000) < 1e-9)
    }

    @Test("following the host transport: a start first read a period late (an xrun right after JACK's Starting cycle) plays the note at the located frame at once, then the song on the transport's timeline")
    func followsALateStart() throws {
        // 120 BPM: a beat is 24,000 frames; key 50 is at beat 2, frame 48,000.
        let rig = try FollowedTransport()
        defer { rig.graph.dispose() }
        // Located to beat 2 and starting (JACK's Starting cycle reads as stopped there).
        rig.cycle(at: 0, transportFrame: 48_000, rolling: false)
        rig.cycle(at: 64, transportFrame: 48_000, rolling: false)
        // The cycle at 128 ran late: it reads the transport already a cycle on.
        for index in 0..<400 { rig.cycle(at: 128 + index * 64, transportFrame: 48_064 + Int64(index * 64), rolling: true) }
        #expect(rig.player.isPlaying)
        // Key 50 at once (it was due 64 frames ago), then key 51 where the transport puts beat 3.
        let recorder = rig.recorder
        #expect(Array(recorder.received.prefix(3)) == [
            .init(frame: 128, status: 0x90, note: 50), .init(frame: 128 - 64 + 18_000, status: 0x80, note: 50),
            .init(frame: 128 - 64 + 24_000, status: 0x90, note: 51),
        ], "\(recorder.received.prefix(3))")
    }

    @Test("following MIDI clock at the graph's input: Start plays from the first clock, Stop ends the sounding note, Continue after a song position plays from there, a jump while rolling ends the sounding note and plays from the new position")
    func followsMIDIClock() throws {
        let player = MusicPlayer()
        let recorder = MIDIRecorder()
        // 120 BPM: a beat is 24,000 frames, a clock 1,000.
        let graph = try Self.followBeats(into: recorder, player: player, syncSource: .midiClock)
        defer { graph.dispose() }
        // What the outside clock sends, by frame: a clock every 1,000 frames throughout.
        let clock = MIDIEvent(offset: 0, status: 0xF8, data1: 0)
        var messages: [Int: [MIDIEvent]] = [:]
        for frame in stride(from: 0, to: 52_000, by: 1000) { messages[frame] = [clock] }
        messages[0] = [MIDIEvent(offset: 0, status: 0xFA, data1: 0), clock]  // Start: beat 0 at frame 0
        messages[30_000] = [clock, MIDIEvent(offset: 0, status: 0xFC, data1: 0)]  // Stop
        // Song position: sixteenth 32 (beat 8), Continue, the first clock there.
        messages[40_000] = [MIDIEvent(offset: 0, status: 0xF2, data1: 32, data2: 0), MIDIEvent(offset: 0, status: 0xFB, data1: 0), clock]
        // While rolling, back to beat 0.
        messages[50_000] = [MIDIEvent(offset: 0, status: 0xF2, data1: 0, data2: 0), clock]
        // Cycles of 250 frames: every message at a cycle's first frame.
        let buffers = OwnedAudioBuffers(channels: 2, capacity: 250)
        for start in stride(from: 0, to: 52_000, by: 250) {
            let status = (messages[start] ?? []).withUnsafeBufferPointer { midi in
                graph.render(frameCount: 250, timestamp: RenderTimestamp(sampleTime: Double(start)), output: buffers.buffers(frameCount: 250), midi: midi)
            }
            try #require(status == 0, "render failed at \(start): \(status)")
        }
        // The recorder gets the graph's input too: only the notes are the player's.
        let notes = recorder.received.filter { $0.status < 0xF0 }
        #expect(notes == [
            .init(frame: 0, status: 0x90, note: 48), .init(frame: 18_000, status: 0x80, note: 48), .init(frame: 24_000, status: 0x90, note: 49),
            .init(frame: 30_000, status: 0x80, note: 49),
            .init(frame: 40_000, status: 0x90, note: 56),
            .init(frame: 50_000, status: 0x80, note: 56), .init(frame: 50_000, status: 0x90, note: 48),
        ])
        #expect(player.isPlaying)
    }
}

/// A graph whose player follows a host transport the test publishes before each cycle, as
/// the driver does (JACK's, queried at the top of the period): the song of
/// ``MusicPlayerTests/followBeats(into:player:syncSource:)``.
final class FollowedTransport {
    let transport = HostTransport()
    let player: MusicPlayer
    let recorder = MIDIRecorder()
    let graph: AudioGraph
    private let buffers = OwnedAudioBuffers(channels: 2, capacity: 64)

    init() throws {
        player = MusicPlayer(transport: transport)
        graph = try MusicPlayerTests.followBeats(into: recorder, player: player, syncSource: .hostTransport)
    }

    /// One cycle of 64 frames at driver frame `start`, the transport `rolling` at `transportFrame`.
    func cycle(at start: Int, transportFrame: Int64, rolling: Bool) {
        transport.state = TransportState(isRolling: rolling, frame: transportFrame)
        let status = graph.render(frameCount: 64, timestamp: RenderTimestamp(sampleTime: Double(start)), output: buffers.buffers(frameCount: 64))
        precondition(status == 0, "render failed: \(status)")
    }
}
