import AUHostCLI
import AUTestSupport
import Foundation
import Glibc
import Testing

/// `auhost run` against hostile or careless clients (issue 14): clients that leave without
/// reading, a closed standard output, clients without the token, `save` outside its folder,
/// endless lines, too many clients, a stopped server, and a unit whose `run()` never returns.
@Suite(.serialized) struct ControlSafetyTests {
    @Test func aClientLeavingWithoutReadingItsRepliesDoesNotEndTheRun() throws {
        let rig = try ControlRig(preset: gainChain, extraArguments: ["--control", "0"])
        defer { rig.tearDown() }
        let access = try ControlAccess(rig)
        for _ in 0..<3 {
            // More replies than the socket buffers hold: the server is still sending when
            // the client resets the connection.
            let client = try ControlClient(port: access.port)
            client.send("auth \(access.token)\n" + String(repeating: "help\n", count: 2_000))
            _ = client.readLine()
            client.resetAndClose()
        }
        #expect(try rig.send("status").hasPrefix("ok rate="), "\(rig.standardError)")
        #expect(try rig.send("quit") == "ok bye")
        #expect(rig.waitForExit() == 0)
    }

    @Test func aClosedStandardOutputEndsTheRunWithAMessage() throws {
        let rig = try ControlRig(preset: gainChain, closingStandardOutput: true)
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("auhost: running '"))
        try rig.input.fileHandleForWriting.write(contentsOf: Data("status\nstatus\n".utf8))
        #expect(rig.waitForExit() == 1, "\(rig.standardError)")
        #expect(rig.standardError.contains("auhost: standard output is closed"), "\(rig.standardError)")
    }

    @Test func theControlPortServesOnlyAClientThatSendsTheToken() throws {
        let rig = try ControlRig(preset: gainChain, extraArguments: ["--control", "0"])
        defer { rig.tearDown() }
        let access = try ControlAccess(rig)
        #expect(access.token.count >= 32)

        let stranger = try ControlClient(port: access.port)
        stranger.send("set gain gain 0\n")
        #expect(stranger.readLine()?.hasPrefix("error: authenticate first") == true)
        #expect(stranger.readLine() == nil)  // closed

        let guesser = try ControlClient(port: access.port)
        guesser.send("auth 0123456789abcdef\nstatus\n")
        #expect(guesser.readLine()?.hasPrefix("error: wrong token") == true)
        #expect(guesser.readLine() == nil)
        #expect(try rig.send("get gain gain") == "ok -6.0206")

        let owner = try ControlClient(port: access.port)
        owner.send("auth \(access.token)\nstatus\n")
        #expect(owner.readLine() == "ok authenticated")
        #expect(owner.readLine()?.hasPrefix("ok rate=48000") == true)
        #expect(try rig.send("quit") == "ok bye")
        #expect(rig.waitForExit() == 0)
    }

    @Test func liveSaveStaysInThePresetsFolderAndNeverOverwritesWithoutForce() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-outside-\(UUID().uuidString).json")
        let rig = try ControlRig(preset: gainChain)
        defer {
            rig.tearDown()
            try? FileManager.default.removeItem(at: outside)
        }
        let folder = rig.folder

        let absolute = try rig.send("save \(outside.path)")
        #expect(absolute.hasPrefix("error: \(outside.path): "), "\(absolute)")
        #expect(!FileManager.default.fileExists(atPath: outside.path))
        let climbing = try rig.send("save ../escaped.json")
        #expect(climbing.hasPrefix("error: ../escaped.json: "), "\(climbing)")
        #expect(!FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appendingPathComponent("escaped.json").path))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link").path, withDestinationPath: "/tmp")
        let throughLink = try rig.send("save link/escaped.json")
        #expect(throughLink.hasPrefix("error: link/escaped.json: "), "\(throughLink)")

        #expect(try rig.send("save mine.json") == "ok saved mine.json")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("mine.json").path))
        let again = try rig.send("save mine.json")
        #expect(again.hasPrefix("error: mine.json: already exists"), "\(again)")
        #expect(try rig.send("save mine.json --force") == "ok saved mine.json")
    }

    @Test func anEndlessLineIsRefusedAndItsConnectionClosed() throws {
        let rig = try ControlRig(preset: gainChain, extraArguments: ["--control", "0"])
        defer { rig.tearDown() }
        let client = try ControlClient(access: try ControlAccess(rig))
        client.send(String(repeating: "x", count: 70_000))
        #expect(client.readLine() == "error: a line longer than 65536 bytes; closing the connection")
        #expect(client.readLine() == nil)
        #expect(try rig.send("status").hasPrefix("ok rate="))
    }

    @Test func blankLinesAndALastLineWithoutANewlineGetReplies() throws {
        let rig = try ControlRig(preset: gainChain, extraArguments: ["--control", "0"])
        defer { rig.tearDown() }
        let client = try ControlClient(access: try ControlAccess(rig))
        client.send("\nstatus")
        client.finishSending()
        #expect(client.readLine() == "error: empty command; try 'help'")
        #expect(client.readLine()?.hasPrefix("ok rate=48000") == true)
        #expect(client.readLine() == nil)
        #expect(try rig.send("") == "error: empty command; try 'help'")
    }

    @Test func theNinthClientIsTurnedAway() throws {
        let rig = try ControlRig(preset: gainChain, extraArguments: ["--control", "0"])
        defer { rig.tearDown() }
        let access = try ControlAccess(rig)
        var clients: [ControlClient] = []
        for _ in 0..<8 {
            let client = try ControlClient(access: access)
            client.send("status\n")
            #expect(client.readLine()?.hasPrefix("ok rate=") == true)
            clients.append(client)
        }
        let ninth = try ControlClient(port: access.port)
        #expect(ninth.readLine() == "error: too many control clients (8); try again later")
        #expect(ninth.readLine() == nil)
        clients.removeLast().resetAndClose()
        var admitted = false
        for _ in 0..<100 where !admitted {  // the server sees the close within a moment
            admitted = (try? ControlClient(access: access)) != nil
            if !admitted { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(admitted)
    }

    /// The limit on authenticating is a deadline, not an idle timeout (issue 35): eight
    /// clients that never authenticate but send a byte every second lose their slots
    /// ``ControlServer/authenticationSeconds`` after connecting, told why, and the token
    /// holder gets in (before, they held every slot for as long as they kept sending).
    @Test func clientsThatNeverAuthenticateLoseTheirSlotsAtTheDeadline() throws {
        let token = ControlToken()
        let server = try ControlServer(port: 0, token: token) { line in ("ok \(line)", false) }
        defer { server.stop() }
        let squatters = try (0..<ControlServer.maximumClients).map { _ in try ControlClient(port: server.port) }
        let started = ContinuousClock.now, deadline = Duration.seconds(ControlServer.authenticationSeconds)
        var admitted = false, lastByte = started - .seconds(1)
        while !admitted, ContinuousClock.now - started < deadline + .seconds(8) {
            if ContinuousClock.now - lastByte >= .seconds(1) {
                for squatter in squatters { squatter.send("a") }
                lastByte = .now
            }
            if ContinuousClock.now - started >= deadline {
                let client = try ControlClient(port: server.port)
                client.send("auth \(token)\n")
                admitted = client.readLine() == "ok authenticated"
            }
            if !admitted { Thread.sleep(forTimeInterval: 0.25) }
        }
        #expect(admitted, "the token holder was kept out by clients that never authenticated")
        #expect(squatters[0].readLine() == "error: no 'auth TOKEN' line within \(ControlServer.authenticationSeconds) s; closing the connection")
    }

    /// stop() ends the accept loop through its wake-up pipe (no thread is left in accept()
    /// on a closed descriptor): new clients are refused, a connected one is told.
    @Test func aStoppedServerRefusesNewClientsAndTellsConnectedOnes() throws {
        let token = ControlToken()
        let server = try ControlServer(port: 0, token: token) { line in ("ok \(line)", false) }
        let client = try ControlClient(port: server.port)
        client.send("auth \(token)\nping\n")
        #expect(client.readLine() == "ok authenticated")
        #expect(client.readLine() == "ok ping")
        server.stop()
        // Refused, or (tests run in parallel and the freed port may already be another test's
        // server) not ours: our token gets no welcome there.
        if let late = try? ControlClient(port: server.port) {
            late.send("auth \(token)\n")
            #expect(late.readLine() != "ok authenticated", "the stopped server accepted a client")
        }
        client.send("ping\n")
        #expect(client.readLine() == "error: the server is stopping")
        #expect(client.readLine() == nil)
    }

    /// A unit that outputs NaN is muted by the graph, and the run says so on standard
    /// error (the node, the frame) and in `status` (`faulted=`), instead of going silent.
    @Test func aNodeThatOutputsNaNIsReportedLive() throws {
        let folder = try TemporaryFolder(prefix: "auhost-nan")
        defer { folder.remove() }
        try writeFixtureBundle("nan-output", name: "Fixture NaN Output", into: folder.url)
        let rig = try ControlRig(
            preset: #"{"auhost": 1, "name": "NaN", "nodes": [{"id": "bad", "unit": "lv2:urn:auhost:fixture:nan-output"}], "chain": ["bad"]}"#,
            environment: ["LV2_PATH": folder.path, "XDG_CACHE_HOME": folder.file("cache")])
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("'bad' (Fixture NaN Output) produced NaN or infinity in the cycle starting at frame"), "\(rig.standardError)")
        let status = try rig.send("status")
        #expect(status.contains("faulted=bad"), "\(status)")
        #expect(try rig.send("quit") == "ok bye")
        #expect(rig.waitForExit(timeout: 30) == 0, "\(rig.standardError)")
    }

    /// `quit` or SIGTERM while the render thread is inside a unit's `run()` for good: the
    /// watchdog ends the process within about a second of the request.
    @Test(arguments: ["quit", "SIGTERM"])
    func aStopWhileAUnitNeverReturnsEndsTheProcessNamingTheNode(_ request: String) throws {
        let folder = try TemporaryFolder(prefix: "auhost-stuck")
        try writeRunForeverBundle(into: folder.url)
        let marker = folder.file("stuck")
        let preset = """
            {"auhost": 1, "name": "Stuck", "nodes": [{"id": "stuck", "unit": "lv2:urn:auhost:fixture:run-forever"}], "chain": ["stuck"]}
            """
        let rig = try ControlRig(
            preset: preset,
            environment: [
                "LV2_PATH": folder.path, "XDG_CACHE_HOME": folder.file("cache"),
                "AUHOST_FIXTURE_STUCK_MARKER": marker,
                // Past the latency-priming cycle (the watchdog catches a unit stuck there
                // too, before any command is read) and a few periods: stuck while running.
                "AUHOST_FIXTURE_STUCK_AFTER": "8",
            ])
        defer {
            rig.tearDown()
            folder.remove()
        }
        var waited = 0
        while !FileManager.default.fileExists(atPath: marker) && waited < 400 {
            Thread.sleep(forTimeInterval: 0.05)
            waited += 1
        }
        try #require(FileManager.default.fileExists(atPath: marker), "the plugin's run() was never called; \(rig.standardError)")
        if request == "quit" {
            #expect(try rig.send("quit") == "ok bye")
        } else {
            kill(rig.process.processIdentifier, SIGTERM)  // env has exec'd auhost: same process
        }
        #expect(rig.waitForExit(timeout: 30) == 1, "\(rig.standardError)")
        // The seconds are those since the unit last returned (it may have been stuck a while
        // before the request came): at least the 1 s interrupted timeout.
        let line = try #require(rig.standardError.split(separator: "\n").first { $0.contains("node 'stuck' (Fixture Run Forever, lv2:urn:auhost:fixture:run-forever) has not returned for ") })
        #expect(line.hasSuffix(" s after an interrupt: the render is stuck; ending the process"), "\(line)")
    }
}

/// `auhost run` of a one-preset folder under a `jackd -d dummy` of its own, started the way
/// a shell starts it: SIGPIPE at its default action (the test process ignores it, and
/// children inherit that), so that only the tool's own handling keeps it alive.
final class ControlRig: @unchecked Sendable {
    let server: JACKTestServer
    let folder: URL
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var replies: [String] = []
    private var errorText = ""

    /// With `closingStandardOutput`, the pipe on auhost's standard output has no reader
    /// from the start (closed before the launch, so that no other child the test process
    /// starts meanwhile can inherit it and keep it open).
    init(preset: String, extraArguments: [String] = [], environment: [String: String] = [:], closingStandardOutput: Bool = false) throws {
        server = try JACKTestServer()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-control-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("chain.json")
        try preset.write(to: file, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=PIPE", try auhostExecutable().path, "run", file.path, "--server", server.name, "--name", "under-test"] + extraArguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        if closingStandardOutput {
            try output.fileHandleForReading.close()
        } else {
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let text = String(decoding: handle.availableData, as: UTF8.self)
                guard let self else { return }
                lock.withLock { replies += text.split(separator: "\n").map(String.init) }
            }
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            guard let self else { return }
            lock.withLock { errorText += text }
        }
        try ChildProcess.launch(process)
    }

    var standardError: String { lock.withLock { errorText } }

    /// Waits (up to 20 s) until standard error holds `text`.
    func waitForStandardError(_ text: String) -> Bool {
        for _ in 0..<400 {
            if standardError.contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Sends a command on standard input and waits (up to 10 s) for its reply line.
    func send(_ line: String) throws -> String {
        let before = lock.withLock { replies.count }
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
        for _ in 0..<500 {
            if let reply = lock.withLock({ replies.count > before ? replies[before] : nil }) { return reply }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw CLIErrorForTests("no reply to '\(line)'; \(process.isRunning ? "running" : "exit status \(process.terminationStatus)"); stderr: \(standardError)")
    }

    /// The exit status, or nil when the process still runs after `timeout` seconds.
    func waitForExit(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Ends the process (SIGTERM, then SIGKILL after 10 s) and the server; removes the folder.
    func tearDown() {
        if process.isRunning { process.terminate() }
        if waitForExit() == nil {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The port and token `auhost run --control 0` announced on standard error (the token first).
private struct ControlAccess {
    let port: UInt16
    let token: String

    init(_ rig: ControlRig) throws {
        guard rig.waitForStandardError("auhost: running '") else { throw CLIErrorForTests("the chain did not start: \(rig.standardError)") }
        let lines = rig.standardError.split(separator: "\n")
        let portLine = try #require(lines.first { $0.contains("control port 127.0.0.1:") })
        port = try #require(UInt16(portLine.split(separator: ":").last ?? ""))
        token = String(try #require(lines.first { $0.hasPrefix("auhost: control token ") }).split(separator: " ")[3])
    }
}

/// A raw TCP client of the control port; every read waits at most 10 s.
final class ControlClient {
    private let socket: Int32
    private var pending: [UInt8] = []

    /// `receiveBuffer`: the socket's receive buffer in bytes (a client that stops reading
    /// then holds little); nil: the system's.
    init(port: UInt16, receiveBuffer: Int32? = nil) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw CLIErrorForTests("cannot connect to 127.0.0.1:\(port)")
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// A client of the port `access` names, authenticated with its token.
    fileprivate convenience init(access: ControlAccess) throws {
        try self.init(port: access.port)
        send("auth \(access.token)\n")
        guard readLine() == "ok authenticated" else { throw CLIErrorForTests("the token was refused") }
    }

    deinit { close(socket) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            sent += count
        }
    }

    /// Half-closes: the server reads the end of the stream.
    func finishSending() { shutdown(socket, Int32(SHUT_WR)) }

    /// Leaves at once: unread replies make the server's next send fail (a reset).
    func resetAndClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// The next line that answers a command, skipping the subscription frames pushed before
    /// it (`{"topic":…}`: a subscribed client's frames and replies interleave); nil as
    /// ``readLine()``, or when no reply came within 10 s of frames.
    func readReply() -> String? {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, let line = readLine() {
            if !line.hasPrefix("{\"topic\":") { return line }
        }
        return nil
    }

    /// The next line, or nil at the end of the stream (or after 10 s of silence).
    func readLine() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let count = read(socket, &buffer, buffer.count)
            if count <= 0 { return nil }
            pending += buffer[..<count]
        }
    }
}

/// An LV2 bundle of the run-forever fixture (its `run()` never returns) in `folder`.
private func writeRunForeverBundle(into folder: URL) throws {
    try writeFixtureBundle("run-forever", name: "Fixture Run Forever", into: folder)
}
