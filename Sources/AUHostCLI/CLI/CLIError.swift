import AUHost
/// A failure the command line reports: one line, then an optional hint, then an exit status.
/// - Thread: [control]
public struct CLIError: Error, CustomStringConvertible {
    /// `EX_USAGE` for mistakes in the arguments.
    public static let usageStatus: Int32 = 64
    /// Every other failure.
    public static let failureStatus: Int32 = 1

    public var message: String
    public var hint: String?
    public var status: Int32

    /// - Thread: [control]
    public init(_ message: String, hint: String? = nil, status: Int32 = CLIError.failureStatus) {
        self.message = message
        self.hint = hint
        self.status = status
    }

    /// A usage error: exits 64, with a hint pointing at the command's help.
    /// - Thread: [control]
    public static func usage(_ message: String, command: String? = nil) -> CLIError {
        CLIError(message, hint: "see 'auhost help\(command.map { " \($0)" } ?? "")'", status: usageStatus)
    }

    /// - Thread: [control]
    public var description: String { message }
}
