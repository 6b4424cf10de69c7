import Synchronization

/// Identifies a render notification for its removal (Core Audio removes by procedure and
/// reference, which a Swift closure has not).
/// - Thread: [any] (a plain value).
public struct RenderNotifyToken: Hashable, Sendable {
    let rawValue: Int
}

/// The render notifications of a unit or a graph (`AudioUnitAddRenderNotify`,
/// `AUGraphAddRenderNotify`): each is called on the render thread with ``RenderFlags/preRender``
/// before every render and ``RenderFlags/postRender`` after it (with
/// ``RenderFlags/postRenderError`` too when the render failed), with the render's timestamp,
/// bus and buffers (before the render, the buffers it is about to fill).
///
/// At most ``capacity`` at a time, published to the render thread as a ``RenderSnapshot``:
/// the render thread neither allocates nor locks, and with no notification it reads one
/// atomic word.
/// - Thread: [control] for ``add(_:)`` / ``remove(_:)``; render for ``notify(_:timestamp:bus:buffers:)``.
package final class RenderNotifyTable: @unchecked Sendable {
    /// The most notifications one unit or graph holds.
    package static let capacity = 4

    private typealias Entry = RenderCallbackBox

    private let snapshot = RenderSnapshot<Unmanaged<Entry>>()
    /// The control side: the notifications in the order added (it keeps them alive) and the
    /// next token.
    private let control = Mutex<(entries: [(token: Int, entry: Entry, readsOnly: Bool)], next: Int)>(([], 1))

    /// An empty table.
    package init() {}

    /// Adds a notification (`readsOnly`: it never changes the buffers, as a meter); fails
    /// with CannotDoInCurrentContext when ``capacity`` are already there. `published` is
    /// called with whether the table now holds any and whether any may change the buffers,
    /// under the table's lock (so that flags an owner keeps beside its hottest fields follow
    /// the table in the order of the edits).
    /// - Thread: [control]
    package func add(
        _ callback: RenderCallback, readsOnly: Bool = false, published: (_ any: Bool, _ anyWrites: Bool) -> Void = { _, _ in }
    ) throws(AudioUnitError) -> RenderNotifyToken {
        let token = control.withLock { state -> Int? in
            guard state.entries.count < Self.capacity else { return nil }
            let token = state.next
            state.next += 1
            state.entries.append((token, Entry(callback), readsOnly))
            snapshot.publish(state.entries.map { Unmanaged.passUnretained($0.entry) })
            published(true, state.entries.contains { !$0.readsOnly })
            return token
        }
        guard let token else {
            throw AudioUnitError(.cannotDoInCurrentContext, "at most \(Self.capacity) render notifications at a time")
        }
        return RenderNotifyToken(rawValue: token)
    }

    /// Removes a notification; false when it was not there. When it returns, no render calls
    /// it. `published` as for ``add(_:published:)``.
    /// - Thread: [control]
    @discardableResult
    package func remove(_ token: RenderNotifyToken, published: (_ any: Bool, _ anyWrites: Bool) -> Void = { _, _ in }) -> Bool {
        control.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.token == token.rawValue }) else { return false }
            // Kept alive until the publish has waited out every render that read the old list.
            let removed = state.entries.remove(at: index)
            snapshot.publish(state.entries.map { Unmanaged.passUnretained($0.entry) })
            withExtendedLifetime(removed) {}
            published(!state.entries.isEmpty, state.entries.contains { !$0.readsOnly })
            return true
        }
    }

    /// Whether no notification is registered (one relaxed load): a render entry point reads
    /// it once and skips both calls and their arguments' set-up.
    /// - Thread: [any]
    @inline(__always)
    package var isEmpty: Bool { snapshot.isEmpty }

    /// Calls every notification with `flags`.
    /// - Thread: [render] No allocation, no lock.
    @inline(__always)
    package func notify(_ flags: RenderFlags, timestamp: RenderTimestamp, bus: Int, buffers: AudioBuffers) {
        snapshot.read { entries in
            for index in 0..<entries.count {
                var callFlags = flags
                _ = entries[index]._withUnsafeGuaranteedRef { $0.callback.body(&callFlags, timestamp, bus, buffers) }
            }
        }
    }
}
