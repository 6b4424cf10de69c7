import AUHost
import Foundation

/// A line-oriented text sink: standard output, standard error, or a string (tests).
/// - Thread: [control]
public final class TextOutput: @unchecked Sendable {
    private let handle: FileHandle?
    public private(set) var captured = ""

    /// Writes to a file handle.
    /// - Thread: [control]
    public init(_ handle: FileHandle) { self.handle = handle }
    /// Keeps what is written in ``captured``.
    /// - Thread: [control]
    public init() { handle = nil }

    /// - Thread: [control]
    public static func standardOutput() -> TextOutput { TextOutput(.standardOutput) }
    /// - Thread: [control]
    public static func standardError() -> TextOutput { TextOutput(.standardError) }

    /// True when the output is a terminal (for progress and colour).
    /// - Thread: [control]
    public var isTerminal: Bool { handle.map { isatty($0.fileDescriptor) != 0 } ?? false }

    /// - Thread: [control]
    public func write(_ text: String) {
        if let handle {
            handle.write(Data(text.utf8))
        } else {
            captured += text
        }
    }

    /// - Thread: [control]
    public func line(_ text: String = "") { write(text + "\n") }
}
