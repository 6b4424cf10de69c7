import Foundation

/// A one-line progress bar on the terminal: `render.wav [#########.........]  45%  ETA 0:42`
/// (the label and the status after the percentage change as the work goes on).
///
/// It draws only when its output (standard error by default) is a terminal, so a piped or
/// redirected run gets nothing extra. It redraws only when the drawn line changes (once per
/// percent or bar cell, so a few hundred times at most per run), and ``finish()`` ends the line.
/// - Thread: [control]; one bar is drawn by one thread at a time.
final class ProgressBar {
    /// The text before the bar, such as the file being worked on.
    var label: String
    let total: Int
    let width: Int
    /// False when the output is not a terminal: every call does nothing.
    let isEnabled: Bool
    private let descriptor: Int32
    private var lastLine = ""
    private var isFinished = false

    /// - Parameters:
    ///   - total: the amount of work (frames, files); 0 shows an empty bar until finished.
    ///   - descriptor: where to draw, standard error by default.
    ///   - isEnabled: `nil` (the default) draws when `descriptor` is a terminal.
    /// - Thread: [control]
    init(label: String, total: Int, width: Int = 30, descriptor: Int32 = STDERR_FILENO, isEnabled: Bool? = nil) {
        self.label = label
        self.total = max(0, total)
        self.width = max(1, width)
        self.descriptor = descriptor
        self.isEnabled = isEnabled ?? (isatty(descriptor) == 1)
    }

    /// Shows `completed` of ``total``, then `status` (such as ``remaining(done:total:elapsedSeconds:)``).
    /// - Thread: [control]
    func update(completed: Int, status: String = "") {
        guard isEnabled, !isFinished else { return }
        let line = Self.line(label: label, completed: completed, total: total, width: width, status: status)
        guard line != lastLine else { return }
        lastLine = line
        draw("\r\u{1B}[2K" + line)
    }

    /// Draws the last line again, after something else cleared it to print a line of text.
    /// - Thread: [control]
    func redraw() {
        guard isEnabled, !isFinished, !lastLine.isEmpty else { return }
        draw("\r\u{1B}[2K" + lastLine)
    }

    /// Shows 100% and ends the line.
    /// - Thread: [control]
    func finish() {
        guard isEnabled, !isFinished else { return }
        update(completed: total, status: "")
        isFinished = true
        draw("\n")
    }

    /// The bar's text for `completed` of `total`, `status` after it (no control characters).
    /// - Thread: [control]
    static func line(label: String, completed: Int, total: Int, width: Int, status: String = "") -> String {
        let fraction = total > 0 ? min(1, max(0, Double(completed) / Double(total))) : 0
        let filled = Int((fraction * Double(width)).rounded(.down))
        let percent = Int((fraction * 100).rounded(.down))
        let number = String(percent)
        let padded = String(repeating: " ", count: 3 - number.count) + number
        let bar = "\(label) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(padded)%"
        return status.isEmpty ? bar : bar + "  " + status
    }

    /// The least fraction done before ``remaining(done:total:elapsedSeconds:)`` guesses.
    static let leastFractionForEstimate = 0.03

    /// `ETA 1:05` (or `ETA 1:02:05`): the time left at the speed so far, `done` of `total`
    /// (any unit, such as seconds of audio) in `elapsedSeconds`; `nil` before
    /// ``leastFractionForEstimate`` of the work, when the first speed says little.
    /// - Thread: [any]
    static func remaining(done: Double, total: Double, elapsedSeconds: Double) -> String? {
        guard total > 0, done / total >= leastFractionForEstimate, elapsedSeconds > 0 else { return nil }
        let left = Int((elapsedSeconds * max(0, total - done) / done).rounded(.up))
        let seconds = String(format: "%02d", left % 60)
        if left < 3600 { return "ETA \(left / 60):\(seconds)" }
        return "ETA \(left / 3600):\(String(format: "%02d", left / 60 % 60)):\(seconds)"
    }

    private func draw(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }
}
