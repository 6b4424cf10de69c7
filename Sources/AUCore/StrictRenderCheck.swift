import CAUSupport
import Foundation
import Synchronization

/// Strict mode of the real-time check: a seccomp filter on a render thread that traps every
/// system call but an allow-list (futex wake, the clock) and records those made inside
/// render calls, with a backtrace (`au_strict.h`). alloc-check installs it with `--strict`;
/// a live run installs it on JACK's process thread when the environment says
/// `AUHOST_STRICT_RENDER=1` (a diagnostic: trapped calls are still performed, only slower).
/// - Thread: [any] unless a member says otherwise.
public enum StrictRenderCheck {
    /// Whether this process was asked to watch its dedicated render threads strictly
    /// (`AUHOST_STRICT_RENDER=1`).
    /// - Thread: [any]
    public static let isRequested = ProcessInfo.processInfo.environment["AUHOST_STRICT_RENDER"] == "1"

    private static let installStatus = Atomic<Int32>(-1)

    /// Installs the filter on the calling thread and records what its render calls trap
    /// from now on. Returns 0, or the errno of the kernel's refusal (also kept in
    /// ``installError``).
    /// - Thread: [render] a thread that does nothing but render, before its first cycle.
    @discardableResult
    public static func watchThisThread() -> Int32 {
        let status = au_render_thread_watch_strictly()
        installStatus.store(status, ordering: .releasing)
        return status
    }

    /// True once a thread of this process is watched.
    /// - Thread: [any]
    public static var isWatching: Bool { installStatus.load(ordering: .acquiring) == 0 }

    /// The errno of a refused installation; nil when none was refused.
    /// - Thread: [any]
    public static var installError: Int32? {
        let status = installStatus.load(ordering: .acquiring)
        return status > 0 ? status : nil
    }

    /// How many system calls were trapped inside render calls so far.
    /// - Thread: [any]
    public static var trappedCount: UInt64 { au_strict_trap_count() }

    /// The first `limit` trapped calls, one text each: number, name where known, the code
    /// that made the call and its backtrace (symbol or file and offset from `dladdr`; Swift
    /// names are mangled, `swift demangle` reads them).
    /// - Thread: [control]
    public static func trappedCalls(limit: Int = 32) -> [String] {
        var traps = [au_strict_trap](repeating: au_strict_trap(), count: limit)
        let copied = Int(au_strict_read_traps(&traps, Int32(limit)))
        return traps.prefix(copied).map { trap in
            var text = "system call \(trap.number) (\(callNames[trap.number] ?? "?")) from \(describe(trap.address))"
            let frames = withUnsafeBytes(of: trap.frames) { Array($0.bindMemory(to: UInt.self)) }
            for frame in frames.prefix(Int(trap.depth)) { text += "\n    \(describe(frame))" }
            return text
        }
    }

    /// x86-64 numbers of the calls a render path is most likely to make by mistake.
    private static let callNames: [Int: String] = [
        0: "read", 1: "write", 7: "poll", 9: "mmap", 10: "mprotect", 11: "munmap", 23: "select",
        24: "sched_yield", 35: "nanosleep", 202: "futex", 230: "clock_nanosleep",
    ]

    /// `0x…` and, where `dladdr` knows them, `(symbol + offset)` or else `(file + 0xoffset)`
    /// (for `addr2line -f -e file`; an executable exports no symbols).
    private static func describe(_ address: UInt) -> String {
        var offset: UInt = 0
        if let symbol = au_strict_symbol(address, &offset) { return "0x\(String(address, radix: 16)) (\(String(cString: symbol)) + \(offset))" }
        if let file = au_strict_module(address, &offset) { return "0x\(String(address, radix: 16)) (\(String(cString: file)) + 0x\(String(offset, radix: 16)))" }
        return "0x" + String(address, radix: 16)
    }
}
