import AUCore
import CAUSupport
import Foundation
import Glibc
import Synchronization

/// A unit-host child process (`auhost-unit-host`) and the units it hosts, seen from the
/// host: control requests over a socket, one at a time, each with a deadline; a monitor
/// thread that reaps the child and kills it when a cycle stays unanswered for ``timeout``
/// seconds (a control request for ``controlTimeout``), then tells each of its units what
/// happened (``BridgedUnit``).
/// - Thread: [control]
public final class UnitHostProcess: @unchecked Sendable {
    /// The child's process id (also its process group's: whatever it forks dies with it).
    public let pid: pid_t
    /// Seconds a cycle may stay unanswered before the child is killed.
    public let timeout: Double
    /// Seconds a control request may take (at least ``minimumControlTimeout``: the child's
    /// first instantiate discovers the machine's units).
    /// - Thread: [any]
    public var controlTimeout: Double { max(timeout, Self.minimumControlTimeout) }
    /// The shortest ``controlTimeout``.
    public static let minimumControlTimeout = 30.0
    /// Seconds the child's render thread spins for a request that is near before it sleeps
    /// (``RequestAnticipation``; 0: it sleeps at once).
    public let childSpin: Double
    /// The child's doorbell, which its render thread sleeps on.
    let doorbell: BridgeDoorbell
    private let socket: BridgeSocket
    /// Held for a request and its reply, one at a time; the operations of the requests sent
    /// with ``post(_:)`` whose replies are still to be read, oldest first.
    private let requests = Mutex<[BridgeRequest.Operation]>([])
    private let state = Mutex(State())

    private struct State {
        var units: [Int: Unmanaged<BridgedUnit>] = [:]
        var nextUnit = 0
        /// Units reserved and not yet attached (being made): the child must not end meanwhile.
        var making = 0
        /// The control request in flight (`instantiate`…), named in a fault.
        var operation: String?
        /// Why the child is gone, once it is.
        var ending: String?
        /// Set when the host ends the child itself (no fault).
        var closing = false
        var killedFor: String?
        /// Set once a unit of the child left a cycle unanswered: the child takes no new unit.
        var refusesUnits = false
        /// Started ahead of its units: counted in ``making`` until the first is reserved, or
        /// until this time (CLOCK_MONOTONIC ns) passes without one; nil: not held.
        var heldUntil: UInt64?
    }

    /// Starts `executable` with its socket on descriptor 3, its doorbell on 4, standard output on /dev/null
    /// (a plugin's prints never reach the host's output), in a process group of its own,
    /// with `environment` over the host's; its render thread spins `childSpin` seconds for a
    /// request before it sleeps. A child started ahead of its units lives without one for
    /// `heldFor` seconds, or until its first is made (0: it ends with its last unit only), and
    /// builds the registry of `registryKind` (``UnitHostServer/registryKind(of:)``) as it starts.
    /// - Thread: [control]
    public init(
        executable: String, timeout: Double, environment: [String: String] = [:], childSpin: Double = 0, heldFor: Double = 0,
        registryKind: String? = nil
    ) throws(AudioUnitError) {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw AudioUnitError(.failedInitialization, "cannot make a socket for a unit host: \(String(cString: strerror(errno)))")
        }
        let doorbellDescriptor = au_bridge_memfd("auhost-doorbell", BridgeDoorbell.size)
        guard doorbellDescriptor >= 0, let doorbell = BridgeDoorbell(descriptor: doorbellDescriptor) else {
            let reason = String(cString: strerror(errno))
            if doorbellDescriptor >= 0 { close(doorbellDescriptor) }
            close(ends[0])
            close(ends[1])
            throw AudioUnitError(.failedInitialization, "cannot make a unit host's doorbell: \(reason)")
        }
        defer { close(doorbellDescriptor) }
        let arguments = ["--bridge-socket", "3", "--doorbell", "4", "--host-pid", String(getpid())]
            + (registryKind.map { ["--registry", $0] } ?? [])
        // Only 0 to 4: a child that kept another of the host's descriptors (a pipe a parent
        // reads to its end, a JACK socket, an output file) would hold it open for its life.
        let started = ChildSpawn.start(
            executable, arguments: arguments, environment: environment,
            descriptors: [1: .null, 3: .parent(ends[1]), 4: .parent(doorbellDescriptor)])
        close(ends[1])
        switch started {
        case .success(let child): pid = child
        case .failure(let error):
            close(ends[0])
            throw AudioUnitError(.failedInitialization, "cannot start the unit host \(executable): \(error)")
        }
        self.timeout = timeout
        self.childSpin = childSpin
        self.doorbell = doorbell
        socket = BridgeSocket(descriptor: ends[0])
        if heldFor > 0 {
            let until = au_bridge_now() + UInt64(heldFor * 1e9)
            state.withLock { state in
                state.heldUntil = until
                state.making = 1
            }
        }
        let monitor = Thread { [self] in monitorChild() }
        monitor.name = "auhost unit-host monitor"
        monitor.start()
    }

    /// Whether the child is gone (crashed, exited, killed) or being ended.
    /// - Thread: [any]
    public var hasEnded: Bool { state.withLock { $0.ending != nil || $0.closing } }

    /// Whether the child may host another unit: it runs, and none of its units left a cycle
    /// unanswered (it may be stuck in that unit's render still).
    /// - Thread: [any]
    public var acceptsUnits: Bool {
        state.withLock { state in
            state.ending == nil && !state.closing && !state.refusesUnits
                && !state.units.values.contains { $0._withUnsafeGuaranteedRef { $0.renderStatistics.lateCycles > 0 } }
        }
    }

    /// A unit of the child left a cycle unanswered: the child takes no new unit (``acceptsUnits``).
    func refuseUnits() {
        state.withLock { $0.refusesUnits = true }
    }

    /// A number for the next unit the child makes.
    func reserveUnit() -> Int {
        state.withLock { state in
            defer { state.nextUnit += 1 }
            // A held child's first unit takes over the hold.
            if state.heldUntil != nil { state.heldUntil = nil } else { state.making += 1 }
            return state.nextUnit
        }
    }

    /// A reserved unit that could not be made: the child ends if it hosts nothing else.
    func abandonUnit() {
        let last = state.withLock { state -> Bool in
            state.making -= 1
            return state.units.isEmpty && state.making == 0
        }
        if last { end() }
    }

    /// The unit made as number `index`: told when the child ends.
    func attach(_ unit: BridgedUnit, at index: Int) {
        state.withLock { state in
            state.units[index] = Unmanaged.passUnretained(unit)
            state.making -= 1
        }
    }

    /// Forgets unit `index` (disposed, or moved to a new child); the child ends with its last unit.
    func detach(_ index: Int) {
        let last = state.withLock { state -> Bool in
            guard state.units.removeValue(forKey: index) != nil else { return false }
            return state.units.isEmpty && state.making == 0
        }
        if last { end() }
    }

    /// Sends `request` and waits for its reply, at most ``timeout`` seconds: a child that
    /// does not answer in time is killed. The error says what became of the child. The
    /// replies to earlier posts are read first, each with the same deadline.
    func send(_ request: BridgeRequest) throws(AudioUnitError) -> BridgeReply {
        try requests.withLock { posted throws(AudioUnitError) -> BridgeReply in
            while !posted.isEmpty {
                let operation = posted.removeFirst()
                _ = try exchange(nil, naming: operation)
            }
            return try exchange(request, naming: request.operation)
        }
    }

    /// Sends `request` without waiting for its reply, which the next ``send(_:)`` reads (an
    /// error in it is not reported): for what the host cannot act on if it fails
    /// (uninitialize, dispose), one wake-up of the child instead of two and a wait. Nothing
    /// once the child has ended.
    func post(_ request: BridgeRequest) {
        requests.withLock { posted in
            guard state.withLock({ $0.ending }) == nil, socket.send(request) else { return }
            posted.append(request.operation)
        }
    }

    /// Sends `request` (nil: none, only its reply is read) and reads the reply to
    /// `operation`, at most ``timeout`` seconds.
    private func exchange(_ request: BridgeRequest?, naming operation: BridgeRequest.Operation) throws(AudioUnitError) -> BridgeReply {
        if let ending = state.withLock({ $0.ending }) { throw AudioUnitError(.instanceInvalidated, ending) }
        let named = operation == .instantiate ? "in instantiate" : "in \(operation.rawValue)"
        state.withLock { $0.operation = named }
        defer { state.withLock { $0.operation = nil } }
        if let request, !socket.send(request) { throw AudioUnitError(.instanceInvalidated, waitForEnding()) }
        switch socket.receive(BridgeReply.self, timeout: controlTimeout, isGone: { [self] in hasEnded }) {
        case .message(let reply):
            if let error = reply.error, request != nil { throw AudioUnitError(.failedInitialization, error) }
            return reply
        case .closed:
            throw AudioUnitError(.instanceInvalidated, waitForEnding())
        case .timedOut:
            kill(reason: "hung \(named) (no answer in \(ProbeProcess.seconds(controlTimeout)) s; killed)")
            throw AudioUnitError(.instanceInvalidated, waitForEnding())
        case .garbled:
            kill(reason: "answered \(named) with a line that is no reply; killed")
            throw AudioUnitError(.instanceInvalidated, waitForEnding())
        }
    }

    /// Why the child ended, once the monitor has reaped it (at most a few seconds).
    private func waitForEnding() -> String {
        for _ in 0..<1000 {
            if let ending = state.withLock({ $0.ending }) { return ending }
            usleep(5000)
        }
        return "stopped answering"
    }

    /// Kills the child's process group, saying why.
    private func kill(reason: String) {
        state.withLock { if $0.killedFor == nil { $0.killedFor = reason } }
        Glibc.kill(-pid, SIGKILL)
        Glibc.kill(pid, SIGKILL)
    }

    /// Ends the child without a fault (its units are gone, none is being made): closes its
    /// socket and kills its process group (the child, idle between requests, and anything a
    /// plugin forked).
    private func end() {
        state.withLock { $0.closing = true }
        shutdown(socket.descriptor, Int32(SHUT_RDWR))
        Glibc.kill(-pid, SIGKILL)
        Glibc.kill(pid, SIGKILL)
    }

    /// Reaps the child and watches its units' cycles for one left unanswered too long.
    private func monitorChild() {
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { break }
            let now = au_bridge_now()
            let stuck = state.withLock { state in
                state.units.values.contains { unit in
                    let started = unit._withUnsafeGuaranteedRef { $0.outstandingRequestNanos }
                    return started != 0 && now > started && Double(now - started) / 1e9 > timeout
                }
            }
            if stuck { kill(reason: "hung in render (no answer in \(ProbeProcess.seconds(timeout)) s; killed)") }
            if releasesExpiredHold(at: now) { end() }
            usleep(5000)
        }
        // A fork of the child's (a plugin's) dies with it.
        Glibc.kill(-pid, SIGKILL)
        state.withLock { state in
            let rendering = state.units.values.contains { $0._withUnsafeGuaranteedRef { $0.outstandingRequestNanos } != 0 }
            let reason = state.killedFor ?? Self.describe(status: status, during: rendering ? "in render" : state.operation ?? "between cycles")
            state.ending = reason
            guard !state.closing else { return }
            for unit in state.units.values { unit._withUnsafeGuaranteedRef { $0.childEnded(reason) } }
        }
    }

    /// Lets go of a hold that no unit took by its time; true when the child then hosts nothing.
    private func releasesExpiredHold(at now: UInt64) -> Bool {
        state.withLock { state in
            guard let until = state.heldUntil, now > until else { return false }
            state.heldUntil = nil
            state.making -= 1
            return state.units.isEmpty && state.making == 0
        }
    }

    /// `crashed in render (SIGSEGV)`, `exited with status 0 in render`.
    private static func describe(status: Int32, during operation: String) -> String {
        switch ChildSpawn.Ending(waitStatus: status) {
        case .exited(let code): "exited with status \(code) \(operation)"
        case .signaled(let signal): "crashed \(operation) (\(ChildSpawn.Ending.name(ofSignal: signal) ?? "signal \(signal)"))"
        }
    }
}
