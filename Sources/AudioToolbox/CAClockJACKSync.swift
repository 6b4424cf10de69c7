import Dispatch
internal import AUCore
internal import AUJACK

// A Core Audio Clock synced to JACK transport (kCAClockSyncMode_JACKTransport, AUHost's own
// mode): the clock opens a client of the default JACK server (JACK_DEFAULT_SERVER picks
// another) and its timeline is the server's transport, which every client of the server
// shares: the beat and tempo a timebase master gives (else beats counted from the frame at
// 120 BPM, as AUHost's units read them), the seconds of the transport's frame. CAClockStart, CAClockStop
// and CAClockSetCurrentTime start, stop and locate the transport for every client, as any
// JACK client may. Armed, the clock's listeners hear Started and Stopped when the transport
// starts or stops, whoever moved it: a timer of the library's looks every 20 ms.

/// The JACK client of a clock synced to JACK transport, and the timer that watches it.
final class ClockJACKSync: @unchecked Sendable {
    let client: JACKClient
    /// Made and resumed by ``watch(for:)`` (libdispatch refuses to free a timer never resumed).
    private var timer: DispatchSourceTimer?
    private var wasRolling: Bool

    /// Opens a client of the default server; nil when there is none.
    init?() {
        guard let client = try? JACKClient(name: "CAClock") else { return nil }
        self.client = client
        wasRolling = client.transportState.isRolling
    }

    /// Tells `clock`'s listeners when the transport starts or stops (while the clock is armed),
    /// on the timer's thread under the API lock (skipped while a control call holds it).
    func watch(for clock: ClockHandle) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        self.timer = timer
        timer.schedule(deadline: .now() + .milliseconds(20), repeating: .milliseconds(20))
        timer.setEventHandler { [weak self, weak clock] in
            guard let self, let clock, apiLock.try() else { return }
            defer { apiLock.unlock() }
            let rolling = client.transportState.isRolling
            guard rolling != wasRolling else { return }
            wasRolling = rolling
            if clock.midiSync.isArmed { clock.notify(rolling ? kCAClockMessage_Started : kCAClockMessage_Stopped) }
        }
        timer.resume()
    }

    /// Stops watching and closes the client.
    func close() {
        timer?.cancel()
        client.close()
    }

    /// The transport's position now, in quarter-note beats.
    var beats: Double {
        let state = client.transportState
        return state.beat * 4 / Double(max(1, state.beatUnit))
    }

    /// The transport's tempo in quarter notes a minute (a timebase master's; else 120).
    var tempo: Double {
        let state = client.transportState
        return state.beatsPerMinute * 4 / Double(max(1, state.beatUnit))
    }

    /// The transport's frame in seconds.
    var seconds: Double { Double(client.transportState.frame) / client.sampleRate }
}

extension ClockHandle {
    /// Whether the clock follows JACK transport.
    var followsJACKTransport: Bool { jackSync != nil }

    /// Syncs to JACK transport (a new client, watched), or stops (nil).
    func syncToJACK(_ sync: ClockJACKSync?) {
        jackSync?.close()
        jackSync = sync
        sync?.watch(for: self)
    }
}
