import CSamplerate

// The one file that names libsamplerate's C symbols.

/// One libsamplerate converter state (`SRC_STATE *`) for a single channel, deleted with
/// the object.
/// - Thread: [control]; one state is used by one thread at a time.
final class SamplerateState {
    private let state: OpaquePointer

    /// `nil` and libsamplerate's message when it cannot be made.
    static func make(converter: Int32) -> Result<SamplerateState, SamplerateFailure> {
        var error: Int32 = 0
        guard let state = src_new(converter, 1, &error) else {
            return .failure(SamplerateFailure(message: String(cString: src_strerror(error))))
        }
        return .success(SamplerateState(state: state))
    }

    private init(state: OpaquePointer) { self.state = state }

    deinit { src_delete(state) }

    /// One `src_process` call: converts up to `inputFrames` into up to `outputCapacity`
    /// frames; returns what it used and made, or libsamplerate's message.
    func process(
        input: UnsafePointer<Float>?, inputFrames: Int, output: UnsafeMutablePointer<Float>, outputCapacity: Int,
        ratio: Double, endOfInput: Bool
    ) -> Result<(used: Int, generated: Int), SamplerateFailure> {
        var data = SRC_DATA(
            data_in: input, data_out: output, input_frames: inputFrames, output_frames: outputCapacity,
            input_frames_used: 0, output_frames_gen: 0, end_of_input: endOfInput ? 1 : 0, src_ratio: ratio)
        let status = src_process(state, &data)
        guard status == 0 else { return .failure(SamplerateFailure(message: String(cString: src_strerror(status)))) }
        return .success((data.input_frames_used, data.output_frames_gen))
    }

    /// Whether libsamplerate accepts `ratio` (1/256 ... 256).
    static func isValid(ratio: Double) -> Bool { src_is_valid_ratio(ratio) != 0 }

    static let sincBest = Int32(SRC_SINC_BEST_QUALITY)
    static let sincMedium = Int32(SRC_SINC_MEDIUM_QUALITY)
    static let sincFastest = Int32(SRC_SINC_FASTEST)
}

/// libsamplerate's explanation of a failure.
struct SamplerateFailure: Error {
    let message: String
}
