import AUCore
import CFluidSynth
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where FluidSynth's messages go: never to standard output (it belongs to the command),
/// which is where FluidSynth's default log function prints its information and debug
/// messages. FluidSynth's log function is one for the whole process, installed once.
///
/// A thread that loads a bank (``capturing(_:)``) collects the messages of that load, so
/// that a failed load is one error that quotes them; on the render thread a message is only
/// counted (nothing is formatted, locked or written there); any other thread's errors and
/// warnings go to standard error, and its information and debug messages are dropped.
///
/// libinstpatch, to which FluidSynth offers a file its SoundFont loader refused, reports
/// through GLib instead (`g_return_if_fail`: a blank line and a `CRITICAL` line on standard
/// error): GLib's default log handler is taken over in the same way, once, found in the
/// process (FluidSynth links GLib) so that AUHost needs no GLib headers. A GLib message no
/// load collects goes on to the handler GLib had, so an application's own GLib messages
/// print as they did.
enum FluidSynthLog {
    /// Messages per loading thread (`pthread_self`), while it loads.
    private static let captures = Mutex<[UInt: [String]]>([:])
    /// Messages FluidSynth logged on the render thread, which are dropped.
    static let renderMessages = Atomic<Int>(0)

    /// Installs the log function for every level, and GLib's default handler, once per process.
    private static let installed: Bool = {
        for level in [FLUID_PANIC, FLUID_ERR, FLUID_WARN, FLUID_INFO, FLUID_DBG] {
            _ = fluid_set_log_function(Int32(level.rawValue), { level, message, _ in
                FluidSynthLog.receive(level: level, message: message)
            }, nil)
        }
        _ = glibHandlerBefore
        return true
    }()

    /// GLib's `GLogFunc`: the domain, the level flags, the message, the handler's data.
    private typealias GLibLogFunction = @convention(c) (UnsafePointer<CChar>?, UInt32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void

    /// GLib's default handler before ours (nil when GLib is not in the process), set once.
    private static let glibHandlerBefore: GLibLogFunction? = {
        typealias SetDefaultHandler = @convention(c) (GLibLogFunction?, UnsafeMutableRawPointer?) -> GLibLogFunction?
        guard let symbol = dlsym(nil, "g_log_set_default_handler") else { return nil }
        return unsafeBitCast(symbol, to: SetDefaultHandler.self)({ domain, flags, message, _ in
            FluidSynthLog.receiveGLib(domain: domain, flags: flags, message: message)
        }, nil)
    }()

    /// A GLib message: counted on the render thread, collected by a load on its thread,
    /// else handed to GLib's handler before ours. A fatal one (`G_LOG_FLAG_FATAL`,
    /// `G_LOG_LEVEL_ERROR`: GLib aborts the process after it) is always handed on, so that
    /// the reason is printed.
    private static func receiveGLib(domain: UnsafePointer<CChar>?, flags: UInt32, message: UnsafePointer<CChar>?) {
        let fatal: UInt32 = 1 << 1 | 1 << 2
        if flags & fatal == 0 && RenderThread.isCurrent {
            renderMessages.add(1, ordering: .relaxed)
            return
        }
        if flags & fatal != 0 || !collect(message.map { String(cString: $0) } ?? "") { glibHandlerBefore?(domain, flags, message, nil) }
    }

    /// Adds `text` to this thread's messages if it is loading; whether it was.
    private static func collect(_ text: String) -> Bool {
        let thread = UInt(pthread_self())
        return captures.withLock { captures -> Bool in
            guard captures[thread] != nil else { return false }
            captures[thread]?.append(text)
            return true
        }
    }

    /// Makes sure FluidSynth's messages come here; call before any other FluidSynth call.
    static func install() {
        _ = installed
    }

    /// Runs `body` (a load) with this thread's messages collected, and returns its result
    /// and the messages it caused.
    static func capturing<Result>(_ body: () -> Result) -> (result: Result, messages: [String]) {
        install()
        let thread = UInt(pthread_self())
        captures.withLock { $0[thread] = [] }
        let result = body()
        return (result, captures.withLock { $0.removeValue(forKey: thread) ?? [] })
    }

    private static func receive(level: Int32, message: UnsafePointer<CChar>?) {
        if RenderThread.isCurrent {
            renderMessages.add(1, ordering: .relaxed)
            return
        }
        let text = message.map { String(cString: $0) } ?? ""
        if !collect(text), level <= Int32(FLUID_WARN.rawValue) {
            FileHandle.standardError.write(Data("fluidsynth: \(text)\n".utf8))
        }
    }
}
