/// One thing wrong with a preset file, a `--set` override or a save: the file (or
/// `--set`), the JSON path, and a message that says what was expected against what was
/// found. It prints as one line:
///
/// `Presets/vocal.json: nodes[2].parameters.gain: 40 is above the maximum 24 of 'Gain (dB)'; expected -24...24 dB`
/// - Thread: [any] (a plain value).
public struct PresetProblem: Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem, for programs (tests, JSON output); the message is for people.
    /// - Thread: [any]
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case unreadableFile, malformedJSON, wrongType, unknownKey, duplicateKey, unsupportedVersion, missingKey
        case invalidValue, duplicateNodeID, unknownUnit, ambiguousUnit, unitUnavailable
        case unknownParameter, readOnlyParameter, valueOutOfRange, unknownValueString, unknownFactoryPreset
        case badState, badConnection, cycle, notConnected, malformedOverride, unknownNode
        case fileExists, writeFailed, captureFailed
    }

    public var kind: Kind
    /// The file as the user named it, or `--set` for an override.
    public var file: String
    /// Where in the file: `nodes[2].parameters.gain`; `$` is the whole document; empty
    /// when the problem is with the file itself.
    public var path: String
    public var message: String
    /// Where the value concerned begins, when the problem came from a parsed file.
    public var line: Int?
    public var column: Int?

    /// - Thread: [any]
    public init(_ kind: Kind, file: String, path: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.kind = kind
        self.file = file
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    /// `file: path: message`, leaving out what is empty.
    /// - Thread: [any]
    public var description: String {
        [file, path, message].filter { !$0.isEmpty }.joined(separator: ": ")
    }
}
