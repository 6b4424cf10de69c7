/// How many samples differ between two renders (`[channel][frame]`), compared exactly; all
/// of them when the shapes differ. A count, so that a failed expectation prints one number.
/// - Thread: [any]
public func differingSamples(_ one: [[Float]], _ other: [[Float]]) -> Int {
    guard one.count == other.count, zip(one, other).allSatisfy({ $0.count == $1.count }) else { return max(one.joined().count, other.joined().count, 1) }
    return zip(one.joined(), other.joined()).filter { $0 != $1 }.count
}
