import Synchronization

/// A unit's parameters: their descriptions (fixed at creation) and their current values,
/// which any thread may read or write without a lock.
/// - Thread: any for values; `infos` and look-ups are immutable after init.
public final class ParameterTable: @unchecked Sendable {
    public let infos: [ParameterInfo]
    private let indexByAddress: [ParameterAddress: Int]
    /// Float bit patterns, one atomic word per parameter.
    private let values: UnsafeMutablePointer<Atomic<UInt32>>

    public init(_ infos: [ParameterInfo]) {
        self.infos = infos
        var indexByAddress: [ParameterAddress: Int] = [:]
        for (index, info) in infos.enumerated() {
            precondition(indexByAddress[info.address] == nil, "parameter \(info.address) is declared twice")
            indexByAddress[info.address] = index
        }
        self.indexByAddress = indexByAddress
        values = .allocate(capacity: Swift.max(1, infos.count))
        for (index, info) in infos.enumerated() {
            (values + index).initialize(to: Atomic(info.defaultValue.bitPattern))
        }
    }

    deinit {
        values.deinitialize(count: infos.count)
        values.deallocate()
    }

    public var count: Int { infos.count }

    /// The slot of a parameter, or nil when the unit has none there.
    public func index(of address: ParameterAddress) -> Int? { indexByAddress[address] }

    /// The slot of a parameter by its identifier (LV2 symbol or native identifier).
    public func index(ofIdentifier identifier: String) -> Int? {
        infos.firstIndex { $0.identifier == identifier }
    }

    /// - Thread: any; lock-free.
    @inline(__always)
    public func value(at index: Int) -> Float {
        Float(bitPattern: values[index].load(ordering: .relaxed))
    }

    /// Stores a value and returns the one it replaced.
    /// - Thread: any; lock-free.
    @inline(__always)
    @discardableResult
    public func exchangeValue(_ value: Float, at index: Int) -> Float {
        Float(bitPattern: values[index].exchange(value.bitPattern, ordering: .relaxed))
    }
}
