import AUCore

/// Adapts a channel count: what a file has to what a chain takes, and back.
///
/// The rule, for N input and M output channels:
/// - N = M: each channel is copied.
/// - N = 1 (mono to anything): every output is the one input (duplicated, no gain change).
/// - M = 1 (anything to mono): the output is the average of all inputs (so a stereo file
///   with the same signal on both sides keeps its level).
/// - M > N (widening, N > 1): output m is input m mod N — stereo to four is L R L R.
/// - M < N (folding, M > 1): output m is the average of the inputs k with k mod M = m —
///   four to stereo is (1+3)/2, (2+4)/2.
/// No matrix knows surround layouts; a chain that needs one does its own mixing.
/// - Thread: [any]; ``map(_:into:)`` does not allocate (render-safe).
public struct ChannelMapper: Sendable, CustomStringConvertible {
    public let inputChannels: Int
    public let outputChannels: Int

    /// - Thread: [any]
    public init(from inputChannels: Int, to outputChannels: Int) {
        precondition(inputChannels > 0 && outputChannels > 0, "channel counts must be positive")
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
    }

    /// True when ``map(_:into:)`` only copies.
    /// - Thread: [any]
    public var isIdentity: Bool { inputChannels == outputChannels }

    /// Maps `min(input.frameCount, output.frameCount)` frames of `input` into `output`
    /// (`input` and `output` must not share memory unless the mapping is the identity).
    /// - Thread: [any]; allocation-free.
    public func map(_ input: AudioBuffers, into output: AudioBuffers) {
        precondition(input.channelCount == inputChannels && output.channelCount == outputChannels, "channel counts differ from the mapper's")
        let frames = min(input.frameCount, output.frameCount)
        for m in 0..<outputChannels {
            let target = output.channelPointers[m]
            if inputChannels <= outputChannels {
                let source = input.channelPointers[m % inputChannels]
                if source != target { target.update(from: source, count: frames) }
                continue
            }
            // Folding: average inputs m, m + M, m + 2M, ...
            let sourceCount = (inputChannels - 1 - m) / outputChannels + 1
            let gain = 1 / Float(sourceCount)
            for frame in 0..<frames { target[frame] = input.channelPointers[m][frame] }
            var k = m + outputChannels
            while k < inputChannels {
                let source = input.channelPointers[k]
                for frame in 0..<frames { target[frame] += source[frame] }
                k += outputChannels
            }
            for frame in 0..<frames { target[frame] *= gain }
        }
    }

    /// `stereo → mono: average`.
    /// - Thread: [any]
    public var description: String {
        func name(_ count: Int) -> String { count == 1 ? "mono" : count == 2 ? "stereo" : "\(count) ch" }
        let rule = if isIdentity { "copy" }
            else if inputChannels == 1 { "duplicate" }
            else if outputChannels == 1 { "average" }
            else if outputChannels > inputChannels { "repeat channels in order" }
            else { "average channels folded in order" }
        return "\(name(inputChannels)) → \(name(outputChannels)): \(rule)"
    }
}
