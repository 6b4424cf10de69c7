import AUCore
import AUNative
import Foundation
import Testing

/// A native unit that checks its output as it writes it says so call by call
/// (`AUHOST_EVENT_OUTPUT_FINITE`), and the graph then skips its own NaN scan of that
/// output: the claim must hold only for calls whose every sample is finite.
@Suite struct CheckedOutputTests {
    /// The gain's steady multiply checks every sample; an overflow to infinity, or a moving
    /// gain (its per-frame ramp checks nothing), leaves the call to the graph's scan.
    @Test func theGainClaimsOnlyOutputsItCheckedWhole() throws {
        let unit = try NativeHarness.unit("aufx:gain:AUHs")
        try NativeHarness.set(unit, "smoothing", 0)
        _ = try NativeHarness.render(unit, input: [NativeHarness.sine(1000, frames: 256)], frames: 256)
        #expect(unit.checkedOutputFrames.load(ordering: .relaxed) == 256, "a steady gain over finite samples")

        for frame in [0, 7, 8, 131, 255] {
            let boost = try NativeHarness.unit("aufx:gain:AUHs")
            try NativeHarness.set(boost, "smoothing", 0)
            try NativeHarness.set(boost, "gain", 24)
            var loud = [Float](repeating: 0.5, count: 256)
            loud[frame] = 3e38
            let output = try NativeHarness.render(boost, input: [loud], frames: 256)
            #expect(output[0][frame].isInfinite)
            #expect(boost.checkedOutputFrames.load(ordering: .relaxed) == 0, "an overflow at frame \(frame) was claimed finite")
        }

        let moving = try NativeHarness.unit("aufx:gain:AUHs")
        try NativeHarness.set(moving, "smoothing", 100)
        _ = try NativeHarness.render(moving, input: [NativeHarness.sine(1000, frames: 256)], frames: 256) { _ in
            try NativeHarness.set(moving, "gain", -20)
        }
        #expect(moving.checkedOutputFrames.load(ordering: .relaxed) == 0, "a ramp's frames are not checked")
    }
}
