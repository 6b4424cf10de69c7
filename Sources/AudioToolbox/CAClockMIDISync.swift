internal import AUCore
internal import AUMIDI
internal import AUMusicPlayer

// A Core Audio Clock synced to MIDI clock (kCAClockSyncMode_MIDIClockTransport): the program
// hands it the MIDI it receives with CAClockParseMIDI (there are no CoreMIDI endpoints here,
// so the clock's sync source is the program), and the clock follows the Timing Clock (F8),
// Start (FA), Continue (FB), Stop (FC) and Song Position Pointer (F2) in it with AUMIDI's
// MIDIClockFollower (the follower `auhost run` uses for JACK MIDI clock), its sample time the
// packets' host time in nanoseconds. Armed (CAClockArm), the clock runs while the MIDI
// transport rolls and tells its listeners Started, Stopped and StartTimeSet (a song position);
// its beat is the follower's and its tempo the MIDI clock's.

/// What a clock keeps of its MIDI clock sync.
struct ClockMIDISync {
    var follower = MIDIClockFollower(sampleRate: 1e9)
    var isArmed = false
}

extension ClockHandle {
    /// Whether the clock follows the MIDI clock it is handed.
    var followsMIDIClock: Bool { syncMode == kCAClockSyncMode_MIDIClockTransport }

    /// The beat the MIDI clock is at, at `hostTime`.
    func midiClockBeats(at hostTime: UInt64) -> Double {
        midiSync.follower.beats(atSampleTime: Int64(hostTime))
    }

    /// Takes a packet list: each clock sync message at its packet's time stamp (0: now);
    /// other messages are skipped. Listeners hear what an armed clock does.
    func parseMIDI(_ list: UnsafePointer<MIDIPacketList>) {
        let count = Int(list.pointee.numPackets)
        var packet = UnsafeRawPointer(list) + MemoryLayout<UInt32>.size
        for _ in 0..<count {
            let stamp = packet.loadUnaligned(as: UInt64.self)
            let length = Int(packet.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
            let data = UnsafeBufferPointer(start: (packet + 10).assumingMemoryBound(to: UInt8.self), count: length)
            receive(data, at: stamp == 0 ? hostTimeNow() : stamp)
            packet = Self.nextPacket(after: packet + 10 + length)
        }
    }

    /// Where the packet after one whose data ends at `end` starts (MIDIPacketNext).
    private static func nextPacket(after end: UnsafeRawPointer) -> UnsafeRawPointer {
        #if arch(arm64) || arch(arm)
        return UnsafeRawPointer(bitPattern: (UInt(bitPattern: end) + 3) & ~3)!
        #else
        return end
        #endif
    }

    /// The clock sync messages in one packet's bytes.
    private func receive(_ bytes: UnsafeBufferPointer<UInt8>, at hostTime: UInt64) {
        var index = 0
        while index < bytes.count {
            let status = bytes[index]
            index += 1
            switch status {
            case 0xF8, 0xFA, 0xFB, 0xFC:
                take(MIDIEvent(offset: 0, status: status, data1: 0), at: hostTime)
            case 0xF2 where index + 1 < bytes.count:
                take(MIDIEvent(offset: 0, status: status, data1: bytes[index], data2: bytes[index + 1]), at: hostTime)
                index += 2
            default:
                continue
            }
        }
    }

    private func take(_ event: MIDIEvent, at hostTime: UInt64) {
        let wasRolling = midiSync.follower.isRolling
        midiSync.follower.receive(event, cycleSampleTime: Int64(hostTime))
        guard midiSync.isArmed else { return }
        if event.status == 0xF2 { notify(kCAClockMessage_StartTimeSet) }
        if !wasRolling && midiSync.follower.isRolling { notify(kCAClockMessage_Started) }
        if wasRolling && !midiSync.follower.isRolling { notify(kCAClockMessage_Stopped) }
    }
}

/// `CAClockArm`: a clock synced to MIDI clock runs from the next Start or Continue it is
/// handed, and tells its listeners (Armed); one synced to JACK transport tells its listeners
/// when the transport starts and stops; an internally synced clock cannot be armed
/// (kCAClock_InvalidSyncModeError).
/// - Thread: [control]
@_cdecl("CAClockArm")
public func _CAClockArm(_ inClock: OpaquePointer?) -> OSStatus {
    withClock(inClock) { clock in
        guard clock.followsMIDIClock || clock.followsJACKTransport else { return kCAClock_InvalidSyncModeError }
        guard !clock.midiSync.isArmed else { return noErr }
        clock.midiSync.isArmed = true
        clock.notify(kCAClockMessage_Armed)
        return noErr
    }
}

/// `CAClockDisarm` (listeners: Disarmed).
/// - Thread: [control]
@_cdecl("CAClockDisarm")
public func _CAClockDisarm(_ inClock: OpaquePointer?) -> OSStatus {
    withClock(inClock) { clock in
        guard clock.midiSync.isArmed else { return noErr }
        clock.midiSync.isArmed = false
        clock.notify(kCAClockMessage_Disarmed)
        return noErr
    }
}

/// `CAClockParseMIDI`: the MIDI the program received, for a clock synced to MIDI clock
/// (ignored by an internally synced one, as on Apple).
/// - Thread: [control]
@_cdecl("CAClockParseMIDI")
public func _CAClockParseMIDI(_ inClock: OpaquePointer?, _ inList: UnsafePointer<MIDIPacketList>?) -> OSStatus {
    withClock(inClock) { clock in
        guard let inList else { return kAudio_ParamError }
        if clock.followsMIDIClock { clock.parseMIDI(inList) }
        return noErr
    }
}
