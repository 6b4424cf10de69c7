import AUCore
import Foundation

/// What the render thread may not do: allocate, free, lock, wait or make system calls,
/// counted over render calls alone (parameter events, ramps and MIDI included) by the
/// AllocCounter shim and by strict mode's seccomp filter (``StrictRenderCheck``), on a
/// thread of the test's own that does nothing but render.
enum RealTimeTests {
    static let allocations = ValidationTest("render-allocations", strictness: 6, "no allocation, free, lock or system call inside render calls (the AllocCounter shim and strict mode's seccomp filter; retains warn)") { context in
        let counter = RenderThreadCounter()
        let unit = try context.initializedUnit()
        let renderer = try context.renderer(unit)
        let block = ValidationSettings.blockSize
        let writable = unit.parameters.infos.filter(\.isWritable)
        let blocks = 40 * context.settings.strictness
        let warmUp = 8
        let (input, midi) = context.stimulus(frames: block, channels: renderer.inputChannelCount)
        // The events each block gets, drawn before the render thread starts.
        let events = (0..<(warmUp + blocks)).map { index -> ScheduledParameterEvent? in
            guard index % 2 == 0, let info = writable.randomElement(using: &context.random) else { return nil }
            let value = ParameterTests.randomValue(info, &context.random)
            return ScheduledParameterEvent(info.address, index % 4 == 0
                ? .immediate(offset: Int.random(in: 0..<block, using: &context.random), value: value)
                : .ramped(startOffset: 0, duration: block, startValue: nil, endValue: value))
        }
        let loop = WatchedLoop()
        let thread = Thread {
            loop.strictStatus = StrictRenderCheck.watchThisThread()
            for index in 0..<(warmUp + blocks) {
                if index == warmUp {
                    counter?.zero()
                    loop.trappedBefore = StrictRenderCheck.trappedCount
                }
                renderer.fillInput(frames: block) { input[$0][$1] }
                if let event = events[index] {
                    do throws(AudioUnitError) { try unit.scheduleParameters([event]) } catch { loop.failure = error.message; break }
                }
                let cycleMIDI = index % 16 == 0 ? midi : []
                var status: AudioUnitStatus = 0
                cycleMIDI.withUnsafeBufferPointer { pointer in
                    if let counter { counter.counting { status = renderer.renderBlock(frames: block, midi: pointer) } } else { status = renderer.renderBlock(frames: block, midi: pointer) }
                }
                if status != 0 { loop.failure = "render returned \(statusName(status))"; break }
            }
            loop.done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        loop.done.wait()
        if let failure = loop.failure { throw ValidationFailure(failure) }
        var parts: [String] = []
        var failed = false
        var retains: UInt64 = 0
        if let counts = counter?.counts() {
            parts.append("\(counts.allocations) allocations and frees, \(counts.locks) locks, \(counts.syscalls) system calls, \(counts.retains + counts.releases) retains and releases")
            failed = counts.allocations > 0 || counts.locks > 0 || counts.syscalls > 0
            retains = counts.retains + counts.releases
        } else {
            parts.append("not counted: the AllocCounter shim is not loaded (\(RenderThreadCounter.libraryName) is not beside auhost)")
        }
        if loop.strictStatus == 0 {
            let trapped = StrictRenderCheck.trappedCount - loop.trappedBefore
            parts.append("\(trapped) system calls trapped by strict mode" + (trapped > 0 ? ": " + (StrictRenderCheck.trappedCalls(limit: 1).first?.split(separator: "\n").first.map(String.init) ?? "") : ""))
            failed = failed || trapped > 0
        } else {
            parts.append("strict mode refused by the kernel (errno \(loop.strictStatus))")
        }
        let text = parts.joined(separator: "; ") + " in \(blocks) render calls"
        if counter == nil && loop.strictStatus != 0 { return ValidationResult(.skip, text) }
        try require(!failed, text)
        return ValidationResult(retains > 0 ? .warn : .pass, text)
    }
}

/// What the watched render thread reports back.
private final class WatchedLoop: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var strictStatus: Int32 = -1
    var trappedBefore: UInt64 = 0
    var failure: String?
}
