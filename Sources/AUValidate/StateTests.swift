import AUCore
import Foundation

/// ClassInfo saved and restored into a new instance, and factory presets.
enum StateTests {
    static let state = ValidationTest("state", strictness: 5, "ClassInfo saved from an instance with random parameter values and restored into a new one gives the same values and output (bit-identical from strictness 8)") { context in
        let original = try context.instance()
        try context.configure(original, sampleRate: ValidationSettings.sampleRate, maximumFrames: ValidationSettings.blockSize)
        for info in original.parameters.infos where info.isWritable {
            try original.setParameter(info.id, value: ParameterTests.randomValue(info, &context.random), scope: info.address.scope, element: info.address.element)
        }
        let saved = try original.value(of: .classInfo)
        let copy = try context.instance()
        try context.configure(copy, sampleRate: ValidationSettings.sampleRate, maximumFrames: ValidationSettings.blockSize)
        try copy.setValue(saved, for: .classInfo)
        for info in original.parameters.infos where info.isWritable {
            let (a, b) = (try original.parameterValue(info.id, scope: info.address.scope, element: info.address.element),
                          try copy.parameterValue(info.id, scope: info.address.scope, element: info.address.element))
            try require(a == b, "parameter '\(info.identifier)' is \(a) saved and \(b) restored")
        }
        let again = try copy.value(of: .classInfo)
        try copy.setValue(again, for: .classInfo)
        try original.initialize()
        try copy.initialize()
        let frames = Int(ValidationSettings.sampleRate / 2)
        let renderers = try [context.renderer(original), context.renderer(copy)]
        let (input, midi) = context.stimulus(frames: frames, channels: renderers[0].inputChannelCount)
        let outputs = try renderers.map { try $0.render(frameCount: frames, block: ValidationSettings.blockSize, input: { input[$0][$1] }, midi: midi) }
        let exact = context.settings.strictness >= ValidationSettings.bitIdenticalStrictness
        let difference = SignalCheck.largestDifference(outputs[0], outputs[1])
        try require(exact ? SignalCheck.identical(outputs[0], outputs[1]) : difference <= 1e-5, "the restored instance's output differs by up to \(difference) from the saved one's")
        return ValidationResult(.pass, "\(saved.count) bytes of ClassInfo restore the same output" + (exact ? ", bit for bit" : " (within 1e-5)"))
    }

    static let presets = ValidationTest("presets", strictness: 6, "every factory preset loads through PresentPreset, renders finite output, and changes the parameters or the output") { context in
        let unit = try context.initializedUnit()
        let presets = try unit.value(of: .factoryPresets)
        guard !presets.isEmpty else { return ValidationResult(.skip, "no factory presets") }
        let renderer = try context.renderer(unit)
        let frames = 4 * ValidationSettings.blockSize
        let (input, midi) = context.stimulus(frames: frames, channels: renderer.inputChannelCount)
        func take() throws -> (values: [Float], output: [[Float]]) {
            try unit.reset()
            renderer.sampleTime = 0
            let output = try renderer.render(frameCount: frames, block: ValidationSettings.blockSize, input: { input[$0][$1] }, midi: midi)
            return (unit.parameters.currentValues, output)
        }
        var seen = [try take()]
        var unchanged: [String] = []
        for preset in presets {
            do throws(AudioUnitError) { try unit.setValue(preset, for: .presentPreset) } catch { throw ValidationFailure("preset \(preset) does not load: \(error.message)") }
            try require(try unit.value(of: .presentPreset).number == preset.number, "PresentPreset does not read back \(preset)")
            let taken = try take()
            if let bad = SignalCheck.firstBadSample(taken.output) { throw ValidationFailure("with preset \(preset): \(bad)") }
            if seen.contains(where: { $0.values == taken.values && SignalCheck.identical($0.output, taken.output) }) { unchanged.append(preset.name) }
            seen.append(taken)
        }
        if !unchanged.isEmpty { return ValidationResult(.warn, "\(unchanged.count) of \(presets.count) presets change nothing another did not: \(unchanged.prefix(5).joined(separator: ", "))") }
        return ValidationResult(.pass, "\(presets.count) presets load and differ")
    }
}
