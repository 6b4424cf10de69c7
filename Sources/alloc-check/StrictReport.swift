import CAUSupport
import Foundation

/// The system calls strict mode (`--strict`, ``au_strict_install()``) trapped on the render
/// thread, one line each on standard error: number, name where known, and the code that
/// made the call (symbol and offset from `dladdr`).
/// - Thread: control, after the render thread stopped recording.
func reportTrappedCalls() -> UInt64 {
    let count = au_strict_trap_count()
    var traps = [au_strict_trap](repeating: au_strict_trap(), count: 32)
    let copied = Int(au_strict_read_traps(&traps, Int32(traps.count)))
    let names: [Int: String] = [0: "read", 1: "write", 7: "poll", 23: "select", 24: "sched_yield", 35: "nanosleep", 202: "futex", 230: "clock_nanosleep", 9: "mmap", 11: "munmap", 10: "mprotect"]
    for trap in traps.prefix(copied) {
        var place = "0x" + String(trap.address, radix: 16)
        var offset: UInt = 0
        if let symbol = au_strict_symbol(trap.address, &offset) { place += " (\(String(cString: symbol)) + \(offset))" }
        FileHandle.standardError.write(Data("alloc-check: strict: system call \(trap.number) (\(names[trap.number] ?? "?")) from \(place)\n".utf8))
    }
    return count
}
