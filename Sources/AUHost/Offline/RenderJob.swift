import AUFiles

/// One file of a render: where it comes from, where it goes and how it is encoded.
/// - Thread: [any] (a plain value).
public struct RenderJob: Sendable, Equatable {
    public let input: String
    public let output: String
    public let encoding: AudioFileEncoding

    /// - Thread: [any]
    public init(input: String, output: String, encoding: AudioFileEncoding) {
        self.input = input
        self.output = output
        self.encoding = encoding
    }
}
