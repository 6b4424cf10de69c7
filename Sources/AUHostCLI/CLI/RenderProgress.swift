import AUHost
import Foundation
import Synchronization

/// One progress bar for a whole `auhost render` run: each file counts 1000 parts, and the
/// jobs report their per-mille from their own threads. The bar is drawn on standard error
/// only when it is a terminal; ``printing(_:)`` clears it around a line of text.
/// - Thread: [any] (a mutex guards the bar).
final class RenderProgress: Sendable {
    private struct State {
        var bar: ProgressBar
        var done: [Int]
    }
    private let state: Mutex<State>
    let isEnabled: Bool

    /// - Parameter isEnabled: `nil` draws when standard error is a terminal.
    init(label: String, files: Int, isEnabled: Bool? = nil) {
        let bar = ProgressBar(label: label, total: files * 1000, isEnabled: isEnabled)
        self.isEnabled = bar.isEnabled
        state = Mutex(State(bar: bar, done: Array(repeating: 0, count: files)))
    }

    /// File `index` is `permille` done.
    func update(file index: Int, permille: Int) {
        guard isEnabled else { return }
        state.withLock { state in
            state.done[index] = permille
            state.bar.update(completed: state.done.reduce(0, +))
        }
    }

    /// Runs `body` (which prints) with the bar's line cleared first.
    func printing(_ body: () -> Void) {
        state.withLock { _ in
            if isEnabled { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
            body()
        }
    }

    /// Shows 100% and ends the bar's line.
    func finish() {
        state.withLock { $0.bar.finish() }
    }
}
