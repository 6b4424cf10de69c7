import CAUJack
import Foundation
import CJack

/// A JACK failure: what was attempted, on which server, and JACK's status bits in words.
/// - Thread: [any]
public struct JACKError: Error, Sendable, CustomStringConvertible {
    /// What failed, in words.
    public var message: String
    /// The `jack_status_t` bits JACK returned, when there were some.
    public var status: UInt32

    /// An error with its message and JACK's status bits, if any.
    /// - Thread: [any]
    public init(_ message: String, status: UInt32 = 0) {
        self.message = message
        self.status = status
    }

    /// The server a client opened with `server` reaches, as messages name it: the name given,
    /// else libjack's choice, `JACK_DEFAULT_SERVER` or `default` (`'default'`,
    /// `'studio' (JACK_DEFAULT_SERVER)`).
    /// - Thread: [any]
    public static func serverLabel(_ server: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let server { return "'\(server)'" }
        if let named = environment["JACK_DEFAULT_SERVER"], !named.isEmpty { return "'\(named)' (JACK_DEFAULT_SERVER)" }
        return "'default'"
    }

    /// The error for a failed `jack_client_open`.
    static func open(client: String, server: String?, status: jack_status_t) -> JACKError {
        let serverName = serverLabel(server)
        var reasons: [String] = []
        let bits = status.rawValue
        if bits & JackServerFailed.rawValue != 0 { reasons.append("it is not running") }
        if bits & JackServerError.rawValue != 0 { reasons.append("the server reported an error") }
        if bits & JackNameNotUnique.rawValue != 0 { reasons.append("the client name '\(client)' is taken") }
        if bits & JackVersionError.rawValue != 0 { reasons.append("the server speaks another protocol version") }
        if bits & JackInitFailure.rawValue != 0 { reasons.append("the client could not be initialised") }
        if bits & JackShmFailure.rawValue != 0 { reasons.append("shared memory could not be reached") }
        if bits & JackInvalidOption.rawValue != 0 { reasons.append("an invalid option was given") }
        if reasons.isEmpty { reasons.append("status 0x\(String(bits, radix: 16))") }
        return JACKError("cannot connect to JACK server \(serverName) as '\(client)': \(reasons.joined(separator: "; "))", status: bits)
    }

    /// The message.
    /// - Thread: [any]
    public var description: String { message }
}
