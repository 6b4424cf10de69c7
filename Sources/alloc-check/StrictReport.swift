import CAUSupport
import Foundation

/// The system calls strict mode (`--strict`, ``au_strict_install()``) trapped on the render
/// thread, on standard error: number, name where known, the code that made the call and its
/// backtrace (symbol or file and offset from `dladdr`; Swift names are mangled, `swift
/// demangle` reads them).
/// - Thread: [control], after the render thread stopped recording.
func reportTrappedCalls() -> UInt64 {
    let count = au_strict_trap_count()
    var traps = [au_strict_trap](repeating: au_strict_trap(), count: 32)
    let copied = Int(au_strict_read_traps(&traps, Int32(traps.count)))
    let names: [Int: String] = [0: "read", 1: "write", 7: "poll", 23: "select", 24: "sched_yield", 35: "nanosleep", 202: "futex", 230: "clock_nanosleep", 9: "mmap", 11: "munmap", 10: "mprotect"]
    for trap in traps.prefix(copied) {
        var text = "alloc-check: strict: system call \(trap.number) (\(names[trap.number] ?? "?")) from \(describe(trap.address))\n"
        let frames = withUnsafeBytes(of: trap.frames) { Array($0.bindMemory(to: UInt.self)) }
        for frame in frames.prefix(Int(trap.depth)) { text += "    \(describe(frame))\n" }
        FileHandle.standardError.write(Data(text.utf8))
    }
    return count
}

/// `0x…` and, where `dladdr` knows them, `(symbol + offset)` or else `(file + 0xoffset)`
/// (for `addr2line -f -e file`; an executable exports no symbols).
/// - Thread: [control]
private func describe(_ address: UInt) -> String {
    var offset: UInt = 0
    if let symbol = au_strict_symbol(address, &offset) { return "0x\(String(address, radix: 16)) (\(String(cString: symbol)) + \(offset))" }
    if let file = au_strict_module(address, &offset) { return "0x\(String(address, radix: 16)) (\(String(cString: file)) + 0x\(String(offset, radix: 16)))" }
    return "0x" + String(address, radix: 16)
}
