import Foundation
internal import AUMIDI

// `MusicSequenceSetUserCallback`: a sequence's user events (MusicTrackNewUserEvent) handed to
// the program's callback as its players pass them. The render thread does not call it (a
// callback may do anything): a timer of the library's (every 5 ms while a callback is set)
// reads each playing player's beat, which the render advances, and calls the callback for
// every user event from where the last delivery ended to that beat, with that slice, on its
// own thread, as Apple calls it from the player's thread. It only tries the API lock, as the
// notification pump does, and calls the callback outside it.

/// The callback of one sequence and the timer that delivers to it.
final class UserEventDelivery: @unchecked Sendable {
    typealias Callback = @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, OpaquePointer?, Double, UnsafePointer<MusicEventUserData>?, Double, Double
    ) -> Void

    private let callback: Callback
    private let clientData: UnsafeMutableRawPointer?
    private unowned let sequence: SequenceHandle
    private let timer: DispatchSourceTimer

    init(sequence: SequenceHandle, callback: Callback, clientData: UnsafeMutableRawPointer?) {
        self.sequence = sequence
        self.callback = callback
        self.clientData = clientData
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .userInitiated))
        timer.schedule(deadline: .now() + .milliseconds(5), repeating: .milliseconds(5))
        timer.setEventHandler { [weak self] in self?.deliver() }
        timer.resume()
    }

    /// One user event due: its track, beat and bytes in `MusicEventUserData`'s layout.
    private struct Due {
        let track: OpaquePointer
        let time: Double
        let data: [UInt8]
        let slice: (start: Double, end: Double)
    }

    /// Collects the events the playing players have passed (under the API lock, if free) and
    /// calls the callback for each, in time order per player.
    private func deliver() {
        guard apiLock.try() else { return }
        var due: [Due] = []
        for player in sequence.players where player.player.isPlaying {
            let now = player.player.time
            let from = player.userEventsFrom
            guard now > from else {
                player.userEventsFrom = now
                continue
            }
            player.userEventsFrom = now
            for track in sequence.tracks {
                for event in track.model.events where event.timeStamp >= from && event.timeStamp < now {
                    guard case .user(let user) = event.event else { continue }
                    var bytes = withUnsafeBytes(of: UInt32(user.data.count)) { [UInt8]($0) }
                    bytes += user.data.isEmpty ? [0] : user.data
                    due.append(Due(track: cPointer(track), time: event.timeStamp, data: bytes, slice: (from, now)))
                }
            }
        }
        let sequencePointer = cPointer(sequence)
        apiLock.unlock()
        for event in due.sorted(by: { $0.time < $1.time }) {
            event.data.withUnsafeBytes { raw in
                callback(clientData, sequencePointer, event.track, event.time,
                         raw.baseAddress!.assumingMemoryBound(to: MusicEventUserData.self), event.slice.start, event.slice.end)
            }
        }
    }

    /// Stops the timer; no delivery starts after this returns.
    func stop() {
        timer.cancel()
        apiLock.lock()  // a collection in progress holds the lock (recursive: safe under it)
        apiLock.unlock()
    }

    deinit { timer.cancel() }
}
