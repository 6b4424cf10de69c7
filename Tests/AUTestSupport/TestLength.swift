import Foundation

/// How long the stress tests run: a short default in `make test`, and a long mode
/// (`AUHOST_LONG_TESTS=1`) that runs them at the counts and durations of a soak.
/// - Thread: [any]
public enum TestLength {
    /// Whether `AUHOST_LONG_TESTS=1` asked for the long mode.
    /// - Thread: [any]
    public static let isLong = ProcessInfo.processInfo.environment["AUHOST_LONG_TESTS"] == "1"

    /// `short` by default, `long` in the long mode.
    /// - Thread: [any]
    public static func choose<Value>(short: Value, long: Value) -> Value { isLong ? long : short }
}
