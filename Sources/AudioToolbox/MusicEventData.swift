import Foundation
internal import AUCore
internal import AUMIDI

// A track event between Apple's layouts (MIDINoteMessage, MIDIChannelMessage, MIDIRawData,
// MIDIMetaEvent, MusicEventUserData, ExtendedTempoEvent) and AUMIDI's MusicEvent: what the
// MusicTrackNew…Event functions store and MusicEventIteratorGetEventInfo / SetEventInfo
// hand back.

/// AUMIDI's event for Apple's `type` and `data`, or the OSStatus that refuses it:
/// kAudio_ParamError for NULL data or a value out of range (an AU preset that is no
/// dictionary), kAudioToolboxErr_InvalidEventType for a type Apple does not define.
func musicEvent(type: UInt32, data: UnsafeRawPointer?) -> Result<MusicEvent, StatusError> {
    guard let data else { return .failure(StatusError(kAudio_ParamError)) }
    switch type {
    case kMusicEventType_MIDINoteMessage:
        let note = data.loadUnaligned(as: CAudioToolbox.MIDINoteMessage.self)
        guard note.channel < 16, note.note < 128, note.velocity < 128, note.releaseVelocity < 128,
              note.duration.isFinite, note.duration >= 0 else { return .failure(StatusError(kAudio_ParamError)) }
        return .success(.note(AUMIDI.MIDINoteMessage(
            channel: note.channel, note: note.note, velocity: note.velocity, releaseVelocity: note.releaseVelocity,
            duration: Double(note.duration))))
    case kMusicEventType_MIDIChannelMessage:
        let message = data.loadUnaligned(as: CAudioToolbox.MIDIChannelMessage.self)
        guard (0x80...0xEF).contains(message.status), message.data1 < 128, message.data2 < 128 else {
            return .failure(StatusError(kAudio_ParamError))
        }
        // A note-on with velocity is a note to AUMIDI; Apple keeps it as a channel message,
        // and so does AUHost by storing it as one (it plays as a note-on).
        return .success(.channel(AUMIDI.MIDIChannelMessage(status: message.status, data1: message.data1, data2: message.data2)))
    case kMusicEventType_MIDIRawData:
        let bytes = trailingBytes(data, header: 4)
        guard let first = bytes.first else { return .failure(StatusError(kAudio_ParamError)) }
        return .success(.sysex(first == 0xF0
            ? MIDISysexEvent(kind: .sysex, data: Array(bytes.dropFirst()))
            : MIDISysexEvent(kind: .escape, data: bytes)))
    case kMusicEventType_Meta:
        let type = data.load(as: UInt8.self)
        guard type < 0x80 else { return .failure(StatusError(kAudio_ParamError)) }
        return .success(.meta(AUMIDI.MIDIMetaEvent(metaEventType: type, data: trailingBytes(data, header: 8, lengthOffset: 4))))
    case kMusicEventType_User:
        return .success(.user(MusicUserEvent(data: trailingBytes(data, header: 4))))
    case kMusicEventType_ExtendedTempo:
        let bpm = data.loadUnaligned(as: Double.self)
        guard bpm.isFinite, bpm > 0 else { return .failure(StatusError(kAudio_ParamError)) }
        return .success(.tempo(AUMIDI.ExtendedTempoEvent(bpm: bpm)))
    case kMusicEventType_ExtendedNote:
        // A note on a group (channel) with a pitch and velocity: stored as a MIDI note.
        let event = data.loadUnaligned(as: ExtendedNoteOnEvent.self)
        let pitch = event.extendedParams.mPitch.rounded()
        let velocity = event.extendedParams.mVelocity.rounded()
        guard event.groupID < 16, (0...127).contains(pitch), (1...127).contains(velocity), event.duration.isFinite, event.duration >= 0
        else { return .failure(StatusError(kAudio_ParamError)) }
        return .success(.note(AUMIDI.MIDINoteMessage(
            channel: UInt8(event.groupID), note: UInt8(pitch), velocity: UInt8(velocity), duration: Double(event.duration))))
    case kMusicEventType_Parameter:
        let event = data.loadUnaligned(as: CAudioToolbox.ParameterEvent.self)
        guard let scope = Scope(rawValue: event.scope), event.value.isFinite else { return .failure(StatusError(kAudio_ParamError)) }
        return .success(.parameter(MusicParameterEvent(
            address: ParameterAddress(event.parameterID, scope: scope, element: Element(event.element)), value: event.value)))
    case kMusicEventType_AUPreset:
        // The event keeps the ClassInfo dictionary alive, as Apple's retains it.
        let event = data.loadUnaligned(as: AUPresetEvent.self)
        guard let preset = event.preset?.takeUnretainedValue(), preset is NSDictionary else { return .failure(StatusError(kAudio_ParamError)) }
        return .success(.auPreset(MusicAUPresetEvent(scope: event.scope, element: event.element, preset: .init(preset))))
    default:
        return .failure(StatusError(kAudioToolboxErr_InvalidEventType))
    }
}

/// The `length` bytes after a variable-length structure's header (its length a UInt32 at
/// `lengthOffset`).
private func trailingBytes(_ data: UnsafeRawPointer, header: Int, lengthOffset: Int = 0) -> [UInt8] {
    let length = Int(data.loadUnaligned(fromByteOffset: lengthOffset, as: UInt32.self))
    return Array(UnsafeRawBufferPointer(start: data + header, count: length))
}

/// Apple's type and bytes for an AUMIDI event (what GetEventInfo hands out).
func appleEvent(_ event: MusicEvent) -> (type: UInt32, bytes: [UInt8]) {
    switch event {
    case .note(let note):
        let message = CAudioToolbox.MIDINoteMessage(
            channel: note.channel, note: note.note, velocity: note.velocity, releaseVelocity: note.releaseVelocity,
            duration: Float32(note.duration))
        return (kMusicEventType_MIDINoteMessage, withUnsafeBytes(of: message) { Array($0) })
    case .channel(let channel):
        let message = CAudioToolbox.MIDIChannelMessage(status: channel.status, data1: channel.data1, data2: channel.data2, reserved: 0)
        return (kMusicEventType_MIDIChannelMessage, withUnsafeBytes(of: message) { Array($0) })
    case .sysex(let sysex):
        let payload = sysex.kind == .sysex ? [0xF0] + sysex.data : sysex.data
        return (kMusicEventType_MIDIRawData, lengthPrefixed(payload, header: [], declared: MemoryLayout<MIDIRawData>.size))
    case .meta(let meta):
        return (kMusicEventType_Meta, lengthPrefixed(meta.data, header: [meta.metaEventType, 0, 0, 0], declared: MemoryLayout<CAudioToolbox.MIDIMetaEvent>.size))
    case .user(let user):
        return (kMusicEventType_User, lengthPrefixed(user.data, header: [], declared: MemoryLayout<MusicEventUserData>.size))
    case .tempo(let tempo):
        return (kMusicEventType_ExtendedTempo, withUnsafeBytes(of: tempo.bpm) { Array($0) })
    case .parameter(let change):
        let event = CAudioToolbox.ParameterEvent(
            parameterID: change.address.id, scope: change.address.scope.rawValue, element: UInt32(change.address.element), value: change.value)
        return (kMusicEventType_Parameter, withUnsafeBytes(of: event) { Array($0) })
    case .auPreset(let preset):
        // The dictionary the event holds, unretained (valid while the event is).
        let event = AUPresetEvent(scope: preset.scope, element: preset.element, preset: Unmanaged.passUnretained(preset.preset.object))
        return (kMusicEventType_AUPreset, withUnsafeBytes(of: event) { Array($0) })
    }
}

/// `header`, a UInt32 length, then `payload`, padded to `declared` bytes.
private func lengthPrefixed(_ payload: [UInt8], header: [UInt8], declared: Int) -> [UInt8] {
    var bytes = header + withUnsafeBytes(of: UInt32(payload.count)) { Array($0) } + payload
    while bytes.count < declared { bytes.append(0) }
    return bytes
}
