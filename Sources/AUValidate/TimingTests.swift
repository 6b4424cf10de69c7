import AUCore
import Foundation

/// What a unit says of time against what it does: latency (an impulse), tail (a burst
/// then silence), and render time per block against real time.
enum TimingTests {
    /// Below -80 dBFS a tail has ended.
    static let tailThreshold: Float = 1e-4

    static let latency = ValidationTest("latency", strictness: 5, "the Latency reported equals the latency measured: the first frame of the response to an impulse after 0.5 s of silence") { context in
        guard context.kind == .effect else { return ValidationResult(.skip, "no audio input to send an impulse through") }
        let unit = try context.initializedUnit()
        let rate = ValidationSettings.sampleRate
        let reported = unit.latency
        try require(reported.isFinite && reported >= 0, "Latency is \(reported) s")
        let reportedFrames = Int((reported * rate).rounded())
        // The impulse comes after half a second of silence, once parameter smoothing has settled.
        let impulse = Int(rate / 2)
        let frames = impulse + reportedFrames + Int(rate / 2)
        let output = try context.renderer(unit).render(frameCount: frames, block: ValidationSettings.blockSize, input: { _, frame in frame == impulse ? 1 : 0 })
        let response = output.map { Array($0[impulse...]) }
        let peak = SignalCheck.peak(response)
        guard peak > 1e-3, let first = SignalCheck.firstFrame(above: max(1e-3, peak * 0.05), in: response) else {
            return ValidationResult(.skip, "no response to an impulse at the default parameters (peak \(peak))")
        }
        let tolerance = context.settings.strictness >= ValidationSettings.bitIdenticalStrictness ? 0 : 1
        try require(abs(first - reportedFrames) <= tolerance, "reports \(reportedFrames) frames of latency, an impulse comes out after \(first)")
        return ValidationResult(.pass, "reported \(reportedFrames) frames, measured \(first)")
    }

    static let tail = ValidationTest("tail", strictness: 5, "after a burst, the output falls below -80 dBFS within the latency plus the TailTime reported") { context in
        guard context.kind == .effect || context.kind == .instrument else { return ValidationResult(.skip, "a \(context.kind) has no tail to measure") }
        let unit = try context.initializedUnit()
        let rate = ValidationSettings.sampleRate
        let tail = unit.tailTime
        guard tail.isFinite else { return ValidationResult(.pass, "reports an infinite tail") }
        try require(tail >= 0, "TailTime is \(tail) s")
        let renderer = try context.renderer(unit)
        let burst = SignalCheck.frames(0.1, rate)
        let (input, midi) = context.stimulus(frames: burst, channels: renderer.inputChannelCount)
        let endOfSound = burst
        let allowed = SignalCheck.frames(unit.latency + tail, rate) + max(ValidationSettings.blockSize, SignalCheck.frames(0.01, rate))
        let limit = context.settings.strictness >= 7 ? 60.0 : 20.0
        let frames = min(endOfSound + allowed + SignalCheck.frames(1, rate), SignalCheck.frames(limit, rate))
        let notesOff = midi.filter { $0.status & 0xF0 == 0x80 }.map { event -> MIDIEvent in
            var moved = event
            moved.offset = Int32(burst - 1)
            return moved
        }
        let output = try renderer.render(
            frameCount: frames, block: ValidationSettings.blockSize, input: { $1 < burst ? input[$0][$1] : 0 },
            midi: midi.filter { $0.status & 0xF0 == 0x90 } + notesOff)
        guard let last = SignalCheck.lastFrame(above: tailThreshold, in: output) else {
            return ValidationResult(.pass, "silent after the burst (reports \(tail) s)")
        }
        let measured = Double(max(0, last - endOfSound)) / rate
        try require(last < frames - 1, "still above -80 dBFS \(SignalCheck.duration(measured)) after the burst; reports a tail of \(tail) s")
        try require(last <= endOfSound + allowed, "sounds for \(SignalCheck.duration(measured)) after the burst; reports latency \(unit.latency) s and a tail of \(tail) s")
        return ValidationResult(.pass, "measured \(SignalCheck.duration(measured)), reported \(tail) s")
    }

    static let renderTime = ValidationTest("render-time", strictness: 7, "render time per block against real time at 48 kHz in blocks of 512; WARN above half of real time") { context in
        let unit = try context.initializedUnit()
        let renderer = try context.renderer(unit)
        let frames = 2 * Int(ValidationSettings.sampleRate)
        let block = ValidationSettings.blockSize
        let (input, midi) = context.stimulus(frames: frames, channels: renderer.inputChannelCount)
        _ = try renderer.render(frameCount: frames, block: block, input: { input[$0][$1] }, midi: midi)
        var nanoseconds: UInt64 = 0
        for start in stride(from: 0, to: frames - block + 1, by: block) {
            renderer.fillInput(frames: block) { input[$0][start + $1] }
            let events = UnitRenderer.events(midi, from: start, frames: block)
            let began = DispatchTime.now().uptimeNanoseconds
            let status = events.withUnsafeBufferPointer { renderer.renderBlock(frames: block, midi: $0) }
            nanoseconds += DispatchTime.now().uptimeNanoseconds - began
            try require(status == 0, "render returned \(statusName(status))")
        }
        let seconds = Double(nanoseconds) / 1e9
        let share = seconds / (Double(frames) / ValidationSettings.sampleRate)
        let text = String(format: "%.1f %% of real time (%.1f µs per block of 512)", share * 100, seconds * 1e6 / Double(frames / ValidationSettings.blockSize))
        return ValidationResult(share > 0.5 ? .warn : .pass, text)
    }
}
