import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Identifies a render notification for its removal (Core Audio removes by procedure and
/// reference, which a Swift closure has not).
/// - Thread: any (a plain value).
public struct RenderNotifyToken: Hashable, Sendable {
    let rawValue: Int
}

/// The render notifications of a unit or a graph (`AudioUnitAddRenderNotify`,
/// `AUGraphAddRenderNotify`): each is called on the render thread with ``RenderFlags/preRender``
/// before every render and ``RenderFlags/postRender`` after it (with
/// ``RenderFlags/postRenderError`` too when the render failed), with the render's timestamp,
/// bus and buffers (before the render, the buffers it is about to fill).
///
/// At most ``capacity`` at a time. The control side publishes an immutable snapshot of them
/// with one atomic exchange and frees the one it replaced once no render reads it (it
/// waits for a render in progress, one cycle at most); the render thread neither allocates
/// nor locks, and with no notification it reads one atomic word.
/// - Thread: control for ``add(_:)`` / ``remove(_:)``; render for ``notify(_:timestamp:bus:buffers:)``.
package final class RenderNotifyTable: @unchecked Sendable {
    /// The most notifications one unit or graph holds.
    package static let capacity = 4

    /// The notifications as the render thread reads them, never changed once published.
    private final class Snapshot {
        let callbacks: UnsafeMutableBufferPointer<RenderCallback>
        init(_ callbacks: [RenderCallback]) {
            self.callbacks = .allocate(capacity: callbacks.count)
            _ = self.callbacks.initialize(from: callbacks)
        }
        deinit {
            callbacks.deinitialize()
            callbacks.deallocate()
        }
    }

    /// The published snapshot's address, 0 when there is no notification.
    private let published = Atomic<UInt>(0)
    /// Renders reading the snapshot now.
    private let readers = Atomic<Int>(0)
    /// The control side: the notifications in the order added, and the snapshot published.
    private let control = Mutex<(entries: [(token: Int, callback: RenderCallback)], next: Int, snapshot: Snapshot?)>(([], 1, nil))

    /// An empty table.
    package init() {}

    /// Adds a notification; fails with CannotDoInCurrentContext when ``capacity`` are
    /// already there.
    /// - Thread: control.
    package func add(_ callback: RenderCallback) throws(AudioUnitError) -> RenderNotifyToken {
        let token = control.withLock { state -> Int? in
            guard state.entries.count < Self.capacity else { return nil }
            let token = state.next
            state.next += 1
            state.entries.append((token, callback))
            publish(&state)
            return token
        }
        guard let token else {
            throw AudioUnitError(.cannotDoInCurrentContext, "at most \(Self.capacity) render notifications at a time")
        }
        return RenderNotifyToken(rawValue: token)
    }

    /// Removes a notification; false when it was not there. When it returns, no render calls it.
    /// - Thread: control.
    @discardableResult
    package func remove(_ token: RenderNotifyToken) -> Bool {
        control.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.token == token.rawValue }) else { return false }
            state.entries.remove(at: index)
            publish(&state)
            return true
        }
    }

    /// Publishes the entries and frees the snapshot they replace once no render reads it.
    private func publish(_ state: inout (entries: [(token: Int, callback: RenderCallback)], next: Int, snapshot: Snapshot?)) {
        let snapshot = state.entries.isEmpty ? nil : Snapshot(state.entries.map(\.callback))
        published.store(snapshot.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) } ?? 0, ordering: .sequentiallyConsistent)
        while readers.load(ordering: .sequentiallyConsistent) != 0 {
            var pause = timespec(tv_sec: 0, tv_nsec: 100_000)
            nanosleep(&pause, nil)
        }
        state.snapshot = snapshot
    }

    /// Calls every notification with `flags`.
    /// - Thread: render. No allocation, no lock.
    @inline(__always)
    package func notify(_ flags: RenderFlags, timestamp: RenderTimestamp, bus: Int, buffers: AudioBuffers) {
        guard published.load(ordering: .relaxed) != 0 else { return }
        readers.add(1, ordering: .sequentiallyConsistent)
        let bits = published.load(ordering: .sequentiallyConsistent)
        if bits != 0 {
            Unmanaged<Snapshot>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)._withUnsafeGuaranteedRef { snapshot in
                for index in 0..<snapshot.callbacks.count {
                    var callFlags = flags
                    _ = snapshot.callbacks[index].body(&callFlags, timestamp, bus, buffers)
                }
            }
        }
        readers.subtract(1, ordering: .sequentiallyConsistent)
    }
}
