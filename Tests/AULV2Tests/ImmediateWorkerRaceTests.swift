@testable import AULV2
import AUCore
import CLilv
import Foundation
import Synchronization
import Testing

/// How many callers are inside the fake `work()` right now, and the most there ever were.
private let fakeWorkInside = Atomic<Int>(0)
private let fakeWorkMostInside = Atomic<Int>(0)

/// A plugin's `work()` that stays inside for a moment and records overlapping callers.
private let fakeWork: @convention(c) (LV2_Handle?, LV2_Worker_Respond_Function?, LV2_Worker_Respond_Handle?, UInt32, UnsafeRawPointer?) -> LV2_Worker_Status = {
    _, respond, handle, size, data in
    let inside = fakeWorkInside.add(1, ordering: .sequentiallyConsistent).newValue
    if inside > fakeWorkMostInside.load(ordering: .relaxed) { fakeWorkMostInside.store(inside, ordering: .relaxed) }
    usleep(50)
    _ = respond?(handle, size, data)
    fakeWorkInside.subtract(1, ordering: .sequentiallyConsistent)
    return LV2_WORKER_SUCCESS
}

/// The schedule feature handed to the render thread of the test.
private struct ScheduleFeature: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<LV2_Worker_Schedule>
    func call(_ request: inout UInt32) { _ = pointer.pointee.schedule_work(pointer.pointee.handle, 4, &request) }
}

/// Set by the test's render thread when it is through.
private let renderDone = Atomic<Bool>(false)

/// In immediate mode (offline) the render thread calls `work()` itself; a control thread
/// (a state restore) calling it at the same time must not overlap it: it used to, since only
/// the control side took the lock.
@Suite(.serialized) struct ImmediateWorkerRaceTests {
    @Test func workIsNeverCalledByTheRenderAndAControlThreadAtOnce() throws {
        fakeWorkMostInside.store(0, ordering: .relaxed)
        let worker = LV2Worker(mode: .immediate)
        let interface = UnsafeMutablePointer<LV2_Worker_Interface>.allocate(capacity: 1)
        defer { interface.deallocate() }
        interface.initialize(to: LV2_Worker_Interface(work: fakeWork, work_response: { _, _, _ in LV2_WORKER_SUCCESS }, end_run: nil))
        worker.attach(handle: nil, interface: interface)
        let schedule = ScheduleFeature(pointer: worker.scheduleFeatureData)
        renderDone.store(false, ordering: .relaxed)
        let render = Thread {
            var request: UInt32 = 1
            RenderThread.run {
                for cycle in 0..<4000 {
                    schedule.call(&request)
                    if cycle % 64 == 0 { worker.deliverResponses() }
                }
            }
            renderDone.store(true, ordering: .releasing)
        }
        render.start()
        var request: UInt32 = 2
        var controlCalls = 0
        while !renderDone.load(ordering: .acquiring) && controlCalls < 100_000 {
            schedule.call(&request)
            controlCalls += 1
        }
        for _ in 0..<2000 where !renderDone.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.01) }
        let finished = renderDone.load(ordering: .acquiring)
        try #require(finished, "the render thread did not finish within 20 s")
        #expect(fakeWorkMostInside.load(ordering: .relaxed) == 1, "work() had \(fakeWorkMostInside.load(ordering: .relaxed)) callers at once")
        #expect(controlCalls > 0)
    }
}
