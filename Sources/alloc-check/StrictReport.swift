import AUCore
import Foundation

/// The system calls strict mode (`--strict`) trapped on the render thread, on standard
/// error (``StrictRenderCheck/trappedCalls(limit:)``); returns how many were trapped.
/// - Thread: [control], after the render thread stopped recording.
func reportTrappedCalls() -> UInt64 {
    for text in StrictRenderCheck.trappedCalls() {
        FileHandle.standardError.write(Data("alloc-check: strict: \(text)\n".utf8))
    }
    return StrictRenderCheck.trappedCount
}
