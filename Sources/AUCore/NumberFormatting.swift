/// A number as AUHost writes it for a user, in a preset file, a message, a listing or a
/// live command's reply: whole values without a fraction (`48000`, `-24`), others in the
/// shortest form that reads back to the same Double (`0.1`); `nan`, `inf`, `-inf`.
/// - Thread: [any]
public func formatNumber(_ number: Double) -> String {
    if number == number.rounded(), abs(number) < 1e15 {
        return number == 0 ? "0" : String(Int64(number))
    }
    return "\(number)"
}

/// A Float (a parameter's value) as its shortest decimal, so `0.1` stays `0.1` and not
/// `0.10000000149011612`: what live `get` prints and `save` writes, and what `set` and a
/// preset read back to the same Float.
/// - Thread: [any]
public func formatNumber(_ number: Float) -> String { formatNumber(decimalDouble(number)) }

/// The Double whose shortest decimal form is the Float's: what a captured Float is saved as.
/// - Thread: [any]
public func decimalDouble(_ number: Float) -> Double {
    guard number.isFinite else { return Double(number) }
    return Double("\(number)") ?? Double(number)
}
