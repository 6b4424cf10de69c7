/// One end of a connection, `"node:bus"`: a node id, or `input` (where audio enters the
/// graph; a source only) or `output` (where it leaves; a destination only).
/// - Thread: [any] (a plain value).
public struct PresetEndpoint: Hashable, Sendable, CustomStringConvertible {
    public static let inputName = "input"
    public static let outputName = "output"

    /// The bus numbers an end may name: a unit has at most 1024 buses in a scope (the
    /// ElementCount a unit accepts), so `0...1023`.
    public static let busNumbers = 0...1023

    public var node: String
    public var bus: Int

    /// - Thread: [any]
    public init(node: String, bus: Int) {
        self.node = node
        self.bus = bus
    }

    /// The graph's input, bus `bus`.
    /// - Thread: [any]
    public static func input(_ bus: Int = 0) -> PresetEndpoint { PresetEndpoint(node: inputName, bus: bus) }
    /// The graph's output, bus `bus`.
    /// - Thread: [any]
    public static func output(_ bus: Int = 0) -> PresetEndpoint { PresetEndpoint(node: outputName, bus: bus) }

    /// Parses `"node:bus"` (the last colon splits; the bus is a decimal number, `Int.max`
    /// when it has more digits than an `Int` holds, for the range check to report); nil
    /// when the text is not that.
    /// - Thread: [any]
    public init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let node = String(text[..<colon])
        let busText = text[text.index(after: colon)...]
        guard !node.isEmpty, !busText.isEmpty, busText.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        self.init(node: node, bus: Int(busText) ?? .max)
    }

    /// `node:bus`, as the file writes it.
    /// - Thread: [any]
    public var description: String { "\(node):\(bus)" }
}
