/// One entry of a preset's `midiMap`: a MIDI control (a CC number, pitch bend, or a note)
/// on a channel (any when nil) moves a node's parameter between `minimum` and `maximum`
/// (the parameter's range when nil) along `curve`, glided over `smoothing` milliseconds.
///
/// ```json
/// "midiMap": [{"cc": 7, "channel": 1, "parameter": "amp.output", "min": 0, "max": 1},
///             {"cc": 64, "parameter": "room.bypass_level", "curve": "toggle"},
///             {"pitchBend": true, "parameter": "drive.drive", "smoothing": 30}]
/// ```
/// - Thread: [any] (a plain value).
public struct PresetMIDIMapping: Hashable, Sendable {
    /// What moves the parameter.
    /// - Thread: [any]
    public enum Source: Hashable, Sendable, CustomStringConvertible {
        /// A control change number (0–127); its value 0–127 is the position.
        case controlChange(Int)
        /// The pitch wheel: 0–16383, centre 8192.
        case pitchBend
        /// A note number (0–127): note-on's velocity is the position, note-off is 0.
        case note(Int)

        /// `CC 7`, `pitch bend`, `note 60`.
        /// - Thread: [any]
        public var description: String {
            switch self {
            case .controlChange(let number): "CC \(number)"
            case .pitchBend: "pitch bend"
            case .note(let number): "note \(number)"
            }
        }
    }

    /// How the control's position (0…1) becomes a value.
    /// - Thread: [any]
    public enum Curve: String, CaseIterable, Hashable, Sendable {
        /// minimum + (maximum − minimum) × position.
        case linear
        /// minimum × (maximum / minimum) ^ position (both ends above zero): frequencies, times.
        case log
        /// Each press (a CC crossing 64 upwards, a note-on) flips between minimum and maximum: a latching footswitch.
        case toggle
        /// maximum while held (CC ≥ 64, a note held), minimum when let go.
        case momentary
    }

    /// The keys of an entry, in the order a save writes them.
    public static let keys = ["cc", "pitchBend", "note", "channel", "parameter", "min", "max", "curve", "smoothing"]

    public var source: Source
    /// The MIDI channel, 1–16; nil: every channel.
    public var channel: Int?
    /// `NODE.PARAM`: a node id and one of its parameters (identifier or name).
    public var parameter: String
    public var minimum: Double?
    public var maximum: Double?
    public var curve: Curve
    /// Milliseconds a move glides over (0 or nil: a step at the event's frame).
    public var smoothing: Double?

    /// - Thread: [any]
    public init(
        source: Source, channel: Int? = nil, parameter: String, minimum: Double? = nil, maximum: Double? = nil, curve: Curve = .linear,
        smoothing: Double? = nil
    ) {
        self.source = source
        self.channel = channel
        self.parameter = parameter
        self.minimum = minimum
        self.maximum = maximum
        self.curve = curve
        self.smoothing = smoothing
    }

    /// The node id of ``parameter``: what comes before its first dot.
    /// - Thread: [any]
    public var node: String { String(parameter.prefix { $0 != "." }) }

    /// The parameter key of ``parameter``: what comes after its first dot (empty without one).
    /// - Thread: [any]
    public var parameterKey: String {
        guard let dot = parameter.firstIndex(of: ".") else { return "" }
        return String(parameter[parameter.index(after: dot)...])
    }
}
