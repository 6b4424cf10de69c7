import AUCore
import CLilv
import Glibc
import Synchronization

/// The host's URID map and unmap (`urid:map`, `urid:unmap`), shared by every unit of one
/// LV2 world so that URIDs agree between plugins and in saved state.
///
/// Look-ups are lock-free from any thread: an insert-only open-addressing table whose
/// slots and strings are published with release stores. Inserting a new URI takes a mutex
/// and copies the string, so it happens only off the render thread. A plugin that maps a
/// URI the world has never seen from inside `run()` gets 0 ("could not map", which the
/// urid spec allows) and the miss is counted in ``renderThreadMisses``: the host interns
/// every URI it uses itself at start-up, and plugins map theirs in `instantiate()`.
/// - Thread: [any] for ``map(_:)`` / ``unmap(_:)``; inserts only off the render thread.
final class URIDMap: @unchecked Sendable {
    /// The most URIDs one world hands out.
    static let capacity = 16_384
    private static let slotCount = 32_768  // power of two, twice the capacity

    /// URID (or 0 for empty), by hash slot.
    private let slots: UnsafeMutablePointer<Atomic<UInt32>>
    /// The C string of each URID, as a pointer bit pattern (0 = none).
    private let strings: UnsafeMutablePointer<Atomic<Int>>
    /// How many URIDs are in use; held while inserting.
    private let inserting = Mutex<UInt32>(0)
    private let misses = Atomic<Int>(0)

    /// The feature data handed to plugins; they point back at this object unretained.
    let mapFeatureData: UnsafeMutablePointer<LV2_URID_Map>
    let unmapFeatureData: UnsafeMutablePointer<LV2_URID_Unmap>

    /// - Thread: [control]
    init() {
        slots = .allocate(capacity: Self.slotCount)
        for index in 0..<Self.slotCount { (slots + index).initialize(to: Atomic(0)) }
        strings = .allocate(capacity: Self.capacity)
        for index in 0..<Self.capacity { (strings + index).initialize(to: Atomic(0)) }
        mapFeatureData = .allocate(capacity: 1)
        unmapFeatureData = .allocate(capacity: 1)
        let handle = Unmanaged.passUnretained(self).toOpaque()
        mapFeatureData.initialize(to: LV2_URID_Map(handle: handle, map: { handle, uri in
            guard let handle, let uri else { return 0 }
            return Unmanaged<URIDMap>.fromOpaque(handle)._withUnsafeGuaranteedRef { $0.map(uri) }
        }))
        unmapFeatureData.initialize(to: LV2_URID_Unmap(handle: handle, unmap: { handle, urid in
            guard let handle else { return nil }
            return Unmanaged<URIDMap>.fromOpaque(handle)._withUnsafeGuaranteedRef { $0.unmap(urid) }
        }))
    }

    deinit {
        for id in 1..<Self.capacity {
            let bits = strings[id].load(ordering: .relaxed)
            if bits != 0 { free(UnsafeMutableRawPointer(bitPattern: bits)) }
        }
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
        strings.deinitialize(count: Self.capacity)
        strings.deallocate()
        mapFeatureData.deallocate()
        unmapFeatureData.deallocate()
    }

    /// How many times a plugin asked, on the render thread, for a URI not yet mapped.
    var renderThreadMisses: Int { misses.load(ordering: .relaxed) }

    /// The URID of `uri`, mapping it if new (0 only on the render thread for a new URI or
    /// when the table is full).
    /// - Thread: [any]; lock-free when the URI is known.
    func map(_ uri: UnsafePointer<CChar>) -> LV2_URID {
        let hash = Self.hash(uri)
        if let known = find(uri, hash: hash) { return known }
        if RenderThread.isCurrent {
            misses.add(1, ordering: .relaxed)
            return 0
        }
        return inserting.withLock { count -> LV2_URID in
            if let known = find(uri, hash: hash) { return known }
            guard Int(count) + 1 < Self.capacity, let copy = strdup(uri) else { return 0 }
            count += 1
            let id = count
            strings[Int(id)].store(Int(bitPattern: copy), ordering: .releasing)
            var slot = Int(hash) & (Self.slotCount - 1)
            while slots[slot].load(ordering: .relaxed) != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
            slots[slot].store(id, ordering: .releasing)
            return id
        }
    }

    /// Maps a Swift string.
    /// - Thread: [control] or worker (makes a C string).
    func map(_ uri: String) -> LV2_URID { uri.withCString { map($0) } }

    /// The URI of a URID, or nil when unknown. The string lives as long as the map.
    /// - Thread: [any]; lock-free.
    func unmap(_ urid: LV2_URID) -> UnsafePointer<CChar>? {
        guard urid > 0, Int(urid) < Self.capacity else { return nil }
        let bits = strings[Int(urid)].load(ordering: .acquiring)
        return UnsafePointer(bitPattern: bits)
    }

    /// The URI of a URID as a Swift string.
    /// - Thread: [control]
    func uri(of urid: LV2_URID) -> String? { unmap(urid).map { String(cString: $0) } }

    private func find(_ uri: UnsafePointer<CChar>, hash: UInt32) -> LV2_URID? {
        var slot = Int(hash) & (Self.slotCount - 1)
        while true {
            let id = slots[slot].load(ordering: .acquiring)
            if id == 0 { return nil }
            if let known = UnsafePointer<CChar>(bitPattern: strings[Int(id)].load(ordering: .acquiring)), strcmp(known, uri) == 0 {
                return id
            }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
    }

    /// FNV-1a over the bytes of a C string.
    private static func hash(_ text: UnsafePointer<CChar>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        var pointer = text
        while pointer.pointee != 0 {
            hash = (hash ^ UInt32(UInt8(bitPattern: pointer.pointee))) &* 16_777_619
            pointer += 1
        }
        return hash
    }
}
