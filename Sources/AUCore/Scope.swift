/// Where a property or parameter lives (`AudioUnitScope`): the whole unit, one input bus,
/// one output bus, or a group. Together with an element (the bus number, or for
/// ParameterInfo the parameter ID) it addresses one value.
/// - Thread: [any]
public enum Scope: UInt32, Sendable, BitwiseCopyable, CaseIterable, CustomStringConvertible {
    case global = 0
    case input = 1
    case output = 2
    case group = 3

    /// - Thread: [any]
    public var description: String {
        switch self {
        case .global: "global"
        case .input: "input"
        case .output: "output"
        case .group: "group"
        }
    }
}

/// A bus number within a scope (`AudioUnitElement`).
/// - Thread: [any]
public typealias Element = Int
