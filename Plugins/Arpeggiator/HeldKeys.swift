import AUPluginSDK

/// A key held down: its note, channel and velocity as it was pressed.
/// - Thread: render (a plain value).
struct HeldKey: Equatable {
    var note: UInt8
    var channel: UInt8
    var velocity: UInt8

    static let none = HeldKey(note: 0, channel: 0, velocity: 0)

    /// The note-on that plays this key.
    var noteOn: PluginMIDIEvent { PluginMIDIEvent(status: 0x90 | channel, data1: note, data2: velocity) }
    /// The note-off that ends it.
    var noteOff: PluginMIDIEvent { PluginMIDIEvent(status: 0x80 | channel, data1: note, data2: 0) }
}

/// The keys held down, in the order they were pressed: at most ``capacity`` (a key pressed
/// beyond them is ignored). Inline storage: no heap buffer, so neither a copy nor a change
/// retains anything (an Array here cost one retain on the render thread per note, when the
/// unit passed its keys to the sequence).
/// - Thread: render (a plain value).
struct HeldKeys {
    static let capacity = InlineArray<16, HeldKey>.count

    private var keys = InlineArray<16, HeldKey>(repeating: .none)
    private(set) var count = 0

    subscript(index: Int) -> HeldKey { keys[index] }

    /// Holds `key` (pressed again, it moves to the end of the order with its new velocity).
    mutating func press(_ key: HeldKey) {
        release(note: key.note, channel: key.channel)
        guard count < Self.capacity else { return }
        keys[count] = key
        count += 1
    }

    /// Lets go of the key of `note` on `channel`, if it is held.
    mutating func release(note: UInt8, channel: UInt8) {
        var index = 0
        while index < count && !(keys[index].note == note && keys[index].channel == channel) { index += 1 }
        guard index < count else { return }
        while index + 1 < count {
            keys[index] = keys[index + 1]
            index += 1
        }
        count -= 1
    }

    mutating func removeAll() { count = 0 }
}
