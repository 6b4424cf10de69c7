import AUCore
import Foundation

/// Validates units in child processes (`<auhost> validate --child …`, through
/// ``ProbeProcess``): each test begins and reports on the child's private channel, so a
/// unit that crashes, aborts or hangs in a test fails that test (`crashed: died of signal
/// 11 (SIGSEGV)`, `hung: timed out after 30 s`) and a new child carries on with the rest.
/// - Thread: [control]
public struct ValidationRunner: Sendable {
    /// The child's arguments before its options: the subcommand and the flag that makes it the child.
    public static let childArguments = ["validate", "--child"]

    /// The `auhost` that runs the children.
    public var executable: URL
    public var settings: ValidationSettings
    /// Seconds one test may run without a result before its child is killed.
    public var timeout: TimeInterval
    /// The AllocCounter shim preloaded into the children, nil for none (the allocation test skips).
    public var shim: URL?

    /// A runner over `executable` with the shim found beside it, if any.
    /// - Thread: [control]
    public init(executable: URL, settings: ValidationSettings, timeout: TimeInterval) {
        self.executable = executable
        self.settings = settings
        self.timeout = timeout
        let beside = executable.deletingLastPathComponent()
        shim = [beside.appendingPathComponent(RenderThreadCounter.libraryName), beside.appendingPathComponent("../lib/auhost/" + RenderThreadCounter.libraryName)]
            .first { FileManager.default.fileExists(atPath: $0.path) }?.standardizedFileURL
    }

    /// Runs `tests` on `component` in children and returns a result for every test.
    /// - Thread: [control]
    public func validate(_ component: Component, tests: [ValidationTest]) -> UnitValidation {
        let started = DispatchTime.now().uptimeNanoseconds
        var process = ProbeProcess(
            executable: executable,
            arguments: Self.childArguments + ["--format", component.format.rawValue, "--identifier", component.identifier] + settings.arguments + ["--"],
            timeout: timeout)
        if let shim { process.environment["LD_PRELOAD"] = shim.path }
        let outcomes = process.run(tests.map(\.name))
        let records = tests.map { test -> UnitValidation.TestRecord in
            var result: ValidationResult
            var seconds = 0.0
            switch outcomes[test.name] {
            case .reported(let words):
                result = ValidationResult(.fail, "the test child said: \(words)")
                if let parsed = ValidationResult.parse(words) { (result, seconds) = parsed }
            case .crashed(let cause): result = ValidationResult(.fail, (cause.hasPrefix("timed out") ? "hung: " : "crashed: ") + cause)
            case .notRun(let cause): result = ValidationResult(.fail, "the test child did not run: \(cause)")
            case nil: result = ValidationResult(.fail, "no result")
            }
            return UnitValidation.TestRecord(name: test.name, status: result.status, message: result.message, seconds: seconds)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return UnitValidation(component: component, settings: settings, seconds: seconds, tests: records)
    }

    /// Validates `components`, `jobs` at a time, calling `finished` (under a lock, in the
    /// order they finish) for each; returns them in the order given.
    /// - Thread: [control]
    public func validate(_ components: [Component], tests: [ValidationTest], jobs: Int, finished: @escaping @Sendable (UnitValidation) -> Void) -> [UnitValidation] {
        let results = ResultSlots(count: components.count)
        let gate = DispatchSemaphore(value: max(1, jobs))
        let group = DispatchGroup()
        for (index, component) in components.enumerated() {
            gate.wait()
            group.enter()
            DispatchQueue.global().async {
                let validation = validate(component, tests: tests)
                results.store(validation, at: index, then: finished)
                gate.signal()
                group.leave()
            }
        }
        group.wait()
        return results.all()
    }
}

/// The runs' results as they finish, from several threads.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [UnitValidation?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func store(_ validation: UnitValidation, at index: Int, then report: (UnitValidation) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = validation
        report(validation)
    }

    func all() -> [UnitValidation] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}
