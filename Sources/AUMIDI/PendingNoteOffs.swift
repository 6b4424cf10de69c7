import AUCore

/// The notes a player has started and not yet ended: each one's note-off, when it is due
/// (in song seconds) and where it goes. Fixed capacity, render thread only.
/// - Thread: [render] once made; [control] makes and frees it.
struct PendingNoteOffs {
    struct Entry {
        var second: Double
        var event: MIDIEvent
        var destination: MIDIEndpoint
    }

    static let capacity = 4096
    let entries: UnsafeMutablePointer<Entry>
    var count = 0

    init() { entries = .allocate(capacity: Self.capacity) }

    func deallocate() { entries.deallocate() }

    /// Adds a note-off; false when full (the caller then ends the note at once).
    mutating func add(_ entry: Entry) -> Bool {
        guard count < Self.capacity else { return false }
        entries[count] = entry
        count += 1
        return true
    }

    /// The index of the earliest, nil when none is pending.
    func earliest() -> Int? {
        guard count > 0 else { return nil }
        var best = 0
        for index in 1..<count where entries[index].second < entries[best].second { best = index }
        return best
    }

    /// Removes the entry at `index` (the last one takes its place).
    mutating func remove(at index: Int) {
        count -= 1
        entries[index] = entries[count]
    }
}
