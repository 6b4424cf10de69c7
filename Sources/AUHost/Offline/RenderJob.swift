import AUFiles

/// One file of a render: where it comes from, where it goes and how it is encoded.
/// - Thread: [any] (a plain value).
public struct RenderJob: Sendable, Equatable {
    public let input: String
    public let output: String
    public let encoding: AudioFileEncoding
    /// `NODE.PARAM=VALUE` settings for this file alone (a manifest row's `set`), over the
    /// preset's and `--set`'s (``LoadedPreset/resolveOverrides(_:)``).
    public var overrides: [String] = []

    /// - Thread: [any]
    public init(input: String, output: String, encoding: AudioFileEncoding, overrides: [String] = []) {
        self.input = input
        self.output = output
        self.encoding = encoding
        self.overrides = overrides
    }
}
