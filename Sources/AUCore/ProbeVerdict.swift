/// What a probe in a child process (``ProbeProcess``) found about one LV2 plugin or one
/// native unit library; kept in a ``ProbeCache``.
/// - Thread: [any] (a plain value).
public struct ProbeVerdict: Codable, Sendable, Equatable {
    /// How the probe went; the raw value is the word the child reports.
    /// - Thread: [any]
    public enum Outcome: String, Codable, Sendable {
        /// It loaded (and, for a plugin, ran with finite output).
        case works
        /// It failed with a reason (a missing feature, instantiate returned NULL, NaN output;
        /// the dynamic linker refused a library, another ABI version, too many units…).
        case fails
        /// The child process probing it died (a signal) or timed out: the reason says which.
        case crashed
        /// A library without the native unit entry symbol (another kind of library).
        case notAUnitLibrary = "not-a-unit-library"
    }

    public var outcome: Outcome
    /// Why it fails or crashed, nil when it works.
    public var reason: String?

    /// A verdict with `outcome` and, unless it works, a reason.
    /// - Thread: [any]
    public init(outcome: Outcome, reason: String? = nil) {
        self.outcome = outcome
        self.reason = reason
    }

    /// The verdict as the probe child reports it on its ``ProbeChannel``: the outcome, then the reason.
    /// - Thread: [any]
    public var words: String { outcome.rawValue + (reason.map { " " + $0 } ?? "") }

    /// What became of an item in ``ProbeProcess`` as a verdict: the child's ``words``, or its
    /// death (`crashed`, with the cause), or `fails` when no child could run.
    /// - Thread: [any]
    public init(_ outcome: ProbeProcess.Outcome) {
        switch outcome {
        case .reported(let words):
            let fields = words.split(separator: " ", maxSplits: 1).map(String.init)
            if let outcome = fields.first.flatMap(Outcome.init(rawValue:)) {
                self.init(outcome: outcome, reason: fields.count > 1 ? fields[1] : nil)
            } else {
                self.init(outcome: .fails, reason: "the probe process gave no verdict: \(words)")
            }
        case .crashed(let cause): self.init(outcome: .crashed, reason: cause)
        case .notRun(let cause): self.init(outcome: .fails, reason: "the probe process failed: \(cause)")
        }
    }

    /// The text `auhost list` shows for a broken unit, nil when it works.
    /// - Thread: [any]
    public var brokenReason: String? {
        switch outcome {
        case .works: nil
        case .fails, .notAUnitLibrary: reason ?? outcome.rawValue
        case .crashed: "crashed" + (reason.map { " (\($0))" } ?? "")
        }
    }
}
