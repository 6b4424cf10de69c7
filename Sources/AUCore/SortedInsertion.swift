extension UnsafeMutablePointer {
    /// Inserts `element` into the first `count` elements, which are sorted by `key`, after
    /// those with an equal key (a stable insertion sort's step), and counts it. The event
    /// lists of a cycle are sorted so as their events arrive.
    /// - Thread: [any] (render: no allocation, no lock).
    @inlinable @inline(__always)
    public func insertSorted<Key: Comparable>(_ element: Pointee, count: inout Int, by key: (Pointee) -> Key) {
        var position = count
        let elementKey = key(element)
        while position > 0 && key(self[position - 1]) > elementKey {
            self[position] = self[position - 1]
            position -= 1
        }
        self[position] = element
        count += 1
    }
}
