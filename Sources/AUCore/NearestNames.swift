// "Did you mean": the one way a user's misspelt reference is matched against what exists
// (units, commands, parameters).

/// How many characters of a reference and of each name the nearness compares (the edit
/// distance costs the product of the lengths).
/// - Thread: [any]
public let comparedNameLength = 128

/// `items` nearest first to `text` (what a user typed), each with its distance: 0 when one
/// of its `keys` contains `text` case-insensitively, else the fewest single-character edits
/// (Levenshtein) from `text` to its nearest key, lowercased. Ties keep the order of `items`.
/// Only the first ``comparedNameLength`` characters of `text` and of each key count.
/// - Thread: [any]
public func nearest<Item>(_ items: [Item], to text: String, keys: (Item) -> [String]) -> [(distance: Int, item: Item)] {
    let needle = String(text.prefix(comparedNameLength)).lowercased()
    let scored = items.enumerated().map { offset, item -> (distance: Int, offset: Int, item: Item) in
        let distance = keys(item).map { key -> Int in
            let lowered = String(key.prefix(comparedNameLength)).lowercased()
            return !needle.isEmpty && lowered.contains(needle) ? 0 : editDistance(needle, lowered)
        }.min() ?? .max
        return (distance, offset, item)
    }
    return scored.sorted { ($0.distance, $0.offset) < ($1.distance, $1.offset) }.map { ($0.distance, $0.item) }
}

/// Whether `distance` (from ``nearest(_:to:keys:)``) is close enough to `text` to suggest:
/// at most a third of its length in edits, at least two.
/// - Thread: [any]
public func isCloseMatch(distance: Int, to text: String) -> Bool {
    distance <= max(2, min(text.count, comparedNameLength) / 3)
}

/// The names close to `text` (``isCloseMatch(distance:to:)``), nearest first, at most `limit`.
/// - Thread: [any]
public func closeNames(to text: String, among names: [String], limit: Int) -> [String] {
    nearest(names, to: text) { [$0] }.prefix { isCloseMatch(distance: $0.distance, to: text) }.prefix(limit).map(\.item)
}

/// The Levenshtein distance between two strings, by characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
