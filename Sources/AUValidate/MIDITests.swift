import AUCore

/// MIDI: an instrument's notes start at their frames, all-notes-off silences it, program
/// changes are taken; a MIDI processor's events come out inside the cycle, in order.
enum MIDITests {
    static let notes = ValidationTest("notes", strictness: 4, "instruments: silent before a note-on's frame, sounding after it; all-notes-off (CC 123) falls silent within the tail; program changes render finite output") { context in
        guard context.kind == .instrument else { return ValidationResult(.skip, "not an instrument") }
        let unit = try context.initializedUnit()
        let renderer = try context.renderer(unit)
        let rate = ValidationSettings.sampleRate
        let noteFrame = 300 + Int.random(in: 0..<ValidationSettings.blockSize, using: &context.random)
        let silentAfter = SignalCheck.frames(unit.tailTime.isFinite ? unit.tailTime : 2, rate) + SignalCheck.frames(0.5, rate)
        let offFrame = noteFrame + Int(rate / 2)
        let frames = offFrame + silentAfter + Int(rate / 4)
        let midi = [
            MIDIEvent(offset: Int32(noteFrame), status: 0x90, data1: 60, data2: 100), MIDIEvent(offset: Int32(noteFrame), status: 0x90, data1: 67, data2: 100),
            MIDIEvent(offset: Int32(offFrame), status: 0xB0, data1: 123, data2: 0),
        ]
        let output = try renderer.render(frameCount: frames, block: ValidationSettings.blockSize, midi: midi)
        if let bad = SignalCheck.firstBadSample(output) { throw ValidationFailure(bad) }
        let first = SignalCheck.firstFrame(above: RenderTests.silence, in: output)
        if first == nil && !unit.propertyParameters.isEmpty {
            return ValidationResult(.skip, "silent until its property parameters are set (\(unit.propertyParameters.map(\.identifier).joined(separator: ", ")))")
        }
        try require(first != nil, "no sound after two note-ons at frame \(noteFrame)")
        try require(first! >= noteFrame, "sound at frame \(first!), before the note-on at frame \(noteFrame)")
        let last = SignalCheck.lastFrame(above: TimingTests.tailThreshold, in: output) ?? 0
        try require(last < offFrame + silentAfter, "still sounding \(SignalCheck.duration(Double(last - offFrame) / rate)) after all-notes-off")
        let programs = (0..<4).map { MIDIEvent(offset: Int32($0 * 100), status: 0xC0, data1: UInt8($0), data2: 0) }
            + [MIDIEvent(offset: 450, status: 0x90, data1: 64, data2: 90)]
        let changed = try renderer.render(frameCount: Int(rate / 4), block: ValidationSettings.blockSize, midi: programs)
        if let bad = SignalCheck.firstBadSample(changed) { throw ValidationFailure("after program changes: \(bad)") }
        return ValidationResult(.pass, "a note at frame \(noteFrame) sounds from frame \(first!); silent \(SignalCheck.duration(Double(max(0, last - offFrame)) / rate)) after all-notes-off")
    }

    static let midiEvents = ValidationTest("midi-events", strictness: 4, "MIDI processors: events in give events out at frames inside their cycle, in order, and none before the event it answers") { context in
        guard context.kind == .midiProcessor || (context.kind == .instrument && (try? context.instance().producesMIDIOutput) == true) else {
            return ValidationResult(.skip, "sends no MIDI")
        }
        let unit = try context.initializedUnit()
        let renderer = try context.renderer(unit)
        let block = ValidationSettings.blockSize
        var produced = 0
        for index in 0..<64 {
            let events = index % 8 == 0
                ? [MIDIEvent(offset: Int32(index % block), status: 0x90, data1: 60, data2: 100), MIDIEvent(offset: Int32(block - 1), status: 0x80, data1: 60, data2: 0)]
                : []
            let status = events.withUnsafeBufferPointer { renderer.renderBlock(frames: block, midi: $0) }
            try require(status == 0, "render returned \(statusName(status))")
            let out = Array(unit.midiOutputFromRender)
            for event in out { try require(event.offset >= 0 && Int(event.offset) < block, "an event out at frame \(event.offset) of a \(block)-frame cycle") }
            try require(zip(out, out.dropFirst()).allSatisfy { $0.offset <= $1.offset }, "events out of order in one cycle")
            produced += out.count
        }
        // An instrument with a MIDI output need not echo notes; a MIDI processor must send something.
        try require(produced > 0 || context.kind != .midiProcessor, "8 notes in, no event out")
        // At their frames: a unit that sends nothing while idle sends nothing in answer to an
        // event before that event's frame (one that reads its input at the cycle's start
        // answers early).
        try unit.reset()
        var idle = 0
        for _ in 0..<8 {
            try require(renderer.renderBlock(frames: block) == 0, "render returned an error while idle")
            idle += unit.midiOutputFromRender.count
        }
        guard idle == 0 else { return ValidationResult(.pass, "\(produced) events out, each inside its cycle (sends \(idle) while idle: timing not checked)") }
        let frame = Int.random(in: 1..<block, using: &context.random)
        let noteOn = [MIDIEvent(offset: Int32(frame), status: 0x90, data1: 64, data2: 100)]
        let status = noteOn.withUnsafeBufferPointer { renderer.renderBlock(frames: block, midi: $0) }
        try require(status == 0, "render returned \(statusName(status))")
        let answer = Array(unit.midiOutputFromRender)
        if let early = answer.first(where: { Int($0.offset) < frame }) {
            throw ValidationFailure("an event out at frame \(early.offset), before the note-on in at frame \(frame) that it answers")
        }
        return ValidationResult(.pass, "\(produced) events out, each inside its cycle; the answer to a note-on at frame \(frame) starts at \(answer.first.map { "frame \($0.offset)" } ?? "a later cycle")")
    }
}
