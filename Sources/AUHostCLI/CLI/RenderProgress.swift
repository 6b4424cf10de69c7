import AUHost
import Foundation
import Synchronization

/// One progress bar for a whole `auhost render` run: `b.wav  2/5 files [####....]  45%  ETA 0:42`,
/// the file the jobs last worked on, how many files are done, and the time left at the speed
/// so far. Each file weighs its seconds of audio (every file the same when one cannot be
/// read ahead); the jobs report their per-mille from their own threads. The bar is drawn on
/// standard error only when it is a terminal; ``printing(_:)`` clears it around a line of text.
/// - Thread: [any] (a mutex guards the bar).
final class RenderProgress: Sendable {
    private struct State {
        var bar: ProgressBar
        var done: [Int]
        var current: Int
    }
    private let state: Mutex<State>
    private let names: [String]
    private let weights: [Double]
    private let started = ContinuousClock.now
    let isEnabled: Bool

    /// The bar's resolution: parts per second of audio.
    private static let partsPerSecond = 1000.0

    /// - Parameter isEnabled: `nil` draws when standard error is a terminal.
    init(jobs: [RenderJob], isEnabled: Bool? = nil) {
        names = jobs.map { URL(fileURLWithPath: $0.input).lastPathComponent }
        let drawn = isEnabled ?? (isatty(STDERR_FILENO) == 1)
        self.isEnabled = drawn
        // The durations are read only for a bar that is drawn.
        let durations = drawn ? jobs.map { try? AudioFileReader(path: $0.input, maxFramesPerRead: 1).info.duration } : []
        let known = durations.compactMap { $0 }
        weights = known.count == jobs.count && known.reduce(0, +) > 0 ? known : Array(repeating: 1, count: jobs.count)
        let bar = ProgressBar(
            label: names.first ?? "", total: Int((weights.reduce(0, +) * Self.partsPerSecond).rounded()), isEnabled: drawn)
        state = Mutex(State(bar: bar, done: Array(repeating: 0, count: jobs.count), current: 0))
    }

    /// File `index` is `permille` done.
    func update(file index: Int, permille: Int) {
        guard isEnabled else { return }
        state.withLock { state in
            state.done[index] = permille
            state.current = index
            draw(&state)
        }
    }

    /// File `index` is over (rendered or failed): it counts as done, as does one whose audio
    /// is all written (its per-mille at 1000, a tail may follow).
    func finished(file index: Int) {
        guard isEnabled else { return }
        state.withLock { state in
            state.done[index] = 1000
            draw(&state)
        }
    }

    private func draw(_ state: inout State) {
        let secondsDone = zip(state.done, weights).reduce(0) { $0 + Double($1.0) / 1000 * $1.1 }
        let elapsed = ContinuousClock.now - started
        let text = Self.text(
            current: names[state.current], filesDone: state.done.filter { $0 == 1000 }.count, files: names.count,
            secondsDone: secondsDone, secondsTotal: weights.reduce(0, +),
            elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        state.bar.label = text.label
        state.bar.update(completed: Int((secondsDone * Self.partsPerSecond).rounded()), status: text.status)
    }

    /// The longest file name shown; a longer one keeps its start and ends in `…`.
    static let longestName = 40

    /// The bar's label and the status after it for given numbers: `b.wav  2/5 files` (the
    /// name alone for one file) and `ETA 0:42` (empty before a few percent).
    static func text(
        current: String, filesDone: Int, files: Int, secondsDone: Double, secondsTotal: Double, elapsedSeconds: Double
    ) -> (label: String, status: String) {
        let name = current.count > longestName ? String(current.prefix(longestName - 1)) + "…" : current
        let label = files > 1 ? "\(name)  \(filesDone)/\(files) files" : name
        return (label, ProgressBar.remaining(done: secondsDone, total: secondsTotal, elapsedSeconds: elapsedSeconds) ?? "")
    }

    /// Runs `body` (which prints) with the bar's line cleared first and drawn again after.
    func printing(_ body: () -> Void) {
        state.withLock { state in
            if isEnabled { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
            body()
            state.bar.redraw()
        }
    }

    /// Shows 100% and ends the bar's line.
    func finish() {
        state.withLock { $0.bar.finish() }
    }
}
