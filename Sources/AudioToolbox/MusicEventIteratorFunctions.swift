internal import AUCore
internal import AUMIDI

// MusicEventIterator's C functions: a position in a track's events (in time order), which
// reads, changes, moves and deletes the event it is on through the track handle, so the
// sequence's players hear each edit.

/// Runs `body` with the live iterator of `pointer`.
func withIterator(_ pointer: OpaquePointer?, _ body: (IteratorHandle) throws -> OSStatus) -> OSStatus {
    withHandle(IteratorHandle.live, pointer) { iterator in
        guard TrackHandle.live.lookup(cPointer(iterator.track)) != nil else { return kAudioToolboxErr_TrackNotFound }
        iterator.position = iterator.clampedPosition
        return try body(iterator)
    }
}

/// `NewMusicEventIterator`: on the track's first event.
/// - Thread: [control]
@_cdecl("NewMusicEventIterator")
public func _NewMusicEventIterator(_ inTrack: OpaquePointer?, _ outIterator: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    withTrack(inTrack) { track in
        guard let outIterator else { return kAudio_ParamError }
        outIterator.pointee = IteratorHandle.live.register(IteratorHandle(track: track))
        return noErr
    }
}

/// `DisposeMusicEventIterator`.
/// - Thread: [control]
@_cdecl("DisposeMusicEventIterator")
public func _DisposeMusicEventIterator(_ inIterator: OpaquePointer?) -> OSStatus {
    withHandle(IteratorHandle.live, inIterator) { iterator in
        IteratorHandle.live.unregister(iterator)
        return noErr
    }
}

/// `MusicEventIteratorSeek`: on the first event at or after the time (past the end when
/// none is).
/// - Thread: [control]
@_cdecl("MusicEventIteratorSeek")
public func _MusicEventIteratorSeek(_ inIterator: OpaquePointer?, _ inTime: Double) -> OSStatus {
    withIterator(inIterator) { iterator in
        guard !inTime.isNaN else { return kAudio_ParamError }
        iterator.position = iterator.track.model.firstIndex(atOrAfter: inTime)
        return noErr
    }
}

/// `MusicEventIteratorNextEvent`: kAudioToolboxErr_EndOfTrack when already past the end.
/// - Thread: [control]
@_cdecl("MusicEventIteratorNextEvent")
public func _MusicEventIteratorNextEvent(_ inIterator: OpaquePointer?) -> OSStatus {
    withIterator(inIterator) { iterator in
        guard iterator.position < iterator.track.model.events.count else { return kAudioToolboxErr_EndOfTrack }
        iterator.position += 1
        return noErr
    }
}

/// `MusicEventIteratorPreviousEvent`: kAudioToolboxErr_StartOfTrack on the first event.
/// - Thread: [control]
@_cdecl("MusicEventIteratorPreviousEvent")
public func _MusicEventIteratorPreviousEvent(_ inIterator: OpaquePointer?) -> OSStatus {
    withIterator(inIterator) { iterator in
        guard iterator.position > 0 else { return kAudioToolboxErr_StartOfTrack }
        iterator.position -= 1
        return noErr
    }
}

/// `MusicEventIteratorGetEventInfo`: the current event's time, type and data in Apple's
/// layout (valid until the iterator's next call); each out-pointer may be NULL.
/// kAudioToolboxErr_EndOfTrack past the end.
/// - Thread: [control]
@_cdecl("MusicEventIteratorGetEventInfo")
public func _MusicEventIteratorGetEventInfo(
    _ inIterator: OpaquePointer?, _ outTime: UnsafeMutablePointer<Double>?, _ outType: UnsafeMutablePointer<UInt32>?,
    _ outData: UnsafeMutablePointer<UnsafeRawPointer?>?, _ outSize: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    withIterator(inIterator) { iterator in
        let events = iterator.track.model.events
        guard iterator.position < events.count else { return kAudioToolboxErr_EndOfTrack }
        let event = events[iterator.position]
        let (type, bytes) = appleEvent(event.event)
        iterator.eventData = bytes
        outTime?.pointee = event.timeStamp
        outType?.pointee = type
        outData?.pointee = iterator.eventData.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
        outSize?.pointee = UInt32(bytes.count)
        return noErr
    }
}

/// `MusicEventIteratorSetEventInfo`: replaces the current event with one of `inType` from
/// `inData` at the same time (after the other events at that time); the iterator stays on it.
/// - Thread: [control]
@_cdecl("MusicEventIteratorSetEventInfo")
public func _MusicEventIteratorSetEventInfo(_ inIterator: OpaquePointer?, _ inType: UInt32, _ inData: UnsafeRawPointer?) -> OSStatus {
    withIterator(inIterator) { iterator in
        guard iterator.position < iterator.track.model.events.count else { return kAudioToolboxErr_EndOfTrack }
        let event = try musicEvent(type: inType, data: inData).get()
        let position = iterator.position
        iterator.position = try iterator.track.edit { model in
            let time = model.events[position].timeStamp
            var editor = MusicEventIterator(track: model)
            while editor.position < position { _ = editor.next() }
            _ = editor.deleteEvent()
            model = editor.track
            model.add(event, at: time)
            return model.firstIndex(after: time) - 1
        }
        return noErr
    }
}

/// `MusicEventIteratorSetEventTime`: moves the current event (after those at its new time);
/// the iterator stays on it.
/// - Thread: [control]
@_cdecl("MusicEventIteratorSetEventTime")
public func _MusicEventIteratorSetEventTime(_ inIterator: OpaquePointer?, _ inTime: Double) -> OSStatus {
    withIterator(inIterator) { iterator in
        guard inTime.isFinite, inTime >= 0 else { return kAudio_ParamError }
        guard iterator.position < iterator.track.model.events.count else { return kAudioToolboxErr_EndOfTrack }
        let position = iterator.position
        iterator.position = try iterator.track.edit { model in
            var editor = MusicEventIterator(track: model)
            while editor.position < position { _ = editor.next() }
            _ = editor.setEventTime(inTime)
            model = editor.track
            return editor.position
        }
        return noErr
    }
}

/// `MusicEventIteratorDeleteEvent`: the iterator is then on the event that followed.
/// - Thread: [control]
@_cdecl("MusicEventIteratorDeleteEvent")
public func _MusicEventIteratorDeleteEvent(_ inIterator: OpaquePointer?) -> OSStatus {
    withIterator(inIterator) { iterator in
        guard iterator.position < iterator.track.model.events.count else { return kAudioToolboxErr_EndOfTrack }
        let position = iterator.position
        try iterator.track.edit { model in
            var editor = MusicEventIterator(track: model)
            while editor.position < position { _ = editor.next() }
            _ = editor.deleteEvent()
            model = editor.track
        }
        return noErr
    }
}

/// `MusicEventIteratorHasPreviousEvent`.
/// - Thread: [control]
@_cdecl("MusicEventIteratorHasPreviousEvent")
public func _MusicEventIteratorHasPreviousEvent(_ inIterator: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    withIterator(inIterator) { iterator in store(iterator.position > 0, in: out) }
}

/// `MusicEventIteratorHasNextEvent`: whether an event follows the current one.
/// - Thread: [control]
@_cdecl("MusicEventIteratorHasNextEvent")
public func _MusicEventIteratorHasNextEvent(_ inIterator: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    withIterator(inIterator) { iterator in store(iterator.position + 1 < iterator.track.model.events.count, in: out) }
}

/// `MusicEventIteratorHasCurrentEvent`.
/// - Thread: [control]
@_cdecl("MusicEventIteratorHasCurrentEvent")
public func _MusicEventIteratorHasCurrentEvent(_ inIterator: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    withIterator(inIterator) { iterator in store(iterator.position < iterator.track.model.events.count, in: out) }
}
