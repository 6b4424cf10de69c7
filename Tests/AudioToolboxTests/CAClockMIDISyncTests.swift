import AudioToolbox
import Foundation
import Testing

/// A Core Audio Clock synced to MIDI clock: SyncMode MIDIClockTransport, armed, handed a
/// packet list (as a program passes on what it receives) of Start and 49 Timing Clocks 20.833 ms
/// apart (120 BPM at 24 a beat) ending a little before now. The clock's tempo is the MIDI
/// clock's (120 within 0.5), its beat the clocks' (the 49th is beat 2; within 1/24 beat after it), and its
/// listeners hear PropertyChanged (the tempo map at 60 BPM, the mode), Armed and Started; Stop stops it (Stopped), a Song Position Pointer of 16
/// sixteenths puts it at beat 4 (StartTimeSet). Start, Stop and SetCurrentTime belong to
/// internal sync (kCAClock_InvalidSyncModeError).
@Suite struct CAClockMIDISyncTests {
    /// A packet list of `packets` (time stamp, bytes), laid out as CoreMIDI lays it out.
    static func packetList(_ packets: [(UInt64, [UInt8])]) -> [UInt8] {
        var bytes = withUnsafeBytes(of: UInt32(packets.count).littleEndian) { Array($0) }
        for (stamp, data) in packets {
            bytes += withUnsafeBytes(of: stamp.littleEndian) { Array($0) }
            bytes += withUnsafeBytes(of: UInt16(data.count).littleEndian) { Array($0) }
            bytes += data
        }
        return bytes + [UInt8](repeating: 0, count: 256)
    }

    static func parse(_ clock: CAClockRef?, _ packets: [(UInt64, [UInt8])]) -> OSStatus {
        packetList(packets).withUnsafeBytes { CAClockParseMIDI(clock, $0.baseAddress!.assumingMemoryBound(to: MIDIPacketList.self)) }
    }

    @Test func aClockSyncedToMIDIClockFollowsItsTempoPositionAndTransport() throws {
        var clock: CAClockRef?
        #expect(CANewClock(&clock) == noErr)
        defer { CAClockDispose(clock) }
        let messages = CAClockTests.Messages()
        #expect(CAClockAddListener(clock, CAClockTests.listener, Unmanaged.passUnretained(messages).toOpaque()) == noErr)
        // The tempo map says 60 BPM: what the clock says is the MIDI clock's.
        var tempoMap = [CATempoMapEntry(beats: 0, tempoBPM: 60)]
        #expect(CAClockSetProperty(clock, kCAClockProperty_TempoMap, UInt32(MemoryLayout<CATempoMapEntry>.stride), &tempoMap) == noErr)
        var mode = kCAClockSyncMode_MIDIClockTransport
        #expect(CAClockSetProperty(clock, kCAClockProperty_SyncMode, 4, &mode) == noErr)
        var size: UInt32 = 4
        var read: UInt32 = 0
        #expect(CAClockGetProperty(clock, kCAClockProperty_SyncMode, &size, &read) == noErr && read == kCAClockSyncMode_MIDIClockTransport)
        #expect(CAClockArm(clock) == noErr)
        #expect(CAClockStart(clock) == kCAClock_InvalidSyncModeError)
        #expect(CAClockStop(clock) == kCAClock_InvalidSyncModeError)
        var two = CAClockTests.beats(2)
        #expect(CAClockSetCurrentTime(clock, &two) == kCAClock_InvalidSyncModeError)

        let tick = 500_000_000 / 24.0  // ns between clocks at 120 BPM
        let now = AudioGetCurrentHostTime()
        let start = now - UInt64(48 * tick) - 2_000_000  // the 49th clock 2 ms ago
        var packets: [(UInt64, [UInt8])] = [(start - 1_000_000, [0xFA])]
        // The clocks, a note-on before one of them (skipped).
        for index in 0...48 { packets.append((start + UInt64(Double(index) * tick), index == 10 ? [0x90, 60, 100, 0xF8] : [0xF8])) }
        #expect(Self.parse(clock, packets) == noErr)

        var tempo = 0.0
        var at = CAClockTime()
        #expect(CAClockGetCurrentTempo(clock, &tempo, &at) == noErr)
        #expect(abs(tempo - 120) < 0.5, "tempo \(tempo)")
        var beats = CAClockTime()
        #expect(CAClockGetCurrentTime(clock, kCAClockTimeFormat_Beats, &beats) == noErr)
        #expect(beats.time.beats >= 2 && beats.time.beats <= 2 + 1.0 / 24, "the 49th clock is beat 2, the next 1/24 later: beat \(beats.time.beats)")
        #expect(messages.received == [kCAClockMessage_PropertyChanged, kCAClockMessage_PropertyChanged, kCAClockMessage_Armed, kCAClockMessage_Started])

        let later = AudioGetCurrentHostTime()
        #expect(Self.parse(clock, [(later, [0xFC]), (0, [0xF2, 16, 0])]) == noErr)
        #expect(CAClockGetCurrentTime(clock, kCAClockTimeFormat_Beats, &beats) == noErr)
        #expect(beats.time.beats == 4, "16 sixteenths: beat \(beats.time.beats)")
        #expect(messages.received == [kCAClockMessage_PropertyChanged, kCAClockMessage_PropertyChanged, kCAClockMessage_Armed, kCAClockMessage_Started, kCAClockMessage_Stopped, kCAClockMessage_StartTimeSet])
        #expect(CAClockDisarm(clock) == noErr)
        #expect(messages.received.last == kCAClockMessage_Disarmed)
        #expect(Self.parse(clock, [(0, [0xFA])]) == noErr)
        #expect(messages.received.count == 7, "a disarmed clock tells nothing")
    }
}
