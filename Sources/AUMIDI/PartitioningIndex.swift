extension RandomAccessCollection {
    /// The first index whose element satisfies `isInSecondPart`, in a collection already
    /// partitioned by it (every element that does comes after every one that does not), by
    /// binary search; `endIndex` when none does. Events sorted by time stamp and map
    /// segments sorted by their start are such collections.
    package func partitioningIndex(where isInSecondPart: (Element) -> Bool) -> Index {
        var low = startIndex
        var remaining = count
        while remaining > 0 {
            let half = remaining / 2
            let middle = index(low, offsetBy: half)
            if isInSecondPart(self[middle]) {
                remaining = half
            } else {
                low = index(after: middle)
                remaining -= half + 1
            }
        }
        return low
    }
}

/// The first of `0..<count` for which `isInSecondPart` holds, in a range partitioned by it,
/// by binary search; `count` when none does. Not generic and without a collection: what the
/// render thread uses (an unspecialized generic search allocates in debug builds).
/// - Thread: [render] No allocation.
@inline(__always)
package func partitioningIndex(count: Int, where isInSecondPart: (Int) -> Bool) -> Int {
    var low = 0
    var remaining = count
    while remaining > 0 {
        let half = remaining / 2
        if isInSecondPart(low + half) {
            remaining = half
        } else {
            low += half + 1
            remaining -= half + 1
        }
    }
    return low
}
