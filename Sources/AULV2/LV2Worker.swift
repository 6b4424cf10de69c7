import AUCore
import CLilv
import Dispatch
import Foundation
import Synchronization

/// The host side of the LV2 worker extension (`work:schedule`).
///
/// - ``Mode/threaded`` (live): `schedule_work` from `run()` copies the request into a
///   lock-free ring and wakes a worker thread, which calls the plugin's `work()`; responses
///   come back through a second ring and are delivered after the next `run()`, then
///   `end_run()`.
/// - ``Mode/immediate`` (offline rendering): `work()` runs at once inside `schedule_work`,
///   on the calling thread, so renders are deterministic; responses are delivered after
///   the same `run()`.
///
/// A request made off the render thread (during state restore, say) runs at once in both
/// modes. `work()` is never called concurrently: the worker thread and control threads
/// take turns under a lock; the render thread calls it only in immediate mode, where there
/// is no worker thread, and there it claims a flag the control threads also take (a render
/// request that finds a control thread inside `work()` fails rather than wait).
/// - Thread: [control] init, ``attach(handle:interface:)``, ``stop()`` on the control thread;
///   ``deliverResponses()`` on the render thread; the worker thread is internal.
final class LV2Worker: @unchecked Sendable {
    enum Mode: Sendable { case threaded, immediate }

    static let ringCapacity = 1 << 16
    let mode: Mode
    let scheduleFeatureData: UnsafeMutablePointer<LV2_Worker_Schedule>
    private var interface: UnsafePointer<LV2_Worker_Interface>?
    private var instanceHandle: LV2_Handle?
    /// The rings and their readers' scratch, made by ``attach(handle:interface:)`` for a
    /// plugin that has a worker interface (most have none: their instances skip 256 KiB).
    /// Unmanaged: the render thread reads them without a retain.
    private var queues: Unmanaged<Queues>?
    private let workLock = Mutex<Void>(())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    /// Immediate mode: someone is inside `work()`. The render thread cannot wait for a lock,
    /// so it claims this flag without waiting and, finding it taken (a control thread is
    /// restoring state), fails its request with `LV2_WORKER_ERR_NO_SPACE`; a control thread
    /// waits for the flag. `work()` and the response ring then never have two callers.
    private let immediateWorkBusy = Atomic<Bool>(false)
    private var thread: Thread?

    init(mode: Mode) {
        self.mode = mode
        scheduleFeatureData = .allocate(capacity: 1)
        scheduleFeatureData.initialize(to: LV2_Worker_Schedule(
            handle: Unmanaged.passUnretained(self).toOpaque(),
            schedule_work: { handle, size, data in
                guard let handle else { return LV2_WORKER_ERR_UNKNOWN }
                return Unmanaged<LV2Worker>.fromOpaque(handle)._withUnsafeGuaranteedRef { $0.schedule(size: size, data: data) }
            }))
    }

    deinit {
        stop()
        queues?.release()
        scheduleFeatureData.deallocate()
    }

    /// Connects the worker to an instance whose `extension_data` gave `interface` (nil when
    /// the plugin has none: then every request fails) and starts the thread in threaded mode.
    /// - Thread: [control]
    func attach(handle: LV2_Handle?, interface: UnsafePointer<LV2_Worker_Interface>?) {
        instanceHandle = handle
        self.interface = interface
        if interface != nil, queues == nil { queues = Unmanaged.passRetained(Queues()) }
        guard mode == .threaded, interface != nil, thread == nil else { return }
        stopping.store(false, ordering: .relaxed)
        let thread = Thread { [unowned self] in self.runWorkerThread() }
        thread.name = "auhost.lv2.worker"
        self.thread = thread
        thread.start()
    }

    /// Stops and joins the worker thread; pending requests are dropped.
    /// - Thread: [control]
    func stop() {
        guard thread != nil else { return }
        stopping.store(true, ordering: .releasing)
        wake.signal()
        finished.wait()
        thread = nil
    }

    /// `schedule_work`.
    /// - Thread: [render] (from `run()`), or control (restore).
    private func schedule(size: UInt32, data: UnsafeRawPointer?) -> LV2_Worker_Status {
        guard let interface, let work = interface.pointee.work, let queues else { return LV2_WORKER_ERR_UNKNOWN }
        if RenderThread.isCurrent {
            if mode == .threaded {
                guard queues._withUnsafeGuaranteedRef({ $0.requests.write(data, count: Int(size)) }) else { return LV2_WORKER_ERR_NO_SPACE }
                wake.signal()
                return LV2_WORKER_SUCCESS
            }
            guard immediateWorkBusy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
                return LV2_WORKER_ERR_NO_SPACE
            }
            defer { immediateWorkBusy.store(false, ordering: .releasing) }
            return work(instanceHandle, Self.respond, Unmanaged.passUnretained(self).toOpaque(), size, data)
        }
        return workLock.withLock { _ in
            guard mode == .immediate else { return work(instanceHandle, Self.respond, Unmanaged.passUnretained(self).toOpaque(), size, data) }
            while !immediateWorkBusy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { sched_yield() }
            defer { immediateWorkBusy.store(false, ordering: .releasing) }
            return work(instanceHandle, Self.respond, Unmanaged.passUnretained(self).toOpaque(), size, data)
        }
    }

    /// The `respond` function given to `work()`.
    private static let respond: LV2_Worker_Respond_Function = { handle, size, data in
        guard let handle else { return LV2_WORKER_ERR_UNKNOWN }
        let worker = Unmanaged<LV2Worker>.fromOpaque(handle)
        let written = worker._withUnsafeGuaranteedRef { worker in
            worker.queues?._withUnsafeGuaranteedRef { $0.responses.write(data, count: Int(size)) } ?? false
        }
        return written ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE
    }

    /// Delivers the waiting responses to `work_response()`, then calls `end_run()`.
    /// - Thread: [render], right after `run()`.
    func deliverResponses() {
        guard let interface, let queues else { return }
        queues._withUnsafeGuaranteedRef { queues in
            while let size = queues.responses.read(into: queues.responseScratch, capacity: LV2Worker.ringCapacity) {
                _ = interface.pointee.work_response?(instanceHandle, UInt32(size), queues.responseScratch)
            }
        }
        _ = interface.pointee.end_run?(instanceHandle)
    }

    private func runWorkerThread() {
        while true {
            wake.wait()
            if stopping.load(ordering: .acquiring) { break }
            guard let queues = queues?.takeUnretainedValue() else { continue }
            while let size = queues.requests.read(into: queues.requestScratch, capacity: LV2Worker.ringCapacity) {
                guard let work = interface?.pointee.work else { continue }
                workLock.withLock { _ in
                    _ = work(instanceHandle, Self.respond, Unmanaged.passUnretained(self).toOpaque(), UInt32(size), queues.requestScratch)
                }
            }
        }
        finished.signal()
    }

    /// A worker's two rings and the scratch their readers copy a message into.
    private final class Queues {
        let requests = ByteRing(capacity: LV2Worker.ringCapacity)
        let responses = ByteRing(capacity: LV2Worker.ringCapacity)
        let requestScratch = UnsafeMutableRawPointer.allocate(byteCount: LV2Worker.ringCapacity, alignment: 16)
        let responseScratch = UnsafeMutableRawPointer.allocate(byteCount: LV2Worker.ringCapacity, alignment: 16)

        deinit {
            requestScratch.deallocate()
            responseScratch.deallocate()
        }
    }
}
