import AUCore
import Foundation
import Testing
@testable import AULV2

/// The worker extension does its work: the `urn:auhost:fixture:worker` fixture schedules
/// one request in its first `run()` and writes 0 until `work()` has answered it and the
/// answer (0.75) came back through `work_response()`; then it writes 0.75. Silence, or a
/// plugin that merely runs, fails these tests.
@Suite struct WorkerTests {
    /// Runs `body` with a renderer (64-frame blocks) over the initialized fixture in `mode`.
    func withWorker(_ mode: LV2RenderMode, _ body: (inout OfflineUnitRenderer) throws -> Void) throws {
        let fixtures = try FixtureBundles()
        defer { fixtures.remove() }
        let component = try FailureModeTests.component("urn:auhost:fixture:worker", in: FailureModeTests.components(fixtures))
        let unit = try #require(try component.instantiate() as? LV2Unit)
        defer { unit.dispose() }
        unit.renderMode = mode
        try unit.setValue(64, for: .maximumFramesPerSlice)
        try unit.initialize()
        var renderer = OfflineUnitRenderer(unit: unit, blockSize: 64)
        try body(&renderer)
    }

    /// Offline, `work()` runs inside `schedule_work` and its response is delivered after the
    /// same `run()`: the first block is 0, every later one 0.75, the same on every render.
    @Test func offlineTheResponseArrivesAfterTheFirstRun() throws {
        try withWorker(.offline) { renderer in
            let output = try renderer.render(frameCount: 256) { _, _, _ in 0 }[0][0]
            #expect(output[0..<64].allSatisfy { $0 == 0 })
            #expect(output[64...].allSatisfy { $0 == 0.75 }, "work() never answered: \(Set(output))")
        }
    }

    /// Live, `work()` runs on the worker thread; its response arrives after a later `run()`.
    /// The blocks are rendered until it does, for at most 10 s.
    @Test func liveTheResponseArrivesFromTheWorkerThread() throws {
        try withWorker(.live) { renderer in
            let deadline = Date().addingTimeInterval(10)
            var last: Float = 0
            while last != 0.75, Date() < deadline {
                last = try renderer.render(frameCount: 64) { _, _, _ in 0 }[0][0][63]
                if last != 0.75 { Thread.sleep(forTimeInterval: 0.001) }
            }
            #expect(last == 0.75, "work() never answered within 10 s")
        }
    }
}
