import AUCore

/// A parameter value as a file writes it: a number in the parameter's own unit, or, for
/// an indexed parameter, one of its value strings (matched without regard to case).
/// - Thread: [any] (a plain value).
public enum PresetParameterValue: Hashable, Sendable, CustomStringConvertible {
    case number(Double)
    case named(String)

    /// `-18`, `0.5`, or `"Bass Booster"` (quoted).
    /// - Thread: [any]
    public var description: String {
        switch self {
        case .number(let number): formatNumber(number)
        case .named(let name): quoted(name)
        }
    }
}
