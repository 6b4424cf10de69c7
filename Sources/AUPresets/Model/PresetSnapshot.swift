/// One entry of a preset's `snapshots`: a named set of parameter values (`NODE.PARAM`:
/// value) recalled live with a ramp of `ramp` milliseconds (50 when nil): `snapshot NAME`,
/// or program change N at the MIDI input for the Nth snapshot (from 0).
///
/// ```json
/// "snapshots": [{"name": "clean", "parameters": {"amp.drive": 0.2, "room.mix": 5}},
///               {"name": "lead", "parameters": {"amp.drive": 0.8, "room.mix": 20}, "ramp": 80}]
/// ```
/// - Thread: [any] (a plain value).
public struct PresetSnapshot: Hashable, Sendable {
    /// The keys of a snapshot, in the order a save writes them.
    public static let keys = ["name", "parameters", "ramp"]
    /// The ramp when a snapshot gives none, in milliseconds.
    public static let defaultRamp = 50.0

    public var name: String
    /// `NODE.PARAM` keys and their values, in file order.
    public var parameters: [PresetParameter]
    /// Milliseconds the recall glides over; nil: ``defaultRamp``.
    public var ramp: Double?

    /// - Thread: [any]
    public init(name: String, parameters: [PresetParameter], ramp: Double? = nil) {
        self.name = name
        self.parameters = parameters
        self.ramp = ramp
    }
}
