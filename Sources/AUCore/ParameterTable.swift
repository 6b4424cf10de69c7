import Foundation
import Synchronization

/// A unit's parameters: their descriptions (fixed at creation) and their current values,
/// which any thread may read or write without a lock.
/// - Thread: [any] for values; `infos` and look-ups are immutable after init.
public final class ParameterTable: @unchecked Sendable {
    public let infos: [ParameterInfo]
    private let indexByAddress: [ParameterAddress: Int]
    /// Float bit patterns, one atomic word per parameter (inlinable: render paths of other
    /// modules read it without a call).
    @usableFromInline let values: UnsafeMutablePointer<Atomic<UInt32>>
    /// Whether each slot is an output (a meter): writes to outputs do not count as changes.
    /// Stored right after `values`, in the same allocation, so that a render path that reads
    /// a value and its kind touches one cache line for a small table, not two.
    @usableFromInline let isOutput: UnsafeMutablePointer<Bool>
    /// The slots of the output parameters, in order.
    public let outputSlots: [Int]
    /// Counts writes to input parameters, so that a render path that copies values into a
    /// plugin (LV2 control ports) copies only after something changed.
    @usableFromInline let inputChanges = Atomic<UInt64>(0)
    /// Each slot's address and what a write may set it to, in plain memory: what a render path
    /// that looks a parameter up by address reads (``renderIndex(of:)``).
    private let renderEntries: UnsafeMutablePointer<RenderEntry>
    private let renderEntryCount: Int

    /// A slot as ``renderIndex(of:)`` and ``renderAccepts(_:at:)`` read it.
    private struct RenderEntry: BitwiseCopyable {
        let address: ParameterAddress
        let minimum: Float
        let maximum: Float
        let isWritable: Bool
        let takesWholeValues: Bool
    }

    /// - Thread: [any]
    public init(_ infos: [ParameterInfo]) {
        self.infos = infos
        var indexByAddress: [ParameterAddress: Int] = [:]
        for (index, info) in infos.enumerated() {
            precondition(indexByAddress[info.address] == nil, "parameter \(info.address) is declared twice")
            indexByAddress[info.address] = index
        }
        self.indexByAddress = indexByAddress
        let count = Swift.max(1, infos.count)
        let storage = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<UInt32>.stride + count, alignment: 64)
        values = storage.bindMemory(to: Atomic<UInt32>.self, capacity: count)
        isOutput = (storage + count * MemoryLayout<UInt32>.stride).bindMemory(to: Bool.self, capacity: count)
        outputSlots = infos.indices.filter { infos[$0].isOutput }
        renderEntries = .allocate(capacity: count)
        renderEntryCount = infos.count
        for (index, info) in infos.enumerated() {
            (renderEntries + index).initialize(to: RenderEntry(
                address: info.address, minimum: info.minValue, maximum: info.maxValue, isWritable: info.isWritable,
                takesWholeValues: info.unit == .indexed || info.unit == .boolean))
        }
        for (index, info) in infos.enumerated() {
            (values + index).initialize(to: Atomic(info.defaultValue.bitPattern))
            (isOutput + index).initialize(to: info.isOutput)
        }
    }

    deinit {
        values.deinitialize(count: infos.count)
        UnsafeMutableRawPointer(values).deallocate()
        renderEntries.deallocate()
    }

    /// How many times an input parameter was written; a ``ParameterChangeCursor`` compares
    /// two readings. Acquiring: the values written before the count are seen.
    /// - Thread: [any]; lock-free.
    @inlinable @inline(__always)
    var inputChangeCount: UInt64 { inputChanges.load(ordering: .acquiring) }

    @inlinable @inline(__always)
    func countChange(at index: Int) {
        if !isOutput[index] { inputChanges.wrappingAdd(1, ordering: .releasing) }
    }

    /// - Thread: [any]
    public var count: Int { infos.count }

    /// The slot of `address`, found by a scan of plain memory (no dictionary, no reference
    /// counting): for a render path that is given an address (AudioToolbox's
    /// `AudioUnitSetParameter` called from a render callback).
    /// - Thread: [render] No allocation, no lock.
    public func renderIndex(of address: ParameterAddress) -> Int? {
        for index in 0..<renderEntryCount where renderEntries[index].address == address { return index }
        return nil
    }

    /// Whether slot `index` takes `value` (writable, finite, in range, whole where it must
    /// be): ``ParameterInfo/validate(_:)``'s rules without its message.
    /// - Thread: [render] No allocation, no lock.
    public func renderAccepts(_ value: Float, at index: Int) -> Bool {
        let entry = renderEntries[index]
        return entry.isWritable && value.isFinite && value >= entry.minimum && value <= entry.maximum
            && !(entry.takesWholeValues && value != value.rounded())
    }

    /// The slot of a parameter, or nil when the unit has none there.
    /// - Thread: [any]
    public func index(of address: ParameterAddress) -> Int? { indexByAddress[address] }

    /// The slot of a parameter by its identifier (LV2 symbol or native identifier).
    /// - Thread: [any]
    public func index(ofIdentifier identifier: String) -> Int? {
        infos.firstIndex { $0.identifier == identifier }
    }

    /// The parameter with `identifier` (a writable one first when several share it): what a
    /// preset file's or `--set`'s key names.
    /// - Thread: [any]
    public func info(forIdentifier identifier: String) -> ParameterInfo? {
        let identified = infos.filter { $0.identifier == identifier }
        return identified.first(where: \.isWritable) ?? identified.first
    }

    /// The parameter a live command's key names (`get` and `set` alike): the one with that
    /// identifier (``info(forIdentifier:)``), else the one with that name, compared
    /// case-insensitively, else the one identifier equal to it but for case.
    /// - Thread: [any]
    public func info(forKey key: String) -> ParameterInfo? {
        info(forIdentifier: key) ?? infos.first { $0.name.caseInsensitiveCompare(key) == .orderedSame } ?? info(forIdentifierIgnoringCase: key)
    }

    /// The parameter whose identifier is `key` but for case, when only one identifier is;
    /// nil when none or several are (`Q` and `q`).
    /// - Thread: [any]
    public func info(forIdentifierIgnoringCase key: String) -> ParameterInfo? {
        let identifiers = Set(infos.map(\.identifier).filter { $0.caseInsensitiveCompare(key) == .orderedSame })
        guard identifiers.count == 1, let identifier = identifiers.first else { return nil }
        return info(forIdentifier: identifier)
    }

    /// Every slot's value, in slot order (each read on its own).
    /// - Thread: [any]
    public var currentValues: [Float] { (0..<count).map { value(at: $0) } }

    /// - Thread: [any]; lock-free.
    @inlinable @inline(__always)
    public func value(at index: Int) -> Float {
        Float(bitPattern: values[index].load(ordering: .relaxed))
    }

    /// Stores a value (for a slot with one writer, which needs no read-modify-write).
    /// - Thread: [any]; lock-free.
    @inlinable @inline(__always)
    public func storeValue(_ value: Float, at index: Int) {
        values[index].store(value.bitPattern, ordering: .relaxed)
        countChange(at: index)
    }

    /// Stores a value and returns the one it replaced.
    /// - Thread: [any]; lock-free.
    @inlinable @inline(__always)
    @discardableResult
    public func exchangeValue(_ value: Float, at index: Int) -> Float {
        let old = Float(bitPattern: values[index].exchange(value.bitPattern, ordering: .relaxed))
        countChange(at: index)
        return old
    }
}

/// Where a render path last looked at a ``ParameterTable``: tells it whether any input
/// parameter was written since, so that it hands values to its plugin (LV2 control ports,
/// a native unit's events, FluidSynth's settings) only after something changed. The one way
/// units notice parameter changes.
///
/// Noncopyable, held in a `let` by its one reader (a render state object): looking costs one
/// relaxed load and, after a change, one store, with no exclusivity check.
/// - Thread: [render] (one reader); created on [control].
public struct ParameterChangeCursor: ~Copyable, Sendable {
    /// The table's input change count when last looked at (`UInt64.max`: never looked).
    @usableFromInline let seen = Atomic<UInt64>(.max)

    /// A cursor that has seen nothing: its first look reports a change.
    /// - Thread: [control]
    public init() {}

    /// Whether an input parameter of `table` was written since the last look (always on the
    /// first); moves the cursor to now. The values written before the change are visible to
    /// the caller once this returns true; a write racing the look is reported by the next.
    /// - Thread: [render]; lock-free.
    @inlinable @inline(__always)
    public func advance(over table: ParameterTable) -> Bool {
        let changes = table.inputChangeCount
        guard seen.load(ordering: .relaxed) != changes else { return false }
        seen.store(changes, ordering: .relaxed)
        return true
    }
}
