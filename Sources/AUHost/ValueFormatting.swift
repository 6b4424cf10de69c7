import Foundation

/// `0.25`, `20000`, `-inf`: a parameter value short and exact enough for a listing or a
/// command reply.
/// - Thread: [any]
public func formatValue(_ value: Float) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    if value == value.rounded() && abs(value) < 1e9 { return String(Int(value)) }
    return String(format: "%g", Double(value))
}
