import AUCore
import AUHost
import AUTestSupport
import Foundation
import Glibc
import Testing

/// `subscribe` on the control port under jackd: JSON lines pushed at the asked rate to
/// every subscriber, while one of eight stops reading: the others, the run and the
/// commands go on, and the lines the silent one cannot take are dropped, never waited for.
@Suite(.serialized) struct SubscribeLiveTests {
    /// The port and token the rig announced, and a client authenticated with them.
    static func client(_ rig: LiveRig, receiveBuffer: Int32? = nil) throws -> ControlClient {
        guard rig.waitForStandardError("auhost: control port") else { throw CLIErrorForTests("no control port: \(rig.standardError)") }
        let lines = rig.standardError.split(separator: "\n")
        let port = try #require(lines.first { $0.contains("control port 127.0.0.1:") }.flatMap { UInt16($0.split(separator: ":").last ?? "") })
        let token = String(try #require(lines.first { $0.hasPrefix("auhost: control token ") }).split(separator: " ")[3])
        let client = try ControlClient(port: port, receiveBuffer: receiveBuffer)
        client.send("auth \(token)\n")
        guard client.readLine() == "ok authenticated" else { throw CLIErrorForTests("the token was refused") }
        return client
    }

    /// The `t` of a pushed line.
    static func time(_ line: String) -> Double? {
        guard let range = line.range(of: "\"t\":") else { return nil }
        return Double(line[range.upperBound...].prefix { "0123456789.".contains($0) })
    }

    @Test func subscribersGetFramesAtTheirRateWhileOneStopsReading() throws {
        var controller: ControllerClient?
        let rig = try LiveRig(
            preset: MIDIMapLiveTests.chain(midiMap: nil).replacingOccurrences(of: "\"gain\": -96", with: "\"gain\": 0"), extraArguments: ["--control", "0"],
            periodFrames: 256, prepare: { server in controller = try ControllerClient(serverName: server, offset: 0) })
        defer {
            _ = controller.take()  // the controller client goes first
            rig.tearDown()
        }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        try rig.probeOnceRegistered().connect("controller:out_1", to: "\(rig.clientName):in_1")
        let clients = try (0..<8).map { index in try Self.client(rig, receiveBuffer: index == 7 ? 4_096 : nil) }
        for client in clients {
            client.send("subscribe meters 20\n")
            #expect(client.readLine() == "ok subscribed meters 20")
        }
        // The last one subscribes to parameters and status too, then never reads again. (Its
        // meters may come before the replies: a CI run under load once read one there.)
        let silent = try #require(clients.last)
        for topic in ["params", "status"] {
            silent.send("subscribe \(topic) 30\n")
            #expect(silent.readReply() == "ok subscribed \(topic) 30")
        }
        // It fills its socket: the meters of many seconds, and every parameter moving.
        var gains: [String] = []
        for step in 0..<150 {
            gains.append(try rig.send("set gain gain \(-(step % 40))"))
        }
        #expect(gains.allSatisfy { $0.hasPrefix("ok ") }, "the run stopped answering: \(gains.suffix(3))")
        // The other seven: 40 frames each, 20 a second by the run's own clock, with levels.
        for (index, client) in clients.dropLast().enumerated() {
            var times: [Double] = []
            var last = ""
            while times.count < 40, let line = client.readLine() {
                if line.hasPrefix("{\"topic\":\"meters\"") , let t = Self.time(line) { times.append(t) }
                last = line
            }
            try #require(times.count == 40, "client \(index) got \(times.count) frames; last: \(last)")
            let gaps = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
            let median = gaps[gaps.count / 2]
            #expect(abs(median - 0.05) < 0.015, "client \(index): frames every \(median) s, not 1/20 s")
            #expect(last.contains("\"in\":[{\"peak\":-6.0") || last.contains("\"in\":[{\"peak\":-6.02"), "client \(index): \(last)")
        }
        let status = try rig.send("status")
        #expect(status.hasPrefix("ok rate="), "\(status)")
        // The silent one's socket is full: it was dropped lines, and the run went on.
        var dropped = 0
        for _ in 0..<200 where dropped == 0 {
            dropped = Int(try rig.send("status").split(separator: " ").first { $0.hasPrefix("subscription_drops=") }?.dropFirst("subscription_drops=".count) ?? "") ?? 0
            if dropped == 0 { _ = try rig.send("set gain gain -3"); _ = try rig.send("set gain gain 0") }
        }
        #expect(dropped > 0, "no line was dropped for the client that stopped reading")
    }
}
