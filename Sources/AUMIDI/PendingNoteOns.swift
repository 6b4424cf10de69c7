/// The note-ons of a track still waiting for their note-offs, first in first out per channel
/// and key, while a track is read.
struct PendingNoteOns {
    /// A note-on waiting: where its event is, when it started, its velocity.
    struct Entry {
        var eventIndex: Int
        var tick: Int64
        var velocity: UInt8
    }

    /// Per channel * 128 + key: the waiting note-ons, oldest first from `heads`.
    private var queues = [[Entry]](repeating: [], count: 16 * 128)
    private var heads = [Int](repeating: 0, count: 16 * 128)

    mutating func push(_ entry: Entry, key: Int) {
        queues[key].append(entry)
    }

    mutating func pop(key: Int) -> Entry? {
        let head = heads[key]
        guard head < queues[key].count else { return nil }
        let entry = queues[key][head]
        if head + 1 == queues[key].count {
            queues[key].removeAll(keepingCapacity: true)
            heads[key] = 0
        } else {
            heads[key] = head + 1
        }
        return entry
    }

    /// The note-ons never released.
    func remaining() -> [Entry] {
        var entries: [Entry] = []
        for key in 0..<queues.count where heads[key] < queues[key].count {
            entries.append(contentsOf: queues[key][heads[key]...])
        }
        return entries
    }
}
