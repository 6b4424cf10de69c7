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

    /// The result as the test child reports it on its channel: the status word, then the message.
    /// - Thread: [any]
    public var words: String { status.rawValue + (message.isEmpty ? "" : " " + message) }

    /// Reads ``words`` back; nil when the first word is no status.
    /// - Thread: [any]
    public init?(words: String) {
        let fields = words.split(separator: " ", maxSplits: 1).map(String.init)
        guard let status = fields.first.flatMap(Status.init(rawValue:)) else { return nil }
        self.init(status, fields.count > 1 ? fields[1] : "")
    }
}

/// A test's failure: thrown by a test body to end it with FAIL and this message.
/// - Thread: [control]
struct ValidationFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
