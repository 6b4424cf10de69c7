import AUCore
import Foundation

/// One test of `auhost validate`: its name (as the report and docs/VALIDATE.md name it),
/// the strictness from which it runs, what it checks, and its body.
/// - Thread: [control]
public struct ValidationTest: Sendable {
    public let name: String
    /// The lowest `--strictness` that runs it.
    public let strictness: Int
    /// What it checks, in one line (`auhost help validate`).
    public let summary: String
    let body: @Sendable (ValidationContext) throws -> ValidationResult

    init(_ name: String, strictness: Int, _ summary: String, _ body: @escaping @Sendable (ValidationContext) throws -> ValidationResult) {
        self.name = name
        self.strictness = strictness
        self.summary = summary
        self.body = body
    }

    /// Runs the test on `component` in this process: every instance it makes is disposed
    /// after; an error it meets (a refused call, a failed check) is its FAIL.
    /// - Thread: [control]
    public func run(on component: Component, settings: ValidationSettings) -> ValidationResult {
        let context = ValidationContext(component: component, settings: settings, test: name)
        defer { context.finish() }
        do {
            return try body(context)
        } catch let failure as ValidationFailure {
            return ValidationResult(.fail, failure.message)
        } catch {
            return ValidationResult(.fail, "\(error)")
        }
    }
}

/// Fails the running test with `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw ValidationFailure(message()) }
}

/// Runs `body` and returns the error it threw, nil when it threw none.
func thrownError(_ body: () throws -> Void) -> AudioUnitError? {
    do {
        try body()
        return nil
    } catch let error as AudioUnitError {
        return error
    } catch {
        return AudioUnitError(.parameterError, "\(error)")
    }
}

/// Fails unless `body` throws one of `codes`, naming `what` was tried.
func requireRefusal(_ what: String, _ codes: Set<AudioUnitErrorCode>, _ body: () throws -> Void) throws {
    guard let error = thrownError(body) else { throw ValidationFailure("\(what) was accepted; expected \(codes.map(\.name).sorted().joined(separator: " or "))") }
    try require(codes.contains(error.code), "\(what) was refused with \(error.code.name); expected \(codes.map(\.name).sorted().joined(separator: " or ")): \(error.message)")
}
