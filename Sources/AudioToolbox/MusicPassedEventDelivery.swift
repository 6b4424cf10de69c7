import Foundation
internal import AUCore
internal import AUMIDI

// The events a playing player passes that act off the render thread: user events
// (MusicTrackNewUserEvent) handed to the program's callback (`MusicSequenceSetUserCallback`),
// and AU preset events (MusicTrackNewAUPresetEvent) restored on the track's destination unit
// (restoring a state allocates and may load files: never on the render thread). A timer of
// the library's (every 5 ms while the sequence has a callback or a preset event) reads each
// playing player's beat, which the render advances, and acts on every such event from where
// the last delivery ended to that beat, as Apple's player does from its own thread. It only
// tries the API lock, as the notification pump does; presets are restored under it, the
// callback is called outside it. Events are found by their beat in the track (a track's
// offset and loop are not followed).

/// The passed-event timer of one sequence.
final class PassedEventDelivery: @unchecked Sendable {
    typealias Callback = @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, OpaquePointer?, Double, UnsafePointer<MusicEventUserData>?, Double, Double
    ) -> Void

    /// `MusicSequenceSetUserCallback`'s callback and its client data (set under the API lock).
    var userCallback: (callback: Callback, clientData: UnsafeMutableRawPointer?)?
    private unowned let sequence: SequenceHandle
    private let timer: DispatchSourceTimer

    init(sequence: SequenceHandle) {
        self.sequence = sequence
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

    /// Collects the events the playing players have passed (under the API lock, if free),
    /// restores each preset, then calls the callback for each user event, in time order.
    private func deliver() {
        guard apiLock.try() else { return }
        var due: [Due] = []
        for player in sequence.players where player.player.isPlaying {
            let now = player.player.time
            let from = player.passedEventsFrom
            player.passedEventsFrom = now
            guard now > from else { continue }
            for track in sequence.tracks {
                for event in track.model.events where event.timeStamp >= from && event.timeStamp < now {
                    switch event.event {
                    case .user(let user):
                        var bytes = withUnsafeBytes(of: UInt32(user.data.count)) { [UInt8]($0) }
                        bytes += user.data.isEmpty ? [0] : user.data
                        due.append(Due(track: cPointer(track), time: event.timeStamp, data: bytes, slice: (from, now)))
                    case .auPreset(let preset):
                        restore(preset, on: track)
                    default:
                        continue
                    }
                }
            }
        }
        let sequencePointer = cPointer(sequence)
        let user = userCallback
        apiLock.unlock()
        guard let user else { return }
        for event in due.sorted(by: { $0.time < $1.time }) {
            event.data.withUnsafeBytes { raw in
                user.callback(user.clientData, sequencePointer, event.track, event.time,
                              raw.baseAddress!.assumingMemoryBound(to: MusicEventUserData.self), event.slice.start, event.slice.end)
            }
        }
    }

    /// Restores `preset` on the unit of `track`'s destination node; a preset another unit's
    /// ClassInfo refuses is reported on standard error once per pass.
    private func restore(_ preset: MusicAUPresetEvent, on track: TrackHandle) {
        guard let graph = sequence.graph, let node = sequence.destination(of: track), let unit = graph.units[node] else { return }
        do {
            try restoreClassInfo(unit, UnsafeRawPointer(Unmanaged.passUnretained(preset.preset.object).toOpaque()))
        } catch {
            FileHandle.standardError.write(Data("AudioToolbox: an AU preset event of a track: \(error)\n".utf8))
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
