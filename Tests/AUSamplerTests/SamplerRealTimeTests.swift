import AUCore
import AUSampler
import AUTestSupport
import Foundation
import Synchronization
import Testing

/// The render thread under the AllocCounter shim (`libAllocCounter.so`, preloaded): each
/// test runs itself again in a child process of the test binary with the shim preloaded and
/// itself alone selected, so that only its renders are counted.
@Suite("Sampler: the render thread")
struct SamplerRealTimeTests {
    /// A test of this suite as the test binary's `--filter` names it.
    static func filter(_ test: String) -> String { "AUSamplerTests.SamplerRealTimeTests/\(test)" }

    @Test("playing the GM bank (notes at offsets, program changes, controllers, pitch bend, every parameter but polyphony changed, an instrument switch) allocates, frees and locks nothing on the render thread (and retains nothing, in a release build)")
    func renderAllocatesNothing() throws {
        guard RenderThread.allocationCounts != nil else {
            try runUnderShim("renderAllocatesNothing", expecting: "sampler render: allocations=0 frees=0 locks=0")
            return
        }
        let unit = try makeSampler()
        defer { unit.dispose() }
        var renderer = OfflineUnitRenderer(unit: unit, blockSize: 256)
        // Every kind of work once before counting: FluidSynth's and Swift's first calls.
        _ = try renderer.render(frameCount: 48_000, midi: workload())
        let before = RenderThread.allocationCounts!
        for round in 0..<10 {
            for parameter in SamplerParameter.allCases where parameter != .polyphony {
                let info = parameter.info
                let value = round % 2 == 0 ? info.maxValue : info.defaultValue
                try unit.setParameter(parameter.rawValue, value: info.unit == .indexed || info.unit == .boolean ? value.rounded() : value)
            }
            if round == 5 { try unit.loadInstrument(bankMSB: SamplerInstrument.melodicBankMSB, bankLSB: 0, program: 48) }
            _ = try renderer.render(frameCount: 24_000, midi: workload())
        }
        let after = RenderThread.allocationCounts!
        #expect(after.allocations == before.allocations, "\(after.allocations - before.allocations) allocations")
        #expect(after.frees == before.frees, "\(after.frees - before.frees) frees")
        #expect(after.locks == before.locks, "\(after.locks - before.locks) locks")
        #if !DEBUG
        // Retains are a property of optimized code: the debug build makes thousands in Swift.
        #expect(after.retains == before.retains, "\(after.retains - before.retains) retains")
        #endif
        print("sampler render: allocations=\(after.allocations - before.allocations) frees=\(after.frees - before.frees) locks=\(after.locks - before.locks) retains=\(after.retains - before.retains)")
    }

    @Test("banks loaded again and again on the control thread while another thread renders continuously: every cycle renders, the render thread allocates, frees and locks nothing, and the last bank loaded is the one that plays")
    func bankSwapsWhileRendering() throws {
        guard RenderThread.allocationCounts != nil else {
            try runUnderShim("bankSwapsWhileRendering", expecting: "sampler swaps: allocations=0 frees=0 locks=0")
            return
        }
        let unit = try makeSampler()
        defer { unit.dispose() }
        try withScratchFolder { folder in
            let sine = try TestBank.write(.sf2, into: folder)
            let renderer = ContinuousRender(unit: unit)
            renderer.start()
            // Counted from the third note on: Swift's and FluidSynth's first calls are behind it.
            try #require(renderer.wait(forCycles: 130), "the render thread did not start within 10 s")
            let before = RenderThread.allocationCounts!
            // Six swaps each way while it renders; the last loads the sine bank.
            for _ in 0..<6 {
                try unit.loadSoundBank(path: generalMIDIBank)
                try unit.loadSoundBank(path: sine)
            }
            let cycles = try #require(renderer.stop(), "the render thread did not stop within 30 s")
            let after = RenderThread.allocationCounts!
            #expect(cycles.failed == 0, "\(cycles.failed) of \(cycles.done) cycles failed")
            #expect(cycles.done > 130 + 12, "only \(cycles.done - 130) cycles rendered during 12 loads")
            #expect(after.allocations == before.allocations && after.frees == before.frees && after.locks == before.locks,
                    "render thread: \(after.allocations - before.allocations) allocations, \(after.frees - before.frees) frees, \(after.locks - before.locks) locks")
            print("sampler swaps: allocations=\(after.allocations - before.allocations) frees=\(after.frees - before.frees) locks=\(after.locks - before.locks) cycles=\(cycles.done)")
            #expect(try unit.value(of: SamplerUnit.soundBankURL) == sine)
            // The sine bank plays: C4 at exactly 261.626 Hz (the GM piano's is 261.342).
            let found = sustained(try renderMono(unit, seconds: 2.5, midi: note(60))).peakFrequency(in: 240...285)
            #expect(abs(Spectrum.cents(found, from: equalTempered(60))) < 0.01, "C4 at \(found) Hz")
        }
    }

    /// Notes on eight channels (drums on 10) at offsets inside the blocks, program changes,
    /// controllers (volume, pan, sustain, bank select) and pitch bend.
    private func workload() -> [MIDIEvent] {
        var events: [MIDIEvent] = []
        for channel: UInt8 in [0, 1, 2, 3, 4, 5, 6, 9] {
            let at = Int32(channel) * 97 + 13
            events.append(MIDIEvent(offset: at, status: 0xB0 | channel, data1: 0, data2: 0))
            events.append(MIDIEvent(offset: at, status: 0xC0 | channel, data1: channel * 9))
            events.append(MIDIEvent(offset: at + 1, status: 0xB0 | channel, data1: 7, data2: 100))
            events.append(MIDIEvent(offset: at + 2, status: 0xB0 | channel, data1: 10, data2: channel * 15))
            events.append(MIDIEvent(offset: at + 3, status: 0xB0 | channel, data1: 64, data2: 127))
            for (index, key) in [48, 55, 60, 64, 67].enumerated() {
                events.append(.noteOn(UInt8(key) + channel % 3, velocity: 90, channel: channel, offset: at + 5 + Int32(index) * 301))
            }
            events.append(MIDIEvent(offset: at + 2000, status: 0xE0 | channel, data1: 0, data2: 80))
            events.append(MIDIEvent(offset: at + 9000, status: 0xB0 | channel, data1: 64, data2: 0))
            for key in [48, 55, 60, 64, 67] { events.append(.noteOff(UInt8(key) + channel % 3, channel: channel, offset: at + 12_000)) }
        }
        return events.sorted { $0.offset < $1.offset }
    }

    /// Runs `test` in the test binary again with the shim preloaded; it must pass there and print `expected`.
    private func runUnderShim(_ test: String, expecting expected: String) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = binary.deletingLastPathComponent()
        for _ in 0..<3 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("libAllocCounter.so").path) {
            folder.deleteLastPathComponent()
        }
        let shim = folder.appendingPathComponent("libAllocCounter.so")
        try #require(FileManager.default.fileExists(atPath: shim.path), "libAllocCounter.so is not built next to the tests (\(folder.path))")
        let (status, text) = try runUnderAllocCounter(binary, arguments: ["--testing-library", "swift-testing", "--filter", Self.filter(test)], shim: shim)
        #expect(status == 0, "\(text)")
        #expect(text.contains(expected), "\(text)")
    }
}

/// A thread that renders one unit in 256-frame cycles until stopped, as a driver's thread
/// would, with a note on and off on channel 1 every 64 cycles; nothing allocated in the loop.
final class ContinuousRender: @unchecked Sendable {
    private let unit: SamplerUnit
    private let output = OwnedAudioBuffers(channels: 2, capacity: 256)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let done = Atomic<Int>(0)
    private var failed = 0

    init(unit: SamplerUnit) { self.unit = unit }

    func start() {
        Thread { [self] in
            let outputs = [output.buffers(frameCount: 256)]
            let noteOn = [MIDIEvent.noteOn(60, velocity: 100, channel: 0, offset: 17)], noteOff = [MIDIEvent.noteOff(60, channel: 0, offset: 0)]
            outputs.withUnsafeBufferPointer { outputs in
                var cycle = 0
                while !stopping.load(ordering: .acquiring) {
                    let events = cycle % 64 == 0 ? noteOn : cycle % 64 == 32 ? noteOff : []
                    let status = events.withUnsafeBufferPointer { midi in
                        unit.renderCycleFromDriver(
                            timestamp: RenderTimestamp(sampleTime: Double(cycle * 256)), frameCount: 256,
                            inputs: UnsafeBufferPointer(start: nil, count: 0), outputs: outputs, midi: midi)
                    }
                    if status != 0 { failed += 1 }
                    cycle += 1
                    done.store(cycle, ordering: .releasing)
                }
            }
            finished.signal()
        }.start()
    }

    /// Waits until `cycles` cycles have rendered; false after 10 s.
    func wait(forCycles cycles: Int) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while done.load(ordering: .acquiring) < cycles && Date() < deadline { usleep(1_000) }
        return done.load(ordering: .acquiring) >= cycles
    }

    /// Stops the thread and returns the cycles it rendered and those that failed; nil when it
    /// did not stop within 30 s.
    func stop() -> (done: Int, failed: Int)? {
        stopping.store(true, ordering: .releasing)
        guard finished.wait(timeout: .now() + 30) == .success else { return nil }
        return (done.load(ordering: .acquiring), failed)
    }
}
