extension RandomAccessCollection {
    /// The first index whose element satisfies `isInSecondPart`, in a collection already
    /// partitioned by it (every element that does comes after every one that does not), by
    /// binary search; `endIndex` when none does. Events sorted by time stamp and map
    /// segments sorted by their start are such collections.
    func partitioningIndex(where isInSecondPart: (Element) -> Bool) -> Index {
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
