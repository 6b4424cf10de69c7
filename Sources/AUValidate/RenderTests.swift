import AUCore

/// Rendering: every sample rate and block size (more than MaximumFramesPerSlice refused),
/// the values that come out, silence, and reset.
enum RenderTests {
    /// Below -120 dBFS is silence.
    static let silence: Float = 1e-6

    static let render = ValidationTest("render", strictness: 3, "renders at every sample rate x block size (1 included); a block over MaximumFramesPerSlice is refused with TooManyFramesToProcess") { context in
        var configurations = 0
        for rate in context.settings.sampleRates {
            for block in context.settings.blockSizes {
                let unit = try context.initializedUnit(sampleRate: rate, maximumFrames: block)
                let renderer = try context.renderer(unit, capacity: block + 1)
                let frames = max(3 * block, 2048)
                let (input, midi) = context.stimulus(frames: frames, channels: renderer.inputChannelCount)
                let output: [[Float]]
                do { output = try renderer.render(frameCount: frames, block: block, input: { input[$0][$1] }, midi: midi) } catch let failure as ValidationFailure {
                    throw ValidationFailure("at \(Int(rate)) Hz in blocks of \(block): \(failure.message)")
                }
                if let bad = SignalCheck.firstBadSample(output) { throw ValidationFailure("at \(Int(rate)) Hz in blocks of \(block): \(bad)") }
                let status = renderer.renderBlock(frames: block + 1)
                try require(status == AudioUnitErrorCode.tooManyFramesToProcess.rawValue,
                            "a block of \(block + 1) frames over MaximumFramesPerSlice \(block) returned \(statusName(status)); expected TooManyFramesToProcess")
                if context.settings.strictness >= 7 {
                    // Blocks of any size up to the maximum, as a host cutting at events does.
                    let sizes = (0..<16).map { _ in Int.random(in: 1...block, using: &context.random) }
                    for size in sizes {
                        renderer.fillInput(frames: size) { _, _ in context.random.noise() }
                        let status = renderer.renderBlock(frames: size)
                        try require(status == 0, "at \(Int(rate)) Hz, a block of \(size) frames (maximum \(block)) returned \(statusName(status))")
                    }
                }
                unit.dispose()
                configurations += 1
            }
        }
        return ValidationResult(.pass, "\(configurations) sample rate and block size configurations" + (context.settings.strictness >= 7 ? ", with blocks of random sizes" : ""))
    }

    static let outputValues = ValidationTest("output-values", strictness: 3, "no NaN, infinity or denormal in 2 s of output (denormals fail from strictness 8, else warn)") { context in
        let unit = try context.initializedUnit()
        let renderer = try context.renderer(unit)
        let frames = 2 * Int(ValidationSettings.sampleRate)
        let (input, midi) = context.stimulus(frames: frames, channels: renderer.inputChannelCount)
        let output = try renderer.render(frameCount: frames, block: ValidationSettings.blockSize, input: { input[$0][$1] }, midi: midi)
        if let bad = SignalCheck.firstBadSample(output) { throw ValidationFailure(bad) }
        if let denormal = SignalCheck.firstBadSample(output, denormals: true) {
            return ValidationResult(context.settings.strictness >= ValidationSettings.bitIdenticalStrictness ? .fail : .warn, denormal)
        }
        return ValidationResult(.pass, "\(frames) frames, peak \(SignalCheck.peak(output))")
    }

    static let silenceInSilenceOut = ValidationTest("silence", strictness: 4, "silence in (no notes) gives silence out (below -120 dBFS) from a fresh instance") { context in
        guard context.kind != .generator else { return ValidationResult(.skip, "a generator makes sound from nothing") }
        let unit = try context.initializedUnit()
        let output = try context.renderer(unit).render(frameCount: Int(ValidationSettings.sampleRate), block: ValidationSettings.blockSize)
        if let frame = SignalCheck.firstFrame(above: silence, in: output) {
            throw ValidationFailure("silence in, but the output reaches \(SignalCheck.peak(output)) (first at frame \(frame))")
        }
        return ValidationResult(.pass, "1 s of silence in, silence out")
    }

    static let reset = ValidationTest("reset", strictness: 4, "after reset, the unit renders what a fresh instance renders (delay lines, envelopes, voices cleared)") { context in
        let used = try context.initializedUnit()
        let usedRenderer = try context.renderer(used)
        let busy = Int(ValidationSettings.sampleRate / 2)
        let (input, midi) = context.stimulus(frames: busy, channels: usedRenderer.inputChannelCount)
        _ = try usedRenderer.render(frameCount: busy, block: ValidationSettings.blockSize, input: { input[$0][$1] }, midi: midi)
        try used.reset()
        let fresh = try context.initializedUnit()
        let freshRenderer = try context.renderer(fresh)
        freshRenderer.sampleTime = usedRenderer.sampleTime
        let after = Int(ValidationSettings.sampleRate / 4)
        let (probe, probeMIDI) = context.stimulus(frames: after, channels: usedRenderer.inputChannelCount)
        let a = try usedRenderer.render(frameCount: after, block: ValidationSettings.blockSize, input: { probe[$0][$1] }, midi: probeMIDI)
        let b = try freshRenderer.render(frameCount: after, block: ValidationSettings.blockSize, input: { probe[$0][$1] }, midi: probeMIDI)
        let difference = SignalCheck.largestDifference(a, b)
        let exact = context.settings.strictness >= ValidationSettings.bitIdenticalStrictness
        try require(exact ? SignalCheck.identical(a, b) : difference <= 1e-5, "after reset the output differs from a fresh instance's by up to \(difference)")
        return ValidationResult(.pass, "reset renders as a fresh instance" + (exact ? ", bit for bit" : " (within 1e-5)"))
    }
}
