import AUCore
import Foundation
import Synchronization

/// Isolates nodes in unit-host children (the ``ComponentIsolator`` the preset loader
/// asks): `per-unit` starts a child for each instance, `together` puts every instance into
/// one child (a new one once it has ended). An isolated component's instances are
/// ``BridgedUnit``s, but for a unit that sends MIDI, which the bridge does not carry yet: it
/// is made in the host's process.
/// - Thread: [control]
public final class BridgeIsolator: ComponentIsolator, @unchecked Sendable {
    /// The environment variable naming the unit-host executable (default: `auhost-unit-host`
    /// beside the running executable).
    public static let executableVariable = "AUHOST_UNIT_HOST"
    /// The environment variable that sets ``timeout`` in seconds.
    public static let timeoutVariable = "AUHOST_ISOLATION_TIMEOUT"
    /// The default ``timeout``: under the offline render watchdog's 10 s, so that a hung child
    /// is killed (and its node silenced) before the watchdog would end the host.
    public static let defaultTimeout = 5.0

    public let executable: String
    /// Seconds a child may leave a request or a cycle unanswered before it is killed.
    public let timeout: Double
    /// Variables set in the children's environment over the host's (LV2_PATH…).
    public let environment: [String: String]
    private let onFault: @Sendable (IsolationFault) -> Void
    private let shared = Mutex<UnitHostProcess?>(nil)

    /// An isolator starting `executable` (nil: ``standardExecutable()``) with `environment`
    /// over the host's; `onFault` hears of every child that ends by itself or is killed
    /// (from the child's monitor thread).
    /// - Thread: [control]
    public init(
        executable: String? = nil, timeout: Double? = nil, environment: [String: String] = [:], onFault: @escaping @Sendable (IsolationFault) -> Void
    ) {
        self.executable = executable ?? Self.standardExecutable()
        self.environment = environment
        self.timeout = timeout ?? ProcessInfo.processInfo.environment[Self.timeoutVariable].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil } ?? Self.defaultTimeout
        self.onFault = onFault
    }

    /// `$AUHOST_UNIT_HOST`, else `auhost-unit-host` in the running executable's folder.
    /// - Thread: [control]
    public static func standardExecutable() -> String {
        if let named = ProcessInfo.processInfo.environment[executableVariable], !named.isEmpty { return named }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("auhost-unit-host").path
    }

    /// - Thread: [control]
    public func isolated(_ component: Component, node: String, reference: String, mode: UnitIsolation) -> Component {
        Component(
            description: component.description, name: component.name, manufacturerName: component.manufacturerName, version: component.version,
            format: component.format, identifier: component.identifier, category: component.category, requiredFeatures: component.requiredFeatures,
            brokenReason: component.brokenReason
        ) { [self] () throws(AudioUnitError) -> AudioUnit in
            let unit = try BridgedUnit.make(
                component, node: node, reference: reference, host: try host(for: mode), hostMaker: { [self] () throws(AudioUnitError) in try newHost() },
                onFault: onFault)
            // MIDI out does not cross the bridge yet: a unit that sends MIDI stays in process.
            guard unit.needsHostProcess else { return unit }
            unit.dispose()
            return try component.instantiate()
        }
    }

    private func newHost() throws(AudioUnitError) -> UnitHostProcess {
        try UnitHostProcess(executable: executable, timeout: timeout, environment: environment)
    }

    private func host(for mode: UnitIsolation) throws(AudioUnitError) -> UnitHostProcess {
        guard mode == .together else { return try newHost() }
        return try shared.withLock { shared throws(AudioUnitError) -> UnitHostProcess in
            if let running = shared, !running.hasEnded { return running }
            let made = try newHost()
            shared = made
            return made
        }
    }
}
