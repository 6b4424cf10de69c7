import AUTestSupport
import Foundation
import Glibc
import Testing

/// Two Guitarix convolvers in one live chain (GxAmplifier-X, then GxCabinet): both plan FFTW
/// transforms on threads of their own (libzita-convolver), and FFTW's planner is not
/// thread-safe; before AULV2 made it so at world creation (au_fftw_make_planners_thread_safe,
/// docs/LV2.md "FFTW"), 4 of 32 runs crashed at start or on SIGTERM; with that lock alone,
/// still about 1 in 40 at start, because the convolvers were told a nominal block length of
/// 4096 under a 64-frame period and rebuilt themselves in their worker during run() (now
/// told the period). Child processes, as the crash was: half end on `quit`, half on SIGTERM.
@Suite(.serialized) struct GuitarixLiveTests {
    static let amp = "/usr/lib/lv2/gx_amp.lv2/manifest.ttl"
    static let cabinet = "/usr/lib/lv2/gx_cabinet.lv2/manifest.ttl"
    static var installed: Bool { FileManager.default.fileExists(atPath: amp) && FileManager.default.fileExists(atPath: cabinet) }

    static let chain = """
        {"auhost": 1, "name": "Guitarix amp and cabinet",
         "nodes": [{"id": "amp", "unit": "lv2:http://guitarix.sourceforge.net/plugins/gx_amp#GUITARIX"},
                   {"id": "cabinet", "unit": "lv2:http://guitarix.sourceforge.net/plugins/gx_cabinet#CABINET"}],
         "chain": ["amp", "cabinet"]}
        """

    @Test(.enabled(if: installed, "guitarix-lv2 is not installed (make deps installs it)"))
    /// 20 runs in `make test`, 100 with AUHOST_LONG_TESTS=1.
    func anAmpAndCabinetChainStartsAndStopsRepeatedlyWithoutACrash() throws {
        let server = try JACKTestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder(prefix: "auhost-gx")
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("chain.json")
        try Self.chain.write(to: file, atomically: true, encoding: .utf8)

        var failures: [String] = []
        for run in 0..<TestLength.choose(short: 20, long: 100) {
            let outcome = try Self.runOnce(preset: file, server: server.name, run: run, terminating: run % 2 == 1)
            if let outcome { failures.append("run \(run): \(outcome)") }
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// One `auhost run`: waits (up to 20 s) for the chain to run, ends it by `quit` or
    /// SIGTERM, waits (up to 15 s, then SIGKILL) for the exit. Nil when it ended cleanly.
    static func runOnce(preset: URL, server: String, run: Int, terminating: Bool) throws -> String? {
        let process = Process()
        let input = Pipe(), output = Pipe(), errors = Pipe()
        let errorText = LockedText()
        process.executableURL = try auhostExecutable()
        process.arguments = ["run", preset.path, "--server", server, "--name", "gx-\(run)"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
        errors.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            errorText.append(text)
        }
        defer {
            output.fileHandleForReading.readabilityHandler = nil
            errors.fileHandleForReading.readabilityHandler = nil
        }
        try ChildProcess.launch(process)
        var started = false
        for _ in 0..<400 where process.isRunning {
            if errorText.value.contains("auhost: running '") { started = true; break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        if terminating {
            kill(process.processIdentifier, SIGTERM)
        } else {
            try? input.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
        }
        let deadline = Date().addingTimeInterval(15)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return "did not exit within 15 s; stderr: \(errorText.value)"
        }
        let text = errorText.value
        if process.terminationReason == .uncaughtSignal { return "killed by signal \(process.terminationStatus); stderr: \(text)" }
        if text.contains("double free") || text.contains("corruption") { return "heap corruption reported; stderr: \(text)" }
        if !started { return "the chain did not start (exit \(process.terminationStatus)); stderr: \(text)" }
        return nil
    }
}

/// Standard error as it arrives from the pipe's handler thread.
private final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    var value: String { lock.withLock { text } }
    func append(_ more: String) { lock.withLock { text += more } }
}
