/// Who a unit is and what buses it has: what the host lists and finds it by.
/// - Thread: [any] (a plain value).
public struct UnitDescriptor: Sendable {
    public var type: PluginFourCharCode
    public var subtype: PluginFourCharCode
    public var manufacturer: PluginFourCharCode
    public var name: String
    public var manufacturerName: String
    public var version: String
    public var category: String
    /// The default channel count of each input bus (an effect: `[2]`; a generator: `[]`).
    public var inputs: [Int]
    /// The default channel count of each output bus.
    public var outputs: [Int]
    /// The unit sends MIDI from its render (``AudioBlock/sendMIDI(_:at:)``): the SDK offers
    /// the host the MIDI output extension (`AUHOST_EXTENSION_MIDI_OUTPUT`).
    public var sendsMIDI: Bool

    /// - Thread: [any]
    public init(
        type: PluginFourCharCode, subtype: PluginFourCharCode, manufacturer: PluginFourCharCode, name: String,
        manufacturerName: String, version: String = "1.0.0", category: String = "", inputs: [Int] = [2], outputs: [Int] = [2],
        sendsMIDI: Bool = false
    ) {
        self.type = type
        self.subtype = subtype
        self.manufacturer = manufacturer
        self.name = name
        self.manufacturerName = manufacturerName
        self.version = version
        self.category = category
        self.inputs = inputs
        self.outputs = outputs
        self.sendsMIDI = sendsMIDI
    }
}
