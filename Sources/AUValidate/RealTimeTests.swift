import AUCore

/// What the render thread may not do: allocate, free, lock, wait or make system calls,
/// counted by the AllocCounter shim over render calls alone (parameter events, ramps and
/// MIDI included).
enum RealTimeTests {
    static let allocations = ValidationTest("render-allocations", strictness: 6, "no allocation, free, lock or system call inside render calls (counted by the AllocCounter shim; retains warn)") { context in
        guard let counter = RenderThreadCounter() else {
            return ValidationResult(.skip, "the AllocCounter shim is not loaded (\(RenderThreadCounter.libraryName) is not beside auhost)")
        }
        let unit = try context.initializedUnit()
        let renderer = context.renderer(unit)
        let block = ValidationSettings.blockSize
        let writable = unit.parameters.infos.filter(\.isWritable)
        let blocks = 40 * context.settings.strictness
        let warmUp = 8
        let (input, midi) = context.stimulus(frames: block, channels: renderer.inputChannelCount)
        for index in 0..<(warmUp + blocks) {
            if index == warmUp { counter.zero() }
            renderer.fillInput(frames: block) { input[$0][$1] }
            if let info = writable.randomElement(using: &context.random), index % 2 == 0 {
                let value = ParameterTests.randomValue(info, &context.random)
                let kind: ScheduledParameterEvent.Kind = index % 4 == 0
                    ? .immediate(offset: Int.random(in: 0..<block, using: &context.random), value: value)
                    : .ramped(startOffset: 0, duration: block, startValue: nil, endValue: value)
                try unit.scheduleParameters([ScheduledParameterEvent(info.address, kind)])
            }
            let events = index % 16 == 0 ? midi : []
            var status: AudioUnitStatus = 0
            events.withUnsafeBufferPointer { pointer in counter.counting { status = renderer.renderBlock(frames: block, midi: pointer) } }
            try require(status == 0, "render returned \(statusName(status))")
        }
        let counts = counter.counts()
        let text = "\(counts.allocations) allocations and frees, \(counts.locks) locks, \(counts.syscalls) system calls, \(counts.retains + counts.releases) retains and releases in \(blocks) render calls"
        try require(counts.allocations == 0 && counts.locks == 0 && counts.syscalls == 0, text)
        return ValidationResult(counts.retains + counts.releases > 0 ? .warn : .pass, text)
    }
}
