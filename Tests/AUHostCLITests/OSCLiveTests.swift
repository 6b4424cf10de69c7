import AUHost
import AUTestSupport
import Foundation
import Glibc
import Testing

@testable import AUHostCLI

/// `--osc PORT` under jackd: OSC messages over UDP are control lines, replies come back as
/// `/reply`; a malformed packet and the refused verbs get an error reply.
@Suite(.serialized) struct OSCLiveTests {
    /// Sends `message` from a socket of its own to `port` and waits (up to 10 s) for the reply.
    static func exchange(_ bytes: [UInt8], port: UInt16) throws -> OSCMessage? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let sent = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(socket, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(sent == bytes.count)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return try OSCMessage.parse(Array(buffer[..<count])).get()
    }

    @Test func oscSetAndGetWorkAndBadMessagesAreRefused() throws {
        let rig = try LiveRig(preset: gainChain, extraArguments: ["--osc", "0"])
        defer { rig.tearDown() }
        #expect(rig.waitForStandardError("auhost: running"), "\(rig.standardError)")
        let line = try #require(rig.standardError.split(separator: "\n").first { $0.contains("OSC port 127.0.0.1:") }, "\(rig.standardError)")
        let port = try #require(UInt16(line.split(separator: ":").last?.prefix { $0.isNumber } ?? ""))
        let set = OSCMessage(address: "/set", arguments: [.string("gain"), .string("gain"), .float(-12)])
        #expect(try Self.exchange(set.encoded, port: port) == OSCMessage(address: "/reply", arguments: [.string("ok -12")]))
        #expect(try rig.send("get gain gain") == "ok -12")
        let get = OSCMessage(address: "/auhost/get", arguments: [.string("gain"), .string("gain")])
        #expect(try Self.exchange(get.encoded, port: port) == OSCMessage(address: "/reply", arguments: [.string("ok -12")]))
        let save = OSCMessage(address: "/save", arguments: [.string("x.json")])
        #expect(try Self.exchange(save.encoded, port: port)?.arguments.first == .string("error: save is refused over OSC; use standard input or the control port"))
        let garbage = try Self.exchange(Array("hello".utf8), port: port)
        #expect(garbage?.arguments.first.map { if case .string(let text) = $0 { text.hasPrefix("error: not an OSC message") } else { false } } == true, "\(String(describing: garbage))")
        #expect(try rig.send("status").hasPrefix("ok rate="))
    }
}
