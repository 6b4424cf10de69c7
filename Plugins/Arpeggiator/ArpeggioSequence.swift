/// The order an arpeggio plays the held keys in.
/// - Thread: any (a plain value).
enum ArpeggioPattern: Int, CaseIterable {
    case up = 0, down, upDown, asPlayed

    static let names = ["Up", "Down", "Up-Down", "As Played"]
}

/// The notes one cycle of the arpeggio plays, in order: the held keys sorted by pitch (or
/// as played), repeated an octave higher for each octave of the range, then reversed or
/// bounced by the pattern (up-down does not repeat its top and bottom notes). Notes above
/// 127 are left out. Fixed storage: rebuilding allocates nothing.
/// - Thread: render (a plain value).
struct ArpeggioSequence {
    static let maximumOctaves = 4
    /// Up-down plays every note of the range twice but the two ends.
    static let capacity = InlineArray<128, HeldKey>.count  // 2 × HeldKeys.capacity × maximumOctaves

    // Inline storage, as HeldKeys': nothing retained on the render thread.
    private var steps = InlineArray<128, HeldKey>(repeating: .none)
    /// The held keys in the order of one octave (scratch for ``rebuild(from:pattern:octaves:)``).
    private var order = InlineArray<16, HeldKey>(repeating: .none)
    private(set) var count = 0

    subscript(index: Int) -> HeldKey { steps[index] }

    /// Makes the sequence of `keys` for `pattern` over `octaves` octaves (1 ... 4).
    mutating func rebuild(from keys: HeldKeys, pattern: ArpeggioPattern, octaves: Int) {
        for index in 0..<keys.count { order[index] = keys[index] }
        if pattern != .asPlayed { sortByNote(keys.count) }
        count = 0
        for octave in 0..<min(max(octaves, 1), Self.maximumOctaves) {
            for index in 0..<keys.count where Int(order[index].note) + 12 * octave <= 127 {
                var key = order[index]
                key.note += UInt8(12 * octave)
                steps[count] = key
                count += 1
            }
        }
        switch pattern {
        case .down: reverse(count)
        case .upDown:
            let rising = count
            var index = rising - 2
            while index > 0 {
                steps[count] = steps[index]
                count += 1
                index -= 1
            }
        case .up, .asPlayed: break
        }
    }

    /// An insertion sort of the first `count` keys of ``order`` by note (stable; at most 16
    /// keys, and the standard library's sort may allocate).
    private mutating func sortByNote(_ count: Int) {
        guard count > 1 else { return }
        for index in 1..<count {
            let key = order[index]
            var position = index
            while position > 0 && order[position - 1].note > key.note {
                order[position] = order[position - 1]
                position -= 1
            }
            order[position] = key
        }
    }

    private mutating func reverse(_ count: Int) {
        var low = 0, high = count - 1
        while low < high {
            steps.swapAt(low, high)
            low += 1
            high -= 1
        }
    }
}
