import Foundation

/// What one validation test found: PASS, WARN, FAIL or SKIP, and why.
/// - Thread: [any] (a plain value).
public struct ValidationResult: Codable, Sendable, Equatable {
    /// The verdict word, as the report prints it.
    /// - Thread: [any]
    public enum Status: String, Codable, Sendable, CaseIterable {
        /// The unit keeps the rule.
        case pass = "PASS"
        /// Something a host should know of, which does not fail the unit.
        case warn = "WARN"
        /// The unit breaks the rule (or crashed, or hung, while the test ran).
        case fail = "FAIL"
        /// The test does not apply to this unit, or could not run here (the reason says which).
        case skip = "SKIP"
    }

    public var status: Status
    /// What was checked and measured, or what went wrong; one line.
    public var message: String

    /// A result with `status` and a one-line `message`.
    /// - Thread: [any]
    public init(_ status: Status, _ message: String) {
        self.status = status
        self.message = message.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ")
    }

    /// The result as the test child reports it on its channel, with the seconds the test
    /// took: `PASS 0.125 message`.
    /// - Thread: [any]
    public func words(seconds: Double) -> String {
        status.rawValue + " " + String(format: "%.3f", seconds) + (message.isEmpty ? "" : " " + message)
    }

    /// Reads ``words(seconds:)`` back; nil when the words are not a result.
    /// - Thread: [any]
    public static func parse(_ words: String) -> (result: ValidationResult, seconds: Double)? {
        let fields = words.split(separator: " ", maxSplits: 2).map(String.init)
        guard fields.count >= 2, let status = Status(rawValue: fields[0]), let seconds = Double(fields[1]) else { return nil }
        return (ValidationResult(status, fields.count > 2 ? fields[2] : ""), seconds)
    }
}

/// A test's failure: thrown by a test body to end it with FAIL and this message.
/// - Thread: [control]
struct ValidationFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
