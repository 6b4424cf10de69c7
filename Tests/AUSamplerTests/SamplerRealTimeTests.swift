import AUCore
import AUEngine
import AUSampler
import AUTestSupport
import Foundation
import Testing

/// The render thread under the AllocCounter shim (`libAllocCounter.so`, preloaded): the
/// test runs itself again in a child process of the test binary with the shim preloaded and
/// this test alone selected, so that only its renders are counted.
@Suite("Sampler: the render thread")
struct SamplerRealTimeTests {
    /// This test, as the test binary's `--filter` names it.
    static let filter = "AUSamplerTests.SamplerRealTimeTests/renderAllocatesNothing"

    @Test("playing the GM bank (notes at offsets, program changes, controllers, pitch bend, every parameter but polyphony changed, an instrument switch) allocates, frees and locks nothing on the render thread (and retains nothing, in a release build)")
    func renderAllocatesNothing() throws {
        guard RenderThread.allocationCounts != nil else {
            try runUnderShim()
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

    /// Runs this test in the test binary again with the shim preloaded; it must pass there.
    private func runUnderShim() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = binary.deletingLastPathComponent()
        for _ in 0..<3 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("libAllocCounter.so").path) {
            folder.deleteLastPathComponent()
        }
        let shim = folder.appendingPathComponent("libAllocCounter.so")
        try #require(FileManager.default.fileExists(atPath: shim.path), "libAllocCounter.so is not built next to the tests (\(folder.path))")
        let (status, text) = try runUnderAllocCounter(binary, arguments: ["--testing-library", "swift-testing", "--filter", Self.filter], shim: shim)
        #expect(status == 0, "\(text)")
        #expect(text.contains("sampler render: allocations=0 frees=0 locks=0"), "\(text)")
    }
}
