import AUCore
import Foundation
import Synchronization

/// Parameters: ranges, defaults and value strings; every parameter swept while rendering;
/// seeded random automation at offsets and ramps; changes from another thread.
enum ParameterTests {
    static let ranges = ValidationTest("parameter-ranges", strictness: 4, "ranges and defaults sane, value strings name every value of an indexed range both ways, min and max accepted and rendered") { context in
        let unit = try context.initializedUnit()
        let writable = unit.parameters.infos.filter(\.isWritable)
        guard !unit.parameters.infos.isEmpty else { return ValidationResult(.skip, "no parameters") }
        for info in unit.parameters.infos {
            let what = "parameter '\(info.identifier)'"
            try require(info.minValue.isFinite && info.maxValue.isFinite && info.defaultValue.isFinite, "\(what) has a range \(info.minValue)...\(info.maxValue) or default \(info.defaultValue) that is not finite")
            try require(info.minValue <= info.maxValue, "\(what): minimum \(info.minValue) above maximum \(info.maxValue)")
            try require(info.defaultValue >= info.minValue && info.defaultValue <= info.maxValue, "\(what): default \(info.defaultValue) outside \(info.minValue)...\(info.maxValue)")
            if info.unit == .indexed || info.unit == .boolean {
                try require(info.minValue == info.minValue.rounded() && info.maxValue == info.maxValue.rounded(), "\(what) is \(info.unit.name) over \(info.minValue)...\(info.maxValue)")
            }
            if let strings = info.valueStrings {
                let values = Int(info.maxValue - info.minValue) + 1
                try require(strings.count == values, "\(what) says \(info.minValue)...\(info.maxValue) (\(values) values) but names \(strings.count): \(strings.joined(separator: ", "))")
                for (index, text) in strings.enumerated() {
                    let value = info.minValue + Float(index)
                    try require(info.valueString(for: value) == text && info.value(named: text) == value, "\(what): value string '\(text)' does not name \(value) both ways")
                }
                let listed = try unit.value(of: .parameterValueStrings, scope: info.address.scope, element: Element(info.id))
                try require(listed == strings, "\(what): ParameterValueStrings differ from its info")
            }
        }
        let renderer = try context.renderer(unit)
        for info in writable {
            for value in [info.minValue, info.maxValue, info.defaultValue] {
                try unit.setParameter(info.id, value: value, scope: info.address.scope, element: info.address.element)
                let back = try unit.parameterValue(info.id, scope: info.address.scope, element: info.address.element)
                try require(back == value, "parameter '\(info.identifier)' set to \(value) reads back \(back)")
                let frames = 2 * ValidationSettings.blockSize
                let (input, midi) = context.stimulus(frames: frames, channels: renderer.inputChannelCount)
                let output = try renderer.render(frameCount: frames, block: ValidationSettings.blockSize, input: { input[$0][$1] }, midi: midi)
                if let bad = SignalCheck.firstBadSample(output) { throw ValidationFailure("with '\(info.identifier)' at \(value): \(bad)") }
            }
            try requireRefusal("parameter '\(info.identifier)' above its maximum", [.invalidParameterValue]) {
                try unit.setParameter(info.id, value: info.maxValue + max(1, abs(info.maxValue)), scope: info.address.scope, element: info.address.element)
            }
        }
        return ValidationResult(.pass, "\(unit.parameters.count) parameters, \(writable.count) writable: ranges, defaults and value strings agree")
    }

    static let sweep = ValidationTest("parameter-sweep", strictness: 5, "every writable parameter swept from minimum to maximum between blocks while rendering: finite output") { context in
        let unit = try context.initializedUnit()
        let writable = unit.parameters.infos.filter(\.isWritable)
        guard !writable.isEmpty else { return ValidationResult(.skip, "no writable parameters") }
        let renderer = try context.renderer(unit)
        // At most about 4000 blocks however many parameters (a mixer has hundreds).
        let steps = max(3, min(6 + context.settings.strictness * 2, 4000 / writable.count))
        let block = ValidationSettings.blockSize
        let (input, midi) = context.stimulus(frames: steps * block, channels: renderer.inputChannelCount)
        for info in writable {
            let output = try renderer.render(frameCount: steps * block, block: block, input: { input[$0][$1] }, midi: midi) { start, _ in
                let step = start / block
                let value = sweepValue(info, step: step, of: steps)
                try unit.setParameter(info.id, value: value, scope: info.address.scope, element: info.address.element)
            }
            if let bad = SignalCheck.firstBadSample(output) { throw ValidationFailure("sweeping '\(info.identifier)': \(bad)") }
            try unit.setParameter(info.id, value: info.defaultValue, scope: info.address.scope, element: info.address.element)
        }
        return ValidationResult(.pass, "\(writable.count) parameters swept in \(steps) steps each")
    }

    static let automation = ValidationTest("automation", strictness: 5, "seeded random parameter events at random frames and random ramps while rendering: finite output") { context in
        let unit = try context.initializedUnit()
        let writable = unit.parameters.infos.filter(\.isWritable)
        guard !writable.isEmpty else { return ValidationResult(.skip, "no writable parameters") }
        let renderer = try context.renderer(unit)
        let block = ValidationSettings.blockSize
        let blocks = 20 * context.settings.strictness
        let (input, midi) = context.stimulus(frames: blocks * block, channels: renderer.inputChannelCount)
        var scheduled = 0
        let output = try renderer.render(frameCount: blocks * block, block: block, input: { input[$0][$1] }, midi: midi) { _, frames in
            var events: [ScheduledParameterEvent] = []
            for _ in 0..<Int.random(in: 0...3, using: &context.random) {
                let info = writable.randomElement(using: &context.random)!
                let value = randomValue(info, &context.random)
                let offset = Int.random(in: 0..<frames, using: &context.random)
                if Bool.random(using: &context.random) || info.unit == .indexed || info.unit == .boolean {
                    events.append(ScheduledParameterEvent(info.address, .immediate(offset: offset, value: value)))
                } else {
                    let duration = Int.random(in: 1...(2 * block), using: &context.random)
                    events.append(ScheduledParameterEvent(info.address, .ramped(startOffset: offset, duration: duration, startValue: nil, endValue: value)))
                }
            }
            scheduled += events.count
            try unit.scheduleParameters(events)
        }
        if let bad = SignalCheck.firstBadSample(output) { throw ValidationFailure("\(bad) (after \(scheduled) random events; seed \(context.settings.seed))") }
        return ValidationResult(.pass, "\(scheduled) events and ramps over \(blocks) blocks")
    }

    static let otherThread = ValidationTest("parameter-thread", strictness: 6, "parameters set from another thread while the unit renders: no crash, finite output") { context in
        let unit = try context.initializedUnit()
        let writable = unit.parameters.infos.filter(\.isWritable)
        guard !writable.isEmpty else { return ValidationResult(.skip, "no writable parameters") }
        let changes = (0..<2000).map { _ -> (ParameterAddress, Float) in
            let info = writable.randomElement(using: &context.random)!
            return (info.address, randomValue(info, &context.random))
        }
        let renderer = try context.renderer(unit)
        let block = ValidationSettings.blockSize
        let blocks = 100 * max(1, context.settings.strictness - 4)
        let (input, midi) = context.stimulus(frames: blocks * block, channels: renderer.inputChannelCount)
        let state = SetterState()
        let finished = DispatchSemaphore(value: 0)
        let setter = Thread {
            var index = 0
            while !state.done.load(ordering: .acquiring) {
                let (address, value) = changes[index % changes.count]
                try? unit.setParameter(address.id, value: value, scope: address.scope, element: address.element)
                index += 1
                state.made.store(index, ordering: .relaxed)
                if index % 8 == 0 { usleep(100) }
            }
            finished.signal()
        }
        setter.start()
        let output = Result { try renderer.render(frameCount: blocks * block, block: block, input: { input[$0][$1] }, midi: midi) }
        state.done.store(true, ordering: .releasing)
        finished.wait()
        if let bad = SignalCheck.firstBadSample(try output.get()) { throw ValidationFailure(bad) }
        return ValidationResult(.pass, "\(state.made.load(ordering: .relaxed)) changes from another thread over \(blocks) blocks")
    }

    /// The value of step `step` of `steps` from minimum to maximum (whole for indexed parameters).
    static func sweepValue(_ info: ParameterInfo, step: Int, of steps: Int) -> Float {
        let value = info.minValue + (info.maxValue - info.minValue) * Float(step) / Float(max(1, steps - 1))
        return info.unit == .indexed || info.unit == .boolean ? value.rounded(.down) : min(info.maxValue, value)
    }

    /// A random value in the parameter's range (whole for indexed parameters).
    static func randomValue(_ info: ParameterInfo, _ random: inout SeededRandom) -> Float {
        guard info.maxValue > info.minValue else { return info.minValue }
        let value = Float.random(in: info.minValue...info.maxValue, using: &random)
        return info.unit == .indexed || info.unit == .boolean ? value.rounded() : value
    }
}

/// What the parameter-setting thread and the rendering thread share.
private final class SetterState: Sendable {
    let done = Atomic<Bool>(false)
    let made = Atomic<Int>(0)
}
