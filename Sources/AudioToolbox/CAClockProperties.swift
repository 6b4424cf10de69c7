internal import AUMIDI

// The Core Audio Clock's properties and listeners.

/// Each property's fixed size (0 for the arrays), writability, or the status refusing it.
private func clockPropertyInfo(_ clock: ClockHandle, _ id: UInt32) -> Result<(size: Int, writable: Bool), StatusError> {
    switch id {
    case kCAClockProperty_TempoMap: .success((clock.tempoEntries.count * MemoryLayout<CATempoMapEntry>.stride, true))
    case kCAClockProperty_MeterTrack: .success((clock.meterEntries.count * MemoryLayout<CAMeterTrackEntry>.stride, true))
    case kCAClockProperty_SMPTEFormat, kCAClockProperty_SyncMode: .success((4, true))
    case kCAClockProperty_SMPTEOffset: .success((8, true))
    case kCAClockProperty_InternalTimebase, kCAClockProperty_TimebaseSource, kCAClockProperty_SyncSource, kCAClockProperty_MIDIClockDestinations,
         kCAClockProperty_MTCDestinations, kCAClockProperty_MTCFreewheelTime, kCAClockProperty_Name, kCAClockProperty_SendMIDISPP:
        .failure(StatusError(kAudio_UnimplementedError))
    default: .failure(StatusError(kCAClock_UnknownPropertyError))
    }
}

/// `CAClockGetPropertyInfo`.
/// - Thread: [control]
@_cdecl("CAClockGetPropertyInfo")
public func _CAClockGetPropertyInfo(_ inClock: OpaquePointer?, _ inID: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    withClock(inClock) { clock in storePropertyInfo(try clockPropertyInfo(clock, inID).get(), outSize, outWritable) }
}

/// `CAClockGetProperty`: TempoMap (CATempoMapEntry array), MeterTrack (CAMeterTrackEntry
/// array), SMPTEFormat, SMPTEOffset (seconds), SyncMode (internal or MIDI clock); a size under the
/// property's is kCAClock_InvalidPropertySizeError.
/// - Thread: [control]
@_cdecl("CAClockGetProperty")
public func _CAClockGetProperty(_ inClock: OpaquePointer?, _ inID: UInt32, _ ioSize: UnsafeMutablePointer<UInt32>?, _ outData: UnsafeMutableRawPointer?) -> OSStatus {
    withClock(inClock) { clock in
        let info = try clockPropertyInfo(clock, inID).get()
        guard let ioSize, let outData else { return kAudio_ParamError }
        guard Int(ioSize.pointee) >= info.size else { return kCAClock_InvalidPropertySizeError }
        switch inID {
        case kCAClockProperty_TempoMap:
            clock.tempoEntries.withUnsafeBytes { outData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        case kCAClockProperty_MeterTrack:
            clock.meterEntries.withUnsafeBytes { outData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        case kCAClockProperty_SMPTEFormat: outData.storeBytes(of: smpteTypes.first { $0.type == clock.clock.smpteFormat }!.apple, as: UInt32.self)
        case kCAClockProperty_SyncMode: outData.storeBytes(of: clock.syncMode, as: UInt32.self)
        default: outData.storeBytes(of: clock.clock.smpteOffset, as: Double.self)
        }
        ioSize.pointee = UInt32(info.size)
        return noErr
    }
}

/// `CAClockSetProperty`: a tempo map (entries in beat order, from beat 0, tempos above 0), a
/// meter track (numerators 1–255, denominators powers of two), an SMPTE format AUHost's
/// timecode has (24, 25, 29.97, 29.97 drop, 30; else kCAClock_InvalidSMPTEFormatError), an
/// SMPTE offset, the internal, MIDI clock or JACK transport sync mode, set while stopped (MTC:
/// kCAClock_InvalidSyncModeError; running: kCAClock_CannotSetTimeError; JACK with no server:
/// kCAClock_InvalidSyncSourceError). Listeners:
/// PropertyChanged.
/// - Thread: [control]
@_cdecl("CAClockSetProperty")
public func _CAClockSetProperty(_ inClock: OpaquePointer?, _ inID: UInt32, _ inSize: UInt32, _ inData: UnsafeRawPointer?) -> OSStatus {
    withClock(inClock) { clock in
        _ = try clockPropertyInfo(clock, inID).get()
        guard let inData else { return kAudio_ParamError }
        switch inID {
        case kCAClockProperty_TempoMap:
            let stride = MemoryLayout<CATempoMapEntry>.stride
            guard inSize > 0, Int(inSize) % stride == 0 else { return kCAClock_InvalidPropertySizeError }
            let entries = (0..<(Int(inSize) / stride)).map { inData.loadUnaligned(fromByteOffset: $0 * stride, as: CATempoMapEntry.self) }
            guard entries.allSatisfy({ $0.beats.isFinite && $0.beats >= 0 && $0.tempoBPM.isFinite && $0.tempoBPM > 0 }),
                  zip(entries, entries.dropFirst()).allSatisfy({ $0.beats <= $1.beats }) else { return kAudio_ParamError }
            var track = TrackModel()
            for entry in entries { track.addExtendedTempoEvent(at: entry.beats, bpm: entry.tempoBPM) }
            clock.clock.tempoMap = MusicTempoMap(tempoTrack: track)
            clock.tempoEntries = entries
        case kCAClockProperty_MeterTrack:
            let stride = MemoryLayout<CAMeterTrackEntry>.stride
            guard inSize > 0, Int(inSize) % stride == 0 else { return kCAClock_InvalidPropertySizeError }
            let entries = (0..<(Int(inSize) / stride)).map { inData.loadUnaligned(fromByteOffset: $0 * stride, as: CAMeterTrackEntry.self) }
            var track = TrackModel()
            for entry in entries {
                let power = entry.meterDenom.trailingZeroBitCount
                guard entry.beats.isFinite, entry.beats >= 0, (1...255).contains(entry.meterNumer), entry.meterDenom > 0,
                      entry.meterDenom.nonzeroBitCount == 1 else { return kAudio_ParamError }
                track.addMetaEvent(at: entry.beats, .timeSignature(MIDITimeSignature(numerator: UInt8(entry.meterNumer), denominatorPower: UInt8(power))))
            }
            clock.clock.meterTrack = MusicTimeSignatureMap(tempoTrack: track)
            clock.meterEntries = entries
        case kCAClockProperty_SMPTEFormat:
            guard inSize == 4 else { return kCAClock_InvalidPropertySizeError }
            guard let type = smpteTypes.first(where: { $0.apple == inData.loadUnaligned(as: UInt32.self) })?.type else { return kCAClock_InvalidSMPTEFormatError }
            clock.clock.smpteFormat = type
        case kCAClockProperty_SyncMode:
            guard inSize == 4 else { return kCAClock_InvalidPropertySizeError }
            let mode = inData.loadUnaligned(as: UInt32.self)
            guard [kCAClockSyncMode_Internal, kCAClockSyncMode_MIDIClockTransport, kCAClockSyncMode_JACKTransport].contains(mode) else {
                return kCAClock_InvalidSyncModeError
            }
            guard !clock.clock.isRunning else { return kCAClock_CannotSetTimeError }
            var jack: ClockJACKSync?
            if mode == kCAClockSyncMode_JACKTransport {
                guard let sync = ClockJACKSync() else { return kCAClock_InvalidSyncSourceError }
                jack = sync
            }
            // A new mode starts from nothing heard and disarmed.
            clock.syncMode = mode
            clock.midiSync = ClockMIDISync()
            clock.syncToJACK(jack)
        default:
            guard inSize == 8 else { return kCAClock_InvalidPropertySizeError }
            let offset = inData.loadUnaligned(as: Double.self)
            guard offset.isFinite, offset >= 0 else { return kCAClock_InvalidSMPTEOffsetError }
            clock.clock.smpteOffset = offset
        }
        clock.notify(kCAClockMessage_PropertyChanged)
        return noErr
    }
}

/// `CAClockAddListener`: called on the thread of the call that changes the clock.
/// - Thread: [control]
@_cdecl("CAClockAddListener")
public func _CAClockAddListener(_ inClock: OpaquePointer?, _ inProc: CAClockListenerProc?, _ inData: UnsafeMutableRawPointer?) -> OSStatus {
    withClock(inClock) { clock in
        guard let inProc else { return kAudio_ParamError }
        clock.listeners.append((inProc, inData))
        return noErr
    }
}

/// `CAClockRemoveListener`.
/// - Thread: [control]
@_cdecl("CAClockRemoveListener")
public func _CAClockRemoveListener(_ inClock: OpaquePointer?, _ inProc: CAClockListenerProc?, _ inData: UnsafeMutableRawPointer?) -> OSStatus {
    withClock(inClock) { clock in
        guard let inProc else { return kAudio_ParamError }
        clock.listeners.removeAll { sameCallback($0.proc, $0.data, inProc, inData) }
        return noErr
    }
}
