import AUCore
import CAUSupport
import Foundation
import Glibc
import Synchronization

/// The one render thread of a unit-host child: renders every cycle the host posts for any
/// of the child's initialized units (``ServedRender``), then sleeps on the doorbell
/// (``BridgeDoorbell``), spinning instead when a request is near (``RequestAnticipation``):
/// the consecutive isolated nodes of a `together` child cost one wake-up per cycle at most,
/// not one each, and none when the cycles come at a steady period. The thread lives as long
/// as the child: a unit added or removed pauses it (the doorbell's stop), changes the list it
/// renders and resumes it, so that a batch's files, each initializing and uninitializing
/// every unit, start no thread.
/// - Thread: [control] to add, remove and schedule; its own thread renders.
final class UnitHostRenderThread: @unchecked Sendable {
    private let doorbell: BridgeDoorbell
    /// What the thread renders: written by the control thread only while the thread is
    /// paused, read by the thread when it resumes.
    private var renders: [ServedRender] = []
    /// The thread, once started, and the two signals of a pause: it says it paused, and waits
    /// to be told to resume.
    private var thread: (handle: pthread_t, paused: DispatchSemaphore, resume: DispatchSemaphore)?
    /// Whether the thread renders (resumed with units), so that a change must pause it first.
    private var isRendering = false
    /// The SCHED_FIFO priority the host asked for (nil: the default scheduling).
    private var priority: Int32?

    init(doorbell: BridgeDoorbell) { self.doorbell = doorbell }

    /// Renders `render`'s cycles from now on.
    func add(_ render: ServedRender) throws(AudioUnitError) {
        pause()
        renders.append(render)
        try resume()
    }

    /// Renders `render`'s cycles no more; a cycle it is in finishes first.
    func remove(_ render: ServedRender) {
        pause()
        renders.removeAll { $0 === render }
        try? resume()
    }

    /// Gives the thread the host's real-time priority (SCHED_FIFO), now and when it starts.
    func schedule(_ priority: Int32) throws(AudioUnitError) {
        self.priority = priority
        try applyPriority()
    }

    /// Has the thread leave its loop and wait, if it renders.
    private func pause() {
        guard isRendering, let thread else { return }
        au_bridge_doorbell_stop(doorbell.pointer, 1)
        thread.paused.wait()
        isRendering = false
    }

    /// Has the thread render the current list, starting it the first time; a thread without
    /// units stays paused.
    private func resume() throws(AudioUnitError) {
        guard !renders.isEmpty else { return }
        if thread == nil { try start() }
        au_bridge_doorbell_stop(doorbell.pointer, 0)
        isRendering = true
        thread?.resume.signal()
    }

    private func start() throws(AudioUnitError) {
        let doorbell = doorbell
        let paused = DispatchSemaphore(value: 0), resume = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var handle = pthread_self()
        let body = Thread { [self] in
            handle = pthread_self()
            // It does nothing but render: denormals stay flushed, not set and reset every cycle.
            RenderThread.flushDenormalsForThisThread()
            // It sleeps until a lead before the next cycle is due: a late wake is a wake-up the host waits for.
            _ = au_bridge_precise_timers()
            started.signal()
            while true {
                resume.wait()
                Self.loop(renders, doorbell.pointer)
                paused.signal()
            }
        }
        body.name = "auhost unit-host render"
        body.stackSize = 1 << 20
        body.start()
        started.wait()
        thread = (handle, paused, resume)
        try applyPriority()
    }

    private func applyPriority() throws(AudioUnitError) {
        guard let priority, let thread else { return }
        var parameters = sched_param(sched_priority: priority)
        let result = pthread_setschedparam(thread.handle, SCHED_FIFO, &parameters)
        guard result == 0 else {
            throw AudioUnitError(.notPermitted, "cannot run the unit host's render thread at SCHED_FIFO \(priority): \(String(cString: strerror(result)))")
        }
    }

    /// Renders what is posted, spins while ``RequestAnticipation`` says a request is near (the
    /// next node's of a cycle, or the next cycle's first), else sleeps on the doorbell until
    /// rung or until the spin before the next cycle (after one more look, which pairs with
    /// the host's post: no request is missed).
    private static func loop(_ renders: [ServedRender], _ doorbell: UnsafeMutablePointer<au_bridge_doorbell>) {
        var anticipation = RequestAnticipation(units: renders.count, now: au_bridge_now())
        while au_bridge_doorbell_stopping(doorbell) == 0 {
            let spin = au_bridge_doorbell_spin(doorbell)
            var rendered = false
            for index in renders.indices {
                guard let served = renders[index].renderPending(among: renders) else { continue }
                anticipation.served(index, posted: served.posted, now: au_bridge_now(), spin: spin, ledRun: served.ledRun)
                rendered = true
            }
            if rendered { continue }
            let now = au_bridge_now()
            if anticipation.spins(now: now, spin: spin) {
                au_cpu_relax()
                continue
            }
            let rings = au_bridge_doorbell_prepare_sleep(doorbell)
            if renders.contains(where: { $0.isPending }) {
                au_bridge_doorbell_awake(doorbell)
                continue
            }
            au_bridge_doorbell_sleep(doorbell, rings, anticipation.sleepLimit(now: now, spin: spin))
        }
    }
}

/// One initialized unit's cycles in the child: its shared memory as the unit's buffers,
/// and the last request it answered. A unit whose request names a `next` unit leads a run
/// (``BridgeRun``): the units after it render at once, each over the output of the one before.
/// - Thread: [control] to make; [render] (the child's) ``renderPending(among:)``.
final class ServedRender: @unchecked Sendable {
    let unit: AudioUnit
    let region: BridgeRegion
    /// The unit's index in the host's requests (what a `next` names, plus one).
    let index: Int
    private let inputs: UnsafeMutableBufferPointer<AudioBuffers>
    private let outputs: UnsafeMutableBufferPointer<AudioBuffers>
    private let channelTables: [UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>]
    private let writable: [Int]
    private let outputParameters: [Int]
    private var parameterWrites: UInt32 = 0
    private var last: UInt32 = 0

    init(_ unit: AudioUnit, _ region: BridgeRegion, index: Int) {
        self.unit = unit
        self.region = region
        self.index = index
        inputs = .allocate(capacity: region.inputs.count)
        outputs = .allocate(capacity: region.outputs.count)
        var tables: [UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>] = []
        for (buffers, buses) in [(inputs, region.inputs), (outputs, region.outputs)] {
            for (bus, channels) in buses.enumerated() {
                let pointers = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: channels.count)
                _ = pointers.initialize(from: channels)
                tables.append(pointers)
                (buffers.baseAddress! + bus).initialize(to: AudioBuffers(channelPointers: pointers, frameCount: region.maximumFrames))
            }
        }
        channelTables = tables
        writable = unit.parameters.infos.indices.filter { unit.parameters.infos[$0].isWritable }
        outputParameters = unit.parameters.outputSlots
    }

    deinit {
        channelTables.forEach { $0.deallocate() }
        inputs.deallocate()
        outputs.deallocate()
    }

    /// Whether the host has posted a cycle not rendered yet that this unit starts (not one
    /// it renders in a run after another unit).
    var isPending: Bool {
        let sequence = au_bridge_pending(region.header, last)
        return sequence != 0 && sequence & AU_BRIDGE_IN_RUN == 0
    }

    /// Renders the cycle the host posted, if any, over the shared memory and answers it, then
    /// the run it leads, if any (the units its requests name in `next`, each over the one
    /// before's output, among `renders`); returns when the host posted it (CLOCK_MONOTONIC
    /// ns) and whether it led a run, nil when nothing was posted.
    /// - Thread: [render] the child's.
    func renderPending(among renders: [ServedRender]) -> (posted: UInt64, ledRun: Bool)? {
        let sequence = au_bridge_pending(region.header, last)
        guard sequence != 0, sequence & AU_BRIDGE_IN_RUN == 0 else { return nil }
        let posted = region.header.pointee.requestNanos
        var current = self
        var currentSequence = sequence
        var inputs = UnsafeBufferPointer(self.inputs)
        var ledRun = false
        while true {
            let next = Int(current.region.header.pointee.next)
            current.render(currentSequence, inputs: inputs, inRun: next != 0 || currentSequence & AU_BRIDGE_IN_RUN != 0)
            guard next != 0, let follower = renders.first(where: { $0.index == next - 1 }) else { break }
            let followerSequence = au_bridge_pending(follower.region.header, follower.last)
            guard followerSequence & AU_BRIDGE_IN_RUN != 0 else { break }
            inputs = UnsafeBufferPointer(current.outputs)
            ledRun = true
            current = follower
            currentSequence = followerSequence
        }
        return (posted, ledRun)
    }

    /// Renders cycle `sequence` over `inputs` (the unit's shared input, or in a run the unit
    /// before's output) into the shared output and answers it. In a run the child silences a
    /// unit that fails or writes NaN or infinity (saying which in `nonFinite`), as the graph
    /// does between nodes in one process.
    private func render(_ sequence: UInt32, inputs: UnsafeBufferPointer<AudioBuffers>, inRun: Bool) {
        let header = region.header
        last = sequence
        au_bridge_begin_render(header, sequence)
        let started = au_bridge_now()
        let frames = min(Int(header.pointee.frames), region.maximumFrames)
        let table = unit.parameters
        if header.pointee.parameterWrites != parameterWrites {
            parameterWrites = header.pointee.parameterWrites
            for index in writable where table.value(at: index) != region.parameters[index] { table.storeValue(region.parameters[index], at: index) }
        }
        for bus in self.inputs.indices { self.inputs[bus].frameCount = frames }
        for bus in outputs.indices { outputs[bus].frameCount = frames }
        let midi = UnsafeBufferPointer(start: region.midi, count: min(Int(header.pointee.midiCount), BridgeRegion.midiCapacity))
        let status = unit.renderCycleFromDriver(
            timestamp: RenderTimestamp(sampleTime: header.pointee.sampleTime), frameCount: frames,
            inputs: inputs, outputs: UnsafeBufferPointer(outputs), midi: midi)
        header.pointee.status = status
        for index in outputParameters { region.parameters[index] = table.value(at: index) }
        if inRun {
            let nonFinite = status == 0 && unit.checkedOutputFrames.load(ordering: .relaxed) != frames && outputs.contains { $0.containsNonFinite() }
            if status != 0 || nonFinite { outputs.forEach { $0.clear() } }
            header.pointee.nonFinite = nonFinite ? 1 : 0
        }
        header.pointee.renderNanos = UInt32(clamping: au_bridge_now() - started)
        au_bridge_post_reply(header, sequence)
    }
}
