import AUCore

/// Everything wrong with a preset (or a save), all at once: its description prints one
/// ``PresetProblem`` per line, in file order.
/// - Thread: [any] (a plain value).
public struct PresetError: Error, Sendable, CustomStringConvertible {
    public var problems: [PresetProblem]

    /// - Thread: [any]
    public init(_ problems: [PresetProblem]) {
        precondition(!problems.isEmpty, "a PresetError names at least one problem")
        self.problems = problems
    }

    /// The Core Audio code that fits the first problem best, for callers that want one.
    /// - Thread: [any]
    public var code: AudioUnitErrorCode {
        switch problems[0].kind {
        case .unreadableFile, .fileExists, .writeFailed: .invalidFilePath
        case .unknownUnit, .ambiguousUnit: .extensionNotFound
        case .unitUnavailable: .unsupportedType
        case .unknownParameter, .readOnlyParameter: .invalidParameter
        case .valueOutOfRange, .unknownValueString: .invalidParameterValue
        case .badConnection, .cycle, .notConnected: .noConnection
        default: .invalidFile
        }
    }

    /// - Thread: [any]
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
