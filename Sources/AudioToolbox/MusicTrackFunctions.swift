internal import AUCore
internal import AUMIDI

// MusicTrack's C functions over AUMIDI's MusicTrack: destination, properties, editing and
// the MusicTrackNew…Event family. Every edit reaches the players of the track's sequence.

/// Runs `body` with the live track of `pointer`.
func withTrack(_ pointer: OpaquePointer?, _ body: (TrackHandle) throws -> OSStatus) -> OSStatus {
    withHandle(TrackHandle.live, pointer, body)
}

/// A time range is finite, at or after 0, and not reversed.
func validRange(_ start: Double, _ end: Double) -> Bool { start.isFinite && end.isFinite && start >= 0 && start <= end }

/// `MusicTrackGetSequence`.
/// - Thread: [control]
@_cdecl("MusicTrackGetSequence")
public func _MusicTrackGetSequence(_ inTrack: OpaquePointer?, _ outSequence: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    withTrack(inTrack) { track in
        guard let outSequence else { return kAudio_ParamError }
        outSequence.pointee = cPointer(track.sequence)
        return noErr
    }
}

/// `MusicTrackSetDestNode`: the node of the sequence's graph the track plays into;
/// kAUGraphErr_NodeNotFound for a node the graph does not have,
/// kAudioToolboxError_NoTrackDestination when the sequence has no graph,
/// kAudioToolboxErr_IllegalTrackDestination for the tempo track.
/// - Thread: [control]
@_cdecl("MusicTrackSetDestNode")
public func _MusicTrackSetDestNode(_ inTrack: OpaquePointer?, _ inNode: Int32) -> OSStatus {
    withTrack(inTrack) { track in
        guard !track.isTempoTrack else { return kAudioToolboxErr_IllegalTrackDestination }
        guard let graph = track.sequence.graph else { return kAudioToolboxError_NoTrackDestination }
        guard graph.node(inNode) != nil else { return kAUGraphErr_NodeNotFound }
        track.destNode = inNode
        try track.sequence.edited()
        return noErr
    }
}

/// `MusicTrackGetDestNode`: kAudioToolboxError_NoTrackDestination when none was set.
/// - Thread: [control]
@_cdecl("MusicTrackGetDestNode")
public func _MusicTrackGetDestNode(_ inTrack: OpaquePointer?, _ outNode: UnsafeMutablePointer<Int32>?) -> OSStatus {
    withTrack(inTrack) { track in
        guard let outNode else { return kAudio_ParamError }
        guard let node = track.destNode else { return kAudioToolboxError_NoTrackDestination }
        outNode.pointee = node
        return noErr
    }
}

/// `MusicTrackSetDestMIDIEndpoint`: unimplemented (no CoreMIDI yet).
/// - Thread: [control]
@_cdecl("MusicTrackSetDestMIDIEndpoint")
public func _MusicTrackSetDestMIDIEndpoint(_ inTrack: OpaquePointer?, _ inEndpoint: UInt32) -> OSStatus {
    withTrack(inTrack) { _ in kAudio_UnimplementedError }
}

/// The byte size of each track property AUHost carries.
private func trackPropertySize(_ id: UInt32) -> Int? {
    switch id {
    case kSequenceTrackProperty_LoopInfo: MemoryLayout<CAudioToolbox.MusicTrackLoopInfo>.size
    case kSequenceTrackProperty_OffsetTime, kSequenceTrackProperty_TrackLength: 8
    case kSequenceTrackProperty_MuteStatus, kSequenceTrackProperty_SoloStatus: 1
    case kSequenceTrackProperty_TimeResolution: 2
    default: nil
    }
}

/// `MusicTrackSetProperty`: loop info, offset, mute, solo, length; the time resolution is
/// the tempo track's (read-only elsewhere, kAudioUnitErr_PropertyNotWritable); a wrong
/// size or an unknown ID is kAudio_ParamError (automated parameters: kAudio_UnimplementedError).
/// - Thread: [control]
@_cdecl("MusicTrackSetProperty")
public func _MusicTrackSetProperty(_ inTrack: OpaquePointer?, _ inID: UInt32, _ inData: UnsafeMutableRawPointer?, _ inLength: UInt32) -> OSStatus {
    withTrack(inTrack) { track in
        if inID == kSequenceTrackProperty_AutomatedParameters { return kAudio_UnimplementedError }
        guard let size = trackPropertySize(inID), let inData, Int(inLength) == size else { return kAudio_ParamError }
        switch inID {
        case kSequenceTrackProperty_LoopInfo:
            let info = inData.loadUnaligned(as: CAudioToolbox.MusicTrackLoopInfo.self)
            guard info.loopDuration.isFinite, info.loopDuration >= 0, info.numberOfLoops >= 0 else { return kAudio_ParamError }
            try track.edit { $0.loopInfo = AUMIDI.MusicTrackLoopInfo(loopDuration: info.loopDuration, numberOfLoops: info.numberOfLoops) }
        case kSequenceTrackProperty_OffsetTime, kSequenceTrackProperty_TrackLength:
            let value = inData.loadUnaligned(as: Double.self)
            guard value.isFinite, inID == kSequenceTrackProperty_OffsetTime || value >= 0 else { return kAudio_ParamError }
            try track.edit { model in
                if inID == kSequenceTrackProperty_OffsetTime { model.offset = value } else { model.length = value }
            }
        case kSequenceTrackProperty_MuteStatus:
            let muted = inData.load(as: UInt8.self) != 0
            try track.edit { $0.isMuted = muted }
        case kSequenceTrackProperty_SoloStatus:
            let soloed = inData.load(as: UInt8.self) != 0
            try track.edit { $0.isSoloed = soloed }
        default:
            // TimeResolution: read-only, as on Apple (MusicSequenceFileCreate takes a resolution).
            return kAudioUnitErr_PropertyNotWritable
        }
        return noErr
    }
}

/// `MusicTrackGetProperty`: `outData` NULL gives the size in `ioLength`.
/// - Thread: [control]
@_cdecl("MusicTrackGetProperty")
public func _MusicTrackGetProperty(_ inTrack: OpaquePointer?, _ inID: UInt32, _ outData: UnsafeMutableRawPointer?, _ ioLength: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withTrack(inTrack) { track in
        if inID == kSequenceTrackProperty_AutomatedParameters { return kAudio_UnimplementedError }
        guard let size = trackPropertySize(inID), let ioLength else { return kAudio_ParamError }
        guard let outData else {
            ioLength.pointee = UInt32(size)
            return noErr
        }
        guard Int(ioLength.pointee) >= size else { return kAudio_ParamError }
        let model = track.model
        switch inID {
        case kSequenceTrackProperty_LoopInfo:
            outData.storeBytes(of: CAudioToolbox.MusicTrackLoopInfo(loopDuration: model.loopInfo.loopDuration, numberOfLoops: model.loopInfo.numberOfLoops),
                               as: CAudioToolbox.MusicTrackLoopInfo.self)
        case kSequenceTrackProperty_OffsetTime: outData.storeBytes(of: model.offset, as: Double.self)
        case kSequenceTrackProperty_TrackLength: outData.storeBytes(of: model.length, as: Double.self)
        case kSequenceTrackProperty_MuteStatus: outData.storeBytes(of: UInt8(model.isMuted ? 1 : 0), as: UInt8.self)
        case kSequenceTrackProperty_SoloStatus: outData.storeBytes(of: UInt8(model.isSoloed ? 1 : 0), as: UInt8.self)
        default:
            let ticks: Int16 = if case .ticksPerQuarterNote(let ticks) = track.sequence.model.division { Int16(clamping: ticks) } else { 480 }
            outData.storeBytes(of: ticks, as: Int16.self)
        }
        ioLength.pointee = UInt32(size)
        return noErr
    }
}

/// `MusicTrackMoveEvents`: the events in [start, end) moved by `inMoveTime` beats.
/// - Thread: [control]
@_cdecl("MusicTrackMoveEvents")
public func _MusicTrackMoveEvents(_ inTrack: OpaquePointer?, _ inStart: Double, _ inEnd: Double, _ inMoveTime: Double) -> OSStatus {
    withTrack(inTrack) { track in
        guard validRange(inStart, inEnd), inMoveTime.isFinite else { return kAudio_ParamError }
        try track.edit { $0.moveEvents(from: inStart, to: inEnd, by: inMoveTime) }
        return noErr
    }
}

/// `MusicTrackClear`: the events in [start, end) removed; the others stay where they are.
/// - Thread: [control]
@_cdecl("MusicTrackClear")
public func _MusicTrackClear(_ inTrack: OpaquePointer?, _ inStart: Double, _ inEnd: Double) -> OSStatus {
    withTrack(inTrack) { track in
        guard validRange(inStart, inEnd) else { return kAudio_ParamError }
        try track.edit { $0.clear(from: inStart, to: inEnd) }
        return noErr
    }
}

/// `MusicTrackCut`: the events in [start, end) removed and the later ones moved earlier.
/// - Thread: [control]
@_cdecl("MusicTrackCut")
public func _MusicTrackCut(_ inTrack: OpaquePointer?, _ inStart: Double, _ inEnd: Double) -> OSStatus {
    withTrack(inTrack) { track in
        guard validRange(inStart, inEnd) else { return kAudio_ParamError }
        try track.edit { $0.cut(from: inStart, to: inEnd) }
        return noErr
    }
}

/// The source range of `source` as a track from 0, and the destination handle, or a status.
private func sourceAndDestination(
    _ inSource: OpaquePointer?, _ start: Double, _ end: Double, _ inDest: OpaquePointer?, _ insertTime: Double
) -> Result<(TrackModel, TrackHandle), StatusError> {
    guard let source = TrackHandle.live.lookup(inSource), let destination = TrackHandle.live.lookup(inDest),
          validRange(start, end), insertTime.isFinite, insertTime >= 0
    else { return .failure(StatusError(kAudio_ParamError)) }
    return .success((source.model.copy(from: start, to: end), destination))
}

/// `MusicTrackCopyInsert`: the source's events in [start, end) inserted at `inDestInsertTime`
/// in the destination, whose later events move later by the range's length.
/// - Thread: [control]
@_cdecl("MusicTrackCopyInsert")
public func _MusicTrackCopyInsert(
    _ inSource: OpaquePointer?, _ inStart: Double, _ inEnd: Double, _ inDest: OpaquePointer?, _ inDestInsertTime: Double
) -> OSStatus {
    withTrack(inSource) { _ in
        let (copied, destination) = try sourceAndDestination(inSource, inStart, inEnd, inDest, inDestInsertTime).get()
        try destination.edit { model in
            model.moveEvents(from: inDestInsertTime, to: kMusicTimeStamp_EndOfTrack, by: inEnd - inStart)
            model.merge(copied, at: inDestInsertTime)
        }
        return noErr
    }
}

/// `MusicTrackMerge`: the source's events in [start, end) added at `inDestInsertTime` among
/// the destination's.
/// - Thread: [control]
@_cdecl("MusicTrackMerge")
public func _MusicTrackMerge(
    _ inSource: OpaquePointer?, _ inStart: Double, _ inEnd: Double, _ inDest: OpaquePointer?, _ inDestInsertTime: Double
) -> OSStatus {
    withTrack(inSource) { _ in
        let (copied, destination) = try sourceAndDestination(inSource, inStart, inEnd, inDest, inDestInsertTime).get()
        try destination.edit { $0.merge(copied, at: inDestInsertTime) }
        return noErr
    }
}

/// Adds the event Apple's `type` and `data` describe at `time`.
func addEvent(_ inTrack: OpaquePointer?, _ time: Double, type: UInt32, _ data: UnsafeRawPointer?) -> OSStatus {
    withTrack(inTrack) { track in
        guard time.isFinite, time >= 0 else { return kAudio_ParamError }
        let event = try musicEvent(type: type, data: data).get()
        if case .tempo = event, !track.isTempoTrack { return kAudioToolboxErr_InvalidEventType }
        try track.edit { $0.add(event, at: time) }
        return noErr
    }
}

/// `MusicTrackNewMIDINoteEvent`.
/// - Thread: [control]
@_cdecl("MusicTrackNewMIDINoteEvent")
public func _MusicTrackNewMIDINoteEvent(_ inTrack: OpaquePointer?, _ inTime: Double, _ inMessage: UnsafeRawPointer?) -> OSStatus {
    addEvent(inTrack, inTime, type: kMusicEventType_MIDINoteMessage, inMessage)
}

/// `MusicTrackNewMIDIChannelEvent`.
/// - Thread: [control]
@_cdecl("MusicTrackNewMIDIChannelEvent")
public func _MusicTrackNewMIDIChannelEvent(_ inTrack: OpaquePointer?, _ inTime: Double, _ inMessage: UnsafeRawPointer?) -> OSStatus {
    addEvent(inTrack, inTime, type: kMusicEventType_MIDIChannelMessage, inMessage)
}

/// `MusicTrackNewMIDIRawDataEvent` (system exclusive: kept, not played).
/// - Thread: [control]
@_cdecl("MusicTrackNewMIDIRawDataEvent")
public func _MusicTrackNewMIDIRawDataEvent(_ inTrack: OpaquePointer?, _ inTime: Double, _ inData: UnsafeRawPointer?) -> OSStatus {
    addEvent(inTrack, inTime, type: kMusicEventType_MIDIRawData, inData)
}

/// `MusicTrackNewExtendedNoteEvent`: stored as a MIDI note on channel `groupID`.
/// - Thread: [control]
@_cdecl("MusicTrackNewExtendedNoteEvent")
public func _MusicTrackNewExtendedNoteEvent(_ inTrack: OpaquePointer?, _ inTime: Double, _ inInfo: UnsafeRawPointer?) -> OSStatus {
    addEvent(inTrack, inTime, type: kMusicEventType_ExtendedNote, inInfo)
}

/// `MusicTrackNewParameterEvent`: the player sets the parameter of the track's destination unit at the event's frame.
/// - Thread: [control]
@_cdecl("MusicTrackNewParameterEvent")
public func _MusicTrackNewParameterEvent(_ inTrack: OpaquePointer?, _ inTime: Double, _ inInfo: UnsafeRawPointer?) -> OSStatus {
    addEvent(inTrack, inTime, type: kMusicEventType_Parameter, inInfo)
}

/// `MusicTrackNewExtendedTempoEvent`: on the tempo track only (elsewhere
/// kAudioToolboxErr_InvalidEventType).
/// - Thread: [control]
@_cdecl("MusicTrackNewExtendedTempoEvent")
public func _MusicTrackNewExtendedTempoEvent(_ inTrack: OpaquePointer?, _ inTime: Double, _ inBPM: Double) -> OSStatus {
    withUnsafeBytes(of: inBPM) { addEvent(inTrack, inTime, type: kMusicEventType_ExtendedTempo, $0.baseAddress) }
}

/// `MusicTrackNewMetaEvent`.
/// - Thread: [control]
@_cdecl("MusicTrackNewMetaEvent")
public func _MusicTrackNewMetaEvent(_ inTrack: OpaquePointer?, _ inTime: Double, _ inMeta: UnsafeRawPointer?) -> OSStatus {
    addEvent(inTrack, inTime, type: kMusicEventType_Meta, inMeta)
}

/// `MusicTrackNewUserEvent`: delivered to the sequence's user callback as a player passes it.
/// - Thread: [control]
@_cdecl("MusicTrackNewUserEvent")
public func _MusicTrackNewUserEvent(_ inTrack: OpaquePointer?, _ inTime: Double, _ inData: UnsafeRawPointer?) -> OSStatus {
    addEvent(inTrack, inTime, type: kMusicEventType_User, inData)
}

/// `MusicTrackNewAUPresetEvent`: the event keeps the ClassInfo dictionary; the track's destination unit takes it when the player passes it (``MusicPassedEventDelivery``).
/// - Thread: [control]
@_cdecl("MusicTrackNewAUPresetEvent")
public func _MusicTrackNewAUPresetEvent(_ inTrack: OpaquePointer?, _ inTime: Double, _ inEvent: UnsafeRawPointer?) -> OSStatus {
    addEvent(inTrack, inTime, type: kMusicEventType_AUPreset, inEvent)
}
