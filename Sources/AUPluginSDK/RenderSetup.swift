/// What a unit is told before it renders: the sample rate, the most frames one render
/// asks for, and the channel count of each bus.
/// - Thread: [control] (made by the SDK in `initialize`).
public struct RenderSetup: Sendable {
    public var sampleRate: Double
    public var maximumFrames: Int
    public var inputChannels: [Int]
    public var outputChannels: [Int]

    /// - Thread: [control]
    public init(sampleRate: Double, maximumFrames: Int, inputChannels: [Int], outputChannels: [Int]) {
        self.sampleRate = sampleRate
        self.maximumFrames = maximumFrames
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
    }
}

/// Why a unit refuses to initialize; the host shows the message.
/// - Thread: [control]
public struct PluginError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// - Thread: [control]
    public init(_ message: String) { self.message = message }
    /// - Thread: [control]
    public var description: String { message }
}
