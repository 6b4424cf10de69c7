import Synchronization

/// Patch messages between a unit's control side and its plugin: atoms the host sends
/// (`patch:Set`, `patch:Get`) wait in a lock-free ring until the render thread copies them
/// into the plugin's control atom input at its next run; the `patch:Set` and `patch:Put`
/// events the plugin writes on its atom outputs are copied into a second ring for the
/// control side to read. The unit owns one channel for all its instances, so a message
/// sent before ``AudioUnit/initialize()`` (or between two instances) reaches the next run.
/// - Thread: [control] ``send(_:)`` and ``receive(_:)`` (control threads take turns under a
///   lock); [render] ``hasOutgoing``, ``deliver(into:)``, ``collect(from:_:)``: no
///   allocation, no lock, no system call.
final class LV2PatchChannel: @unchecked Sendable {
    static let capacity = 1 << 16
    private let toPlugin = ByteRing(capacity: LV2PatchChannel.capacity)
    private let fromPlugin = ByteRing(capacity: LV2PatchChannel.capacity)
    /// The rings have one producer and one consumer at each end: control threads take turns.
    private let controlTurn = Mutex<Void>(())
    private let renderScratch: UnsafeMutableRawPointer
    private let controlScratch: UnsafeMutableRawPointer

    init() {
        renderScratch = .allocate(byteCount: Self.capacity, alignment: 16)
        controlScratch = .allocate(byteCount: Self.capacity, alignment: 16)
    }

    deinit {
        renderScratch.deallocate()
        controlScratch.deallocate()
    }

    /// Queues a whole atom (header and body) for the plugin's next run; false when the
    /// ring is full.
    /// - Thread: [control]
    func send(_ atom: [UInt8]) -> Bool {
        controlTurn.withLock { _ in atom.withUnsafeBytes { toPlugin.write($0.baseAddress, count: $0.count) } }
    }

    /// Calls `body` with each atom the plugin reported since the last call, oldest first.
    /// - Thread: [control]
    func receive(_ body: (UnsafeRawBufferPointer) -> Void) {
        controlTurn.withLock { _ in
            while let size = fromPlugin.read(into: controlScratch, capacity: Self.capacity) {
                body(UnsafeRawBufferPointer(start: controlScratch, count: size))
            }
        }
    }

    /// Whether a message waits for the plugin.
    /// - Thread: [render]
    var hasOutgoing: Bool {
        @inline(__always) get { toPlugin.nextMessageSize != nil }
    }

    /// Appends the waiting messages to the input `sequence` at frame 0, as many as fit (the
    /// rest wait for the next run); one that could never fit is dropped.
    /// - Thread: [render]
    func deliver(into sequence: AtomSequence) {
        while let size = toPlugin.nextMessageSize {
            let fits = size >= 8 && sequence.fits(size - 8)
            guard fits || !(size >= 8 && sequence.couldHold(size - 8)) else { return }
            guard let read = toPlugin.read(into: renderScratch, capacity: Self.capacity), fits else { continue }
            let type = renderScratch.load(fromByteOffset: 4, as: UInt32.self)
            let scratch = renderScratch
            _ = sequence.append(frames: 0, type: type, size: read - 8) { $0.copyMemory(from: scratch + 8, byteCount: read - 8) }
        }
    }

    /// Copies the `patch:Set` and `patch:Put` objects of an output `sequence` the plugin
    /// wrote for the control side (dropped when its ring is full).
    /// - Thread: [render]
    func collect(from sequence: AtomSequence, _ urids: AtomURIDs) {
        sequence.forEachEvent(urids) { _, atom, type, size in
            guard type == urids.object, size >= 8 else { return }
            let otype = atom.load(fromByteOffset: 12, as: UInt32.self)
            guard otype == urids.patchSet || otype == urids.patchPut else { return }
            _ = fromPlugin.write(atom, count: 8 + size)
        }
    }
}
