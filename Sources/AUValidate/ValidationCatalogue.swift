import Foundation

/// Every test of `auhost validate`, in the order they run: auval's phases, then
/// pluginval's, then the real-time ones.
/// - Thread: [any]
public enum ValidationCatalogue {
    /// The tests in running order.
    /// - Thread: [any]
    public static let tests: [ValidationTest] = [
        LifeCycleTests.open, LifeCycleTests.info, PropertyTests.properties, LifeCycleTests.initializeCycles, PropertyTests.streamFormats,
        RenderTests.render, OutputUnitTests.device, RenderTests.outputValues, RenderTests.silenceInSilenceOut, RenderTests.reset, ParameterTests.ranges,
        MIDITests.notes, MIDITests.midiEvents, TimingTests.latency, TimingTests.tail, ParameterTests.sweep, ParameterTests.automation,
        StateTests.state, StateTests.presets, ParameterTests.otherThread, RealTimeTests.allocations, TimingTests.renderTime,
    ]

    /// The test named `name`.
    /// - Thread: [any]
    public static func test(named name: String) -> ValidationTest? { tests.first { $0.name == name } }

    /// The tests that run at `strictness`, kept by `only` and not dropped by `skip` (regular
    /// expressions matched against the names).
    /// - Thread: [any]
    public static func selected(strictness: Int, only: NSRegularExpression? = nil, skip: NSRegularExpression? = nil) -> [ValidationTest] {
        func matches(_ expression: NSRegularExpression, _ name: String) -> Bool {
            expression.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
        }
        return tests.filter { test in
            test.strictness <= strictness && (only.map { matches($0, test.name) } ?? true) && !(skip.map { matches($0, test.name) } ?? false)
        }
    }
}
