import AUCore
import CAUSupport
import Foundation
import Synchronization

/// Isolates nodes in unit-host children (the ``ComponentIsolator`` the preset loader
/// asks): `per-unit` gives each node a child of its own, `together` puts every instance into
/// one child. A node's later instances (a batch's fresh graph for each file, a preset
/// loaded again) join its child while it runs and takes units (``UnitHostProcess/acceptsUnits``):
/// the child's start-up is paid once, not per instance; a child that crashed, exited, hung or
/// left a cycle unanswered is replaced by a new one. An isolated component's instances are
/// ``BridgedUnit``s, but for a unit that sends MIDI, which the bridge does not carry yet: it
/// is made in the host's process.
/// - Thread: [control]
public final class BridgeIsolator: ComponentIsolator, @unchecked Sendable {
    /// The environment variable naming the unit-host executable (default: ``standardExecutable()``).
    public static let executableVariable = "AUHOST_UNIT_HOST"
    /// The environment variable that sets ``timeout`` in seconds.
    public static let timeoutVariable = "AUHOST_ISOLATION_TIMEOUT"
    /// The environment variable that sets ``childSpin`` in microseconds (default 50; 0: never spin).
    public static let spinVariable = "AUHOST_ISOLATION_SPIN"
    /// The default ``childSpin``: longer than the host's gap between two nodes' requests of a
    /// cycle (a few µs), far shorter than a period.
    public static let defaultChildSpin = 50e-6
    /// The default ``timeout``: under the offline render watchdog's 10 s, so that a hung child
    /// is killed (and its node silenced) before the watchdog would end the host.
    public static let defaultTimeout = 5.0

    public let executable: String
    /// Seconds a child may leave a request or a cycle unanswered before it is killed.
    public let timeout: Double
    /// Variables set in the children's environment over the host's (LV2_PATH…).
    public let environment: [String: String]
    /// Seconds a child of more than one unit spins for its next request when one is near
    /// (``UnitHostProcess/childSpin``, ``RequestAnticipation``): after a reply to a unit that
    /// another unit's request followed that quickly the last time (the next node of a
    /// `together` cycle), and for twice that before and after a steady cycle's first request
    /// is due (live, which then finds the child awake instead of waking it). 0: it never spins.
    public let childSpin: Double
    private let onFault: @Sendable (IsolationFault) -> Void
    /// The running children, per batch job (``IsolationLane``): the `together` one, and each `per-unit` node's.
    private let children = Mutex<[ChildKey: UnitHostProcess]>([:])

    private enum ChildKey: Hashable {
        case together(lane: Int)
        case node(String, lane: Int)
    }

    /// An isolator starting `executable` (nil: ``standardExecutable()``) with `environment`
    /// over the host's, its children spinning `childSpin` seconds for a request (nil:
    /// `AUHOST_ISOLATION_SPIN`, else ``defaultChildSpin``); `onFault` hears of every child that ends by itself or
    /// is killed (from the child's monitor thread).
    /// - Thread: [control]
    public init(
        executable: String? = nil, timeout: Double? = nil, environment: [String: String] = [:], childSpin: Double? = nil,
        onFault: @escaping @Sendable (IsolationFault) -> Void
    ) {
        self.executable = executable ?? Self.standardExecutable()
        self.environment = environment
        self.timeout = timeout ?? ProcessInfo.processInfo.environment[Self.timeoutVariable].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil } ?? Self.defaultTimeout
        self.onFault = onFault
        self.childSpin = childSpin ?? ProcessInfo.processInfo.environment[Self.spinVariable].flatMap(Double.init).flatMap { $0 >= 0 ? $0 / 1e6 : nil } ?? Self.defaultChildSpin
    }

    /// `$AUHOST_UNIT_HOST`; else `auhost-unit-host` beside the executable or library this code
    /// is linked into (`auhost`, or `libauhost.so` and `libAudioToolbox.so` in a program that
    /// loads them: a build folder holds them all), or in `../bin` from it (`make install`'s
    /// PREFIX/lib and PREFIX/bin); else beside the running executable, where the first
    /// isolated unit's error then says it is missing.
    /// - Thread: [control]
    public static func standardExecutable() -> String {
        if let named = ProcessInfo.processInfo.environment[executableVariable], !named.isEmpty { return named }
        let name = "auhost-unit-host"
        let function: @convention(c) () -> Void = {}  // compiled into the object this code is in
        var offset: UInt = 0
        if let object = au_strict_module(UInt(bitPattern: unsafeBitCast(function, to: UnsafeRawPointer.self)), &offset) {
            let folder = URL(fileURLWithPath: String(cString: object)).resolvingSymlinksInPath().deletingLastPathComponent()
            for candidate in [folder.appendingPathComponent(name), folder.deletingLastPathComponent().appendingPathComponent("bin/" + name)]
            where FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate.path
            }
        }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// - Thread: [control]
    public func isolated(_ component: Component, node: String, reference: String, mode: UnitIsolation) -> Component {
        component.withFactory { [self] () throws(AudioUnitError) -> AudioUnit in
            let unit = try BridgedUnit.make(
                component, node: node, reference: reference, host: try host(for: mode, node: node), hostMaker: { [self] () throws(AudioUnitError) in try newHost() },
                onFault: onFault)
            // MIDI out does not cross the bridge yet: a unit that sends MIDI stays in process.
            guard unit.needsHostProcess else { return unit }
            unit.dispose()
            return try component.instantiate()
        }
    }

    /// Starts the child `node`'s instances will join (``host(for:node:)``), held for its first
    /// unit as long as a control request may take, building at once the registry that resolves
    /// `reference`: a preset's children start together, their start-ups overlapping. A child
    /// that cannot start is left for the first instance to report.
    /// - Thread: [control]
    public func prepare(node: String, reference: String, mode: UnitIsolation) {
        _ = try? host(for: mode, node: node, preparing: reference)
    }

    private func newHost(preparing reference: String? = nil) throws(AudioUnitError) -> UnitHostProcess {
        try UnitHostProcess(
            executable: executable, timeout: timeout, environment: environment, childSpin: childSpin,
            heldFor: reference == nil ? 0 : max(timeout, UnitHostProcess.minimumControlTimeout),
            registryKind: reference.map(UnitHostServer.registryKind(of:)))
    }

    /// The child a new instance of `node` joins: the mode's running one in the calling
    /// thread's ``IsolationLane`` (a batch's job), else a new one, held for its first unit when
    /// it is started for `preparing` (``prepare(_:node:reference:mode:)``).
    private func host(for mode: UnitIsolation, node: String, preparing reference: String? = nil) throws(AudioUnitError) -> UnitHostProcess {
        let lane = IsolationLane.current
        let key = mode == .together ? ChildKey.together(lane: lane) : .node(node, lane: lane)
        return try children.withLock { children throws(AudioUnitError) -> UnitHostProcess in
            if let running = children[key], running.acceptsUnits { return running }
            let made = try newHost(preparing: reference)
            children[key] = made
            return made
        }
    }
}
