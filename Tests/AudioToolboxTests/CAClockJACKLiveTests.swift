import AUJACK
import AUTestSupport
import AudioToolbox
import Foundation
import Synchronization
import Testing

/// A Core Audio Clock synced to JACK transport (AUHost's kCAClockSyncMode_JACKTransport) on a
/// jackd of the test's own (dummy driver, 48 kHz): another client of the server locates the
/// transport to 2 s and starts it; the armed clock's listeners hear Started (within 5 s), its
/// seconds are the transport's and its beat their 120 BPM count (no timebase master); the
/// other client stops it (Stopped). CAClockStart and CAClockSetCurrentTime start and locate
/// the transport for every client. With no server, the mode is refused.
@Suite(.serialized) struct CAClockJACKLiveTests {
    /// What the listeners were told: they are called on the library's timer thread.
    final class Messages: Sendable {
        let received = Mutex<[CAClockMessage]>([])
        func contains(_ message: CAClockMessage) -> Bool { received.withLock { $0.contains(message) } }
    }

    static let listener: CAClockListenerProc = { data, message, _ in
        Unmanaged<Messages>.fromOpaque(data!).takeUnretainedValue().received.withLock { $0.append(message) }
    }

    /// Waits (5 s at most) until `condition` holds.
    static func wait(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(5_000)
        }
        return true
    }

    @Test func aClockSyncedToJACKTransportFollowsAndMovesIt() throws {
        let server = try JACKTestServer(periodFrames: 256, sampleRate: 48_000)
        defer { server.stop() }
        setenv("JACK_DEFAULT_SERVER", server.name, 1)
        defer { unsetenv("JACK_DEFAULT_SERVER") }
        let other = try JACKTestClient(name: "other", serverName: server.name, captureChannels: 0, playbackChannels: 0) { _, _, _ in }
        try other.start()
        defer { other.stop() }

        var clock: CAClockRef?
        #expect(CANewClock(&clock) == noErr)
        defer { CAClockDispose(clock) }
        let messages = Messages()
        var mode = kCAClockSyncMode_JACKTransport
        #expect(CAClockSetProperty(clock, kCAClockProperty_SyncMode, 4, &mode) == noErr)
        #expect(CAClockArm(clock) == noErr)
        #expect(CAClockAddListener(clock, Self.listener, Unmanaged.passUnretained(messages).toOpaque()) == noErr)

        other.client.locateTransport(toFrame: 96_000)
        other.client.startTransport()
        #expect(Self.wait { messages.contains(kCAClockMessage_Started) }, "\(messages.received.withLock { $0 })")
        var now = CAClockTime()
        #expect(CAClockGetCurrentTime(clock, kCAClockTimeFormat_Seconds, &now) == noErr)
        #expect(now.time.seconds >= 2 && now.time.seconds < 10, "seconds \(now.time.seconds)")
        var beats = CAClockTime()
        #expect(CAClockGetCurrentTime(clock, kCAClockTimeFormat_Beats, &beats) == noErr)
        #expect(beats.time.beats >= 4 && beats.time.beats < 20, "beats \(beats.time.beats)")
        var tempo = 0.0
        #expect(CAClockGetCurrentTempo(clock, &tempo, nil) == noErr && tempo == 120)

        other.client.stopTransport()
        #expect(Self.wait { messages.contains(kCAClockMessage_Stopped) }, "\(messages.received.withLock { $0 })")

        var one = CAClockTests.beats(2)  // 1 s at the clock's 120 BPM
        #expect(CAClockSetCurrentTime(clock, &one) == noErr)
        #expect(Self.wait { other.client.transportState.frame == 48_000 }, "located to \(other.client.transportState.frame)")
        #expect(CAClockStart(clock) == noErr)
        #expect(Self.wait { other.client.transportState.isRolling }, "started by the clock")
        #expect(CAClockStop(clock) == noErr)
        #expect(Self.wait { !other.client.transportState.isRolling }, "stopped by the clock")
    }

    @Test func withNoServerTheModeIsRefused() throws {
        setenv("JACK_DEFAULT_SERVER", "auhost-no-such-server-\(getpid())", 1)
        defer { unsetenv("JACK_DEFAULT_SERVER") }
        var clock: CAClockRef?
        #expect(CANewClock(&clock) == noErr)
        defer { CAClockDispose(clock) }
        var mode = kCAClockSyncMode_JACKTransport
        #expect(CAClockSetProperty(clock, kCAClockProperty_SyncMode, 4, &mode) == kCAClock_InvalidSyncSourceError)
        var read: UInt32 = 0
        var size: UInt32 = 4
        #expect(CAClockGetProperty(clock, kCAClockProperty_SyncMode, &size, &read) == noErr && read == kCAClockSyncMode_Internal)
    }
}
