import AUCore
@testable import AUEngine
import Synchronization
import Testing

/// What render notifications saw, in plain memory written by the render thread.
final class NotifyLog: @unchecked Sendable {
    struct Entry: Equatable {
        var flags: RenderFlags
        var sampleTime: Double
        var bus: Int
        var buffer: UnsafeMutablePointer<Float>?
        var firstSample: Float
    }
    private let entries = UnsafeMutableBufferPointer<Entry>.allocate(capacity: 64)
    private let count = Atomic<Int>(0)
    deinit { entries.deallocate() }

    /// The notification that records each call.
    var callback: RenderCallback {
        RenderCallback { [self] flags, timestamp, bus, buffers in
            let index = count.load(ordering: .relaxed)
            guard index < entries.count else { return 0 }
            let first = buffers.channelCount > 0 && buffers.frameCount > 0 ? buffers[0].baseAddress : nil
            (entries.baseAddress! + index).initialize(to: Entry(
                flags: flags, sampleTime: timestamp.sampleTime, bus: bus, buffer: first, firstSample: first?.pointee ?? .nan))
            count.store(index + 1, ordering: .releasing)
            return 0
        }
    }

    var recorded: [Entry] { Array(entries[0..<count.load(ordering: .acquiring)]) }
}

@Suite("Render notifications and CPU load") struct RenderNotifyTests {
    /// AudioUnitAddRenderNotify: before and after each render, the same timestamp and
    /// buffers; after, the rendered samples. Removed, it is called no more.
    @Test func aUnitsNotificationIsCalledBeforeAndAfterEachRender() throws {
        let unit = GainUnit(gain: 0.5)
        try unit.initialize()
        defer { unit.dispose() }
        let log = NotifyLog()
        let token = try unit.addRenderNotify(log.callback)
        let input = OwnedAudioBuffers(channels: 2, capacity: 64), output = OwnedAudioBuffers(channels: 2, capacity: 64)
        input.buffers()[0].update(repeating: 0.8)
        input.buffers()[1].update(repeating: 0.8)
        output.buffers()[0].update(repeating: 7)
        let inputs = [input.buffers()], outputs = [output.buffers()]
        let status = inputs.withUnsafeBufferPointer { inputs in
            outputs.withUnsafeBufferPointer { outputs in
                unit.renderCycleFromDriver(
                    timestamp: RenderTimestamp(sampleTime: 480), frameCount: 64, inputs: inputs, outputs: outputs,
                    midi: UnsafeBufferPointer(start: nil, count: 0))
            }
        }
        #expect(status == 0)
        let buffer = output.buffers()[0].baseAddress
        #expect(log.recorded == [
            .init(flags: .preRender, sampleTime: 480, bus: 0, buffer: buffer, firstSample: 7),
            .init(flags: .postRender, sampleTime: 480, bus: 0, buffer: buffer, firstSample: 0.4),
        ])
        #expect(unit.removeRenderNotify(token))
        #expect(!unit.removeRenderNotify(token))
        let pulled = OwnedAudioBuffers(channels: 2, capacity: 64)
        var flags = RenderFlags()
        try unit.setValue(RenderCallback { _, _, _, buffers in
            for channel in 0..<buffers.channelCount { buffers[channel].update(repeating: 1) }
            return 0
        }, for: .setRenderCallback, scope: .input)
        #expect(unit.render(flags: &flags, timestamp: RenderTimestamp(sampleTime: 544), outputBus: 0, buffers: pulled.buffers()) == 0)
        #expect(log.recorded.count == 2, "a removed notification was called")
    }

    /// At most four notifications per unit.
    @Test func aFifthNotificationIsRefused() throws {
        let unit = GainUnit()
        defer { unit.dispose() }
        for _ in 0..<4 { try unit.addRenderNotify(RenderCallback { _, _, _, _ in 0 }) }
        #expect(throws: AudioUnitError.self) { try unit.addRenderNotify(RenderCallback { _, _, _, _ in 0 }) }
    }

    /// AUGraphAddRenderNotify: around each graph render, the output buffers before and after;
    /// a failed render's post-render call carries PostRenderError.
    @Test func aGraphsNotificationIsCalledAroundEachRender() throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        let source = try graph.addNode(SignalSource())
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(source, to: output)
        let log = NotifyLog()
        try graph.addRenderNotify(log.callback)
        let buffers = OwnedAudioBuffers(channels: 2, capacity: 32)
        buffers.buffers()[0].update(repeating: 7)
        #expect(graph.render(frameCount: 32, timestamp: RenderTimestamp(sampleTime: 0), output: buffers.buffers()) != 0, "not initialized")
        try graph.initialize()
        buffers.buffers()[0].update(repeating: 7)
        #expect(graph.render(frameCount: 32, timestamp: RenderTimestamp(sampleTime: 100), output: buffers.buffers()) == 0)
        let buffer = buffers.buffers()[0].baseAddress
        #expect(log.recorded == [
            .init(flags: .preRender, sampleTime: 0, bus: 0, buffer: buffer, firstSample: 7),
            .init(flags: [.postRender, .postRenderError], sampleTime: 0, bus: 0, buffer: buffer, firstSample: 0),
            .init(flags: .preRender, sampleTime: 100, bus: 0, buffer: buffer, firstSample: 7),
            .init(flags: .postRender, sampleTime: 100, bus: 0, buffer: buffer, firstSample: testSignal(100)),
        ])
    }

    /// AUGraphGetCPULoad: some share of real time after rendering, none when nothing was
    /// rendered since the previous reading.
    @Test func theCPULoadIsTheRenderTimeOverTheCyclesDuration() throws {
        let graph = try initializedSourceGraph()
        defer { graph.dispose() }
        #expect(graph.cpuLoad == 0)
        _ = renderFrames(graph, total: 48_000, block: 256)
        let load = graph.cpuLoad
        #expect(load > 0 && load.isFinite, "load \(load)")
        #expect(graph.cpuLoad == 0, "nothing rendered since the previous reading")
    }

    /// The meter times the first cycle and then one in 32, not every cycle (two clock reads
    /// a cycle cost the reference chain about 1 %).
    @Test func theCPULoadTimesOneCycleIn32() {
        let meter = CPULoadMeter()
        let timed = (0..<96).map { _ in meter.timesThisCycle() }
        #expect(timed.indices.filter { timed[$0] } == [0, 32, 64])
    }

    /// AUGraphGetMaxCPULoad: the highest one cycle's share, not the average; reset by reading;
    /// once read, every cycle is timed.
    @Test func theMaxCPULoadIsTheHighestCyclesShare() {
        let meter = CPULoadMeter()
        // Two cycles of 48 frames at 48 kHz (1 ms each): 0.1 ms and 0.5 ms of render time.
        meter.record(nanoseconds: 100_000, frames: 48)
        meter.record(nanoseconds: 500_000, frames: 48)
        #expect(abs(meter.load(sampleRate: 48_000) - 0.3) < 1e-9, "the average")
        #expect(abs(meter.maxLoad(sampleRate: 48_000) - 0.5) < 1e-6, "the highest cycle (kept to 1/1024 ns a frame)")
        #expect(meter.maxLoad(sampleRate: 48_000) == 0, "nothing timed since the previous reading")
        #expect((0..<5).allSatisfy { _ in meter.timesThisCycle() }, "every cycle once the maximum was read")
    }

    @Test func aGraphsMaxCPULoadIsAtLeastItsAverage() throws {
        let graph = try initializedSourceGraph()
        defer { graph.dispose() }
        _ = graph.maxCPULoad
        _ = renderFrames(graph, total: 48_000, block: 256)
        let (average, peak) = (graph.cpuLoad, graph.maxCPULoad)
        #expect(peak > 0 && peak.isFinite && peak >= average * 0.999, "max \(peak), average \(average)")
    }

    /// A signal source into the generic output, initialized.
    private func initializedSourceGraph() throws -> AudioGraph {
        let graph = AudioGraph(registry: builtinRegistry())
        let source = try graph.addNode(SignalSource())
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(source, to: output)
        try graph.initialize()
        return graph
    }
}
