import AUCore
import AUEngine
import Foundation
import Synchronization
import Testing

@Suite("Live edits")
struct GraphLiveEditTests {
    /// Path A (source A -> mixer input 0, panned hard left) is never edited; path B (source B
    /// -> [gain nodes inserted and removed] -> mixer input 1, panned hard right) is edited
    /// while a render thread runs. The left channel must be exactly source A, every sample.
    /// On several threads (`threads` > 1) each new plan is adopted between cycles for all
    /// of them at once.
    @Test("inserting and removing nodes while rendering never crashes and never disturbs other paths", arguments: [64, 17], [1, 3])
    func liveEdits(block: Int, threads: Int) throws {
        let graph = AudioGraph(registry: builtinRegistry())
        defer { graph.dispose() }
        graph.parallelism = RenderParallelism(threads: threads, policy: .always)
        let sourceA = try graph.addNode(SignalSource(name: "A"))
        let sourceB = try graph.addNode(SignalSource(name: "B", scale: 0.25))
        let mixer = try graph.addNode(builtin("aumx", "mcmx"))
        let output = try graph.addNode(builtin("auou", "genr"))
        try graph.connect(sourceA, to: mixer, input: 0)
        try graph.connect(sourceB, to: mixer, input: 1)
        try graph.connect(mixer, to: output)
        try graph.initialize()
        try graph.scheduleParameter(mixer, ParameterAddress(2, scope: .input, element: 0), value: -1)
        try graph.scheduleParameter(mixer, ParameterAddress(2, scope: .input, element: 1), value: 1)
        try graph.start()

        // The render thread writes into preallocated memory only.
        let capacity = 1_500_000
        let recorded = SendablePointer(UnsafeMutableBufferPointer<Float>.allocate(capacity: capacity))
        recorded.buffer.initialize(repeating: .nan)
        defer { recorded.buffer.deallocate() }
        let buffers = OwnedAudioBuffers(channels: 2, capacity: block)
        let stop = Atomic<Bool>(false)
        let framesDone = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let thread = Thread {
            var time = 0
            while !stop.load(ordering: .acquiring) && time + block <= capacity {
                let status = graph.render(frameCount: block, timestamp: RenderTimestamp(sampleTime: Double(time)), output: buffers.buffers(frameCount: block))
                if status != 0 { failures.add(1, ordering: .relaxed) }
                (recorded.buffer.baseAddress! + time).update(from: buffers.buffers(frameCount: block).channelPointers[0], count: block)
                time += block
                framesDone.store(time, ordering: .releasing)
            }
        }
        thread.start()

        var inserted: [GraphNode] = []
        for round in 0..<40 {
            if round % 2 == 0 {
                // Insert a gain between source B and the mixer (sometimes two in a row).
                try graph.disconnect(mixer, input: 1)
                var previous = inserted.last ?? sourceB
                for _ in 0..<(round % 4 == 0 ? 2 : 1) {
                    let gain = try graph.addNode(GainUnit(name: "Inserted \(round)", gain: 0.5))
                    try graph.connect(previous, to: gain)
                    previous = gain
                    inserted.append(gain)
                }
                try graph.connect(previous, to: mixer, input: 1)
            } else {
                // Remove every inserted node and reconnect source B directly.
                for node in inserted { try graph.removeNode(node) }
                inserted.removeAll()
                try graph.connect(sourceB, to: mixer, input: 1)
            }
            try graph.update()
            // Let a few cycles pass with this plan.
            let mark = framesDone.load(ordering: .acquiring)
            let deadline = Date().addingTimeInterval(30)
            while framesDone.load(ordering: .acquiring) < mark + 3 * block, Date() < deadline { usleep(100) }
            let advanced = framesDone.load(ordering: .acquiring) >= mark + 3 * block
            if !advanced { stop.store(true, ordering: .releasing) }
            try #require(advanced, "the render thread stalled at frame \(framesDone.load(ordering: .acquiring))")
            graph.dispatchPendingNotifications()
        }
        #expect(graph.waitUntilUpdated())
        stop.store(true, ordering: .releasing)
        let deadline = Date().addingTimeInterval(30)
        while !thread.isFinished, Date() < deadline { usleep(1000) }
        try #require(thread.isFinished, "the render thread did not stop")
        let total = framesDone.load(ordering: .acquiring)
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(total >= 40 * 3 * block)
        // The mixer's pan law puts a hard-left mono input... A is stereo: balance keeps channel 0 at gain 1.
        var worst: Float = 0
        var firstBad = -1
        for n in 0..<total {
            let difference = abs(recorded.buffer[n] - testSignal(n, channel: 0))
            if !(difference <= tolerance) && firstBad < 0 { firstBad = n }
            worst = max(worst, difference.isNaN ? .infinity : difference)
        }
        #expect(worst <= tolerance, "left channel differs first at frame \(firstBad)")
        #expect(graph.nodes.count == 4)
        #expect(graph.parallelDecision?.isParallel == (threads > 1))
    }
}

/// Hands preallocated memory to the render thread of a test.
struct SendablePointer: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Float>
    init(_ buffer: UnsafeMutableBufferPointer<Float>) { self.buffer = buffer }
}
