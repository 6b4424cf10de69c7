import CAUSupport
import Foundation
import Glibc

/// Starts a child process with `posix_spawn`, owning exactly the descriptors it is given.
///
/// Foundation's `Process` leaves its own ends open in the child: a grandchild that outlives
/// the child (a plugin that forks in its constructor) keeps `isRunning` true until it exits,
/// and any descriptor of this process not marked close-on-exec leaks into the child. A
/// spawned child has only `descriptors`, starts with default signal handling and an empty
/// signal mask, leads its own process group (so it and all it started can be killed
/// together), and does not print the Swift runtime's backtrace when it crashes (its parent
/// reports the crash).
/// - Thread: [control]
public enum ChildSpawn {
    /// What the child's descriptor is: one of this process's, or `/dev/null`.
    /// - Thread: [any]
    public enum Descriptor: Sendable {
        case parent(Int32)
        case null
    }

    /// Starts `executable` with `arguments` (after its own path) and this process's
    /// environment with `environment` over it; the child's descriptors `0...` are those in
    /// `descriptors` that are given, the standard ones not given are inherited, and every
    /// other is closed. The child's process ID, or the `posix_spawn` error number.
    /// - Thread: [control]
    public static func start(
        _ executable: String, arguments: [String], environment: [String: String] = [:], descriptors: [Int32: Descriptor]
    ) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (child, descriptor) in descriptors.sorted(by: { $0.key < $1.key }) {
            switch descriptor {
            case .parent(let parent): posix_spawn_file_actions_adddup2(&actions, parent, child)
            case .null: posix_spawn_file_actions_addopen(&actions, child, "/dev/null", O_RDWR, 0)
            }
        }
        au_spawn_close_from(&actions, max(3, (descriptors.keys.max() ?? 0) + 1))
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        variables["SWIFT_BACKTRACE"] = "enable=no"
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        return result == 0 ? .success(child) : .failure(SpawnError(number: result))
    }

    /// Why a child could not start: `posix_spawn`'s error number.
    /// - Thread: [any]
    public struct SpawnError: Error, CustomStringConvertible {
        /// The error number.
        /// - Thread: [any]
        public var number: Int32
        /// What the error number says.
        /// - Thread: [any]
        public var description: String { String(cString: strerror(number)) }
    }

    /// How a reaped child ended, from `waitpid`'s status: its exit status, or the signal
    /// that ended it.
    /// - Thread: [any]
    public enum Ending: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)

        /// - Thread: [any]
        public init(waitStatus status: Int32) {
            self = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
        }

        /// The name of a signal a plugin's crash is likely to end a child with (`SIGSEGV`),
        /// nil for another.
        /// - Thread: [any]
        public static func name(ofSignal signal: Int32) -> String? { signalNames[signal] }

        private static let signalNames: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGILL: "SIGILL", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
            SIGTRAP: "SIGTRAP", SIGSYS: "SIGSYS",
        ]
    }
}
