import AUCore
import AUMIDI

/// The notes a player has started and not yet ended: each one's note-off, when it is due
/// (in song seconds) and where it goes. A binary min-heap on the due second, so that the
/// earliest is found at once and adding or removing one costs O(log n) (a linear scan per
/// event made a song of a million notes at one tick stall for seconds). Fixed capacity,
/// render thread only.
/// - Thread: [render] once made; [control] makes and frees it.
struct PendingNoteOffs {
    struct Entry {
        var second: Double
        var event: MIDIEvent
        var destination: MIDIEndpoint
    }

    static let capacity = 4096
    /// The heap: `entries[0]` is due first; each entry is due no later than its children.
    let entries: UnsafeMutablePointer<Entry>
    var count = 0

    init() { entries = .allocate(capacity: Self.capacity) }

    func deallocate() { entries.deallocate() }

    /// Adds a note-off; false when full (the caller then ends the note at once).
    mutating func add(_ entry: Entry) -> Bool {
        guard count < Self.capacity else { return false }
        var child = count
        count += 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entry.second < entries[parent].second else { break }
            entries[child] = entries[parent]
            child = parent
        }
        entries[child] = entry
        return true
    }

    /// The note-off due first, nil when none is pending.
    func earliest() -> Entry? { count > 0 ? entries[0] : nil }

    /// Removes the note-off due first (``earliest()``).
    mutating func removeEarliest() {
        guard count > 0 else { return }
        count -= 1
        guard count > 0 else { return }
        let last = entries[count]
        var parent = 0
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count, entries[child + 1].second < entries[child].second { child += 1 }
            guard entries[child].second < last.second else { break }
            entries[parent] = entries[child]
            parent = child
        }
        entries[parent] = last
    }
}
