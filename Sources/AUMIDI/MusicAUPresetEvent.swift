/// A unit state restored on a track (`kMusicEventType_AUPreset`, Core Audio's `AUPresetEvent`):
/// when the player passes it, the track's destination unit takes `preset` (its ClassInfo).
/// The model does not read the preset: it keeps the caller's object (a ClassInfo dictionary in
/// the C API) as it was given, compared by identity. Not written to Standard MIDI Files.
/// - Thread: [any]
public struct MusicAUPresetEvent: Sendable, Hashable {
    /// The scope and element the preset was given for (Core Audio's: global, 0).
    public var scope: UInt32
    public var element: UInt32
    /// The preset, kept alive by the event.
    public var preset: Preset

    /// A preset as the caller's object.
    /// - Thread: [any]
    public final class Preset: Hashable, @unchecked Sendable {
        /// The object (never mutated through the event).
        public let object: AnyObject

        /// - Thread: [any]
        public init(_ object: AnyObject) { self.object = object }

        /// - Thread: [any]
        public static func == (lhs: Preset, rhs: Preset) -> Bool { lhs.object === rhs.object }

        /// - Thread: [any]
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(object)) }
    }

    /// `preset` for `scope` and `element`.
    /// - Thread: [any]
    public init(scope: UInt32, element: UInt32, preset: Preset) {
        self.scope = scope
        self.element = element
        self.preset = preset
    }
}
