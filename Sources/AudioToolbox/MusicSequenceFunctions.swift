import Foundation
internal import AUCore
internal import AUEngine
internal import AUMIDI

// MusicSequence's C functions over AUMIDI's MusicSequence (docs/AUDIOTOOLBOX.md).

/// `NewMusicSequence`: an empty sequence with a tempo track, 480 ticks a beat.
/// - Thread: [control]
@_cdecl("NewMusicSequence")
public func _NewMusicSequence(_ outSequence: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    newHandle(SequenceHandle.live, outSequence, SequenceHandle.init)
}

/// `DisposeMusicSequence`: its tracks' handles go with it; a player playing it stops and
/// has no sequence; a graph it made (MusicSequenceGetAUGraph) is disposed.
/// - Thread: [control]
@_cdecl("DisposeMusicSequence")
public func _DisposeMusicSequence(_ inSequence: OpaquePointer?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        for player in sequence.players {
            player.player.stop()
            player.sequence = nil
            try player.publish()
        }
        sequence.players = []
        sequence.passedEvents?.stop()
        sequence.passedEvents = nil
        sequence.disposeTracks()
        if sequence.ownsGraph, let graph = sequence.graph { _ = _DisposeAUGraph(graph.pointer) }
        sequence.graph = nil
        SequenceHandle.live.unregister(sequence)
        return noErr
    }
}

/// `MusicSequenceNewTrack`.
/// - Thread: [control]
@_cdecl("MusicSequenceNewTrack")
public func _MusicSequenceNewTrack(_ inSequence: OpaquePointer?, _ outTrack: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let outTrack else { return kAudio_ParamError }
        _ = sequence.model.newTrack()
        outTrack.pointee = cPointer(sequence.adoptTrack())
        try sequence.edited()
        return noErr
    }
}

/// `MusicSequenceDisposeTrack`: kAudioToolboxErr_TrackNotFound for the tempo track or a
/// track of another sequence.
/// - Thread: [control]
@_cdecl("MusicSequenceDisposeTrack")
public func _MusicSequenceDisposeTrack(_ inSequence: OpaquePointer?, _ inTrack: OpaquePointer?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let track = TrackHandle.live.lookup(inTrack), track.sequence === sequence, let index = track.index else {
            return kAudioToolboxErr_TrackNotFound
        }
        sequence.model.tracks.remove(at: index)
        sequence.tracks.remove(at: index)
        TrackHandle.live.unregister(track)
        try sequence.edited()
        return noErr
    }
}

/// `MusicSequenceGetTrackCount` (the tempo track not counted).
/// - Thread: [control]
@_cdecl("MusicSequenceGetTrackCount")
public func _MusicSequenceGetTrackCount(_ inSequence: OpaquePointer?, _ outCount: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let outCount else { return kAudio_ParamError }
        outCount.pointee = UInt32(sequence.tracks.count)
        return noErr
    }
}

/// `MusicSequenceGetIndTrack`: kAudioToolboxErr_TrackIndexError past the last track.
/// - Thread: [control]
@_cdecl("MusicSequenceGetIndTrack")
public func _MusicSequenceGetIndTrack(_ inSequence: OpaquePointer?, _ inIndex: UInt32, _ outTrack: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let outTrack else { return kAudio_ParamError }
        guard Int(inIndex) < sequence.tracks.count else { return kAudioToolboxErr_TrackIndexError }
        outTrack.pointee = cPointer(sequence.tracks[Int(inIndex)])
        return noErr
    }
}

/// `MusicSequenceGetTrackIndex`: kAudioToolboxErr_TrackNotFound for a track of another
/// sequence or the tempo track.
/// - Thread: [control]
@_cdecl("MusicSequenceGetTrackIndex")
public func _MusicSequenceGetTrackIndex(_ inSequence: OpaquePointer?, _ inTrack: OpaquePointer?, _ outIndex: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let outIndex else { return kAudio_ParamError }
        guard let track = TrackHandle.live.lookup(inTrack), track.sequence === sequence, let index = track.index else {
            return kAudioToolboxErr_TrackNotFound
        }
        outIndex.pointee = UInt32(index)
        return noErr
    }
}

/// `MusicSequenceGetTempoTrack`.
/// - Thread: [control]
@_cdecl("MusicSequenceGetTempoTrack")
public func _MusicSequenceGetTempoTrack(_ inSequence: OpaquePointer?, _ outTrack: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let outTrack else { return kAudio_ParamError }
        outTrack.pointee = cPointer(sequence.tempoTrack)
        return noErr
    }
}

/// `MusicSequenceSetAUGraph`: the graph its tracks play into (NULL: none); players of the
/// sequence play into it from now on.
/// - Thread: [control]
@_cdecl("MusicSequenceSetAUGraph")
public func _MusicSequenceSetAUGraph(_ inSequence: OpaquePointer?, _ inGraph: OpaquePointer?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        var graph: GraphHandle?
        if let inGraph {
            guard let found = GraphHandle.live.withLock({ $0[GraphHandle.key(inGraph)] }) else { return kAudio_ParamError }
            graph = found
        }
        if sequence.ownsGraph, let old = sequence.graph, old !== graph { _ = _DisposeAUGraph(old.pointer) }
        sequence.ownsGraph = false
        sequence.graph = graph
        try sequence.edited()
        return noErr
    }
}

/// `MusicSequenceGetAUGraph`: the sequence's graph; a sequence without one gets Apple's
/// default: the General MIDI sampler into the default output, opened and initialized.
/// - Thread: [control]
@_cdecl("MusicSequenceGetAUGraph")
public func _MusicSequenceGetAUGraph(_ inSequence: OpaquePointer?, _ outGraph: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let outGraph else { return kAudio_ParamError }
        if sequence.graph == nil {
            sequence.graph = try defaultGraph()
            sequence.ownsGraph = true
            try sequence.edited()
        }
        outGraph.pointee = sequence.graph!.pointer
        return noErr
    }
}

/// Apple's default sequence graph: a DLSSynth (AUHost's sampler with the General MIDI bank)
/// into a PeakLimiter into the DefaultOutput, opened and initialized.
func defaultGraph() throws -> GraphHandle {
    var graphPointer: OpaquePointer?
    try check(_NewAUGraph(&graphPointer))
    var synth = AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: kAudioUnitSubType_DLSSynth,
                                          componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    var limiter = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_PeakLimiter,
                                            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    var output = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_DefaultOutput,
                                           componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    var synthNode: Int32 = 0
    var limiterNode: Int32 = 0
    var outputNode: Int32 = 0
    do {
        try check(_AUGraphAddNode(graphPointer, &synth, &synthNode))
        try check(_AUGraphAddNode(graphPointer, &limiter, &limiterNode))
        try check(_AUGraphAddNode(graphPointer, &output, &outputNode))
        try check(_AUGraphConnectNodeInput(graphPointer, synthNode, 0, limiterNode, 0))
        try check(_AUGraphConnectNodeInput(graphPointer, limiterNode, 0, outputNode, 0))
        try check(_AUGraphOpen(graphPointer))
        try check(_AUGraphInitialize(graphPointer))
    } catch {
        _ = _DisposeAUGraph(graphPointer)
        throw error
    }
    return GraphHandle.live.withLock { $0[GraphHandle.key(graphPointer!)] }!
}

/// Throws the status of a call that failed.
func check(_ status: OSStatus) throws(StatusError) {
    guard status == noErr else { throw StatusError(status) }
}

/// `MusicSequenceSetMIDIEndpoint`: unimplemented (no CoreMIDI yet).
/// - Thread: [control]
@_cdecl("MusicSequenceSetMIDIEndpoint")
public func _MusicSequenceSetMIDIEndpoint(_ inSequence: OpaquePointer?, _ inEndpoint: UInt32) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { _ in kAudio_UnimplementedError }
}

/// `MusicSequenceSetSequenceType`: beats; seconds and samples are
/// kAudioToolboxErr_InvalidSequenceType (AUHost's sequences are in beats), any other value
/// kAudio_ParamError.
/// - Thread: [control]
@_cdecl("MusicSequenceSetSequenceType")
public func _MusicSequenceSetSequenceType(_ inSequence: OpaquePointer?, _ inType: UInt32) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        switch inType {
        case kMusicSequenceType_Beats:
            sequence.sequenceType = inType
            return noErr
        case kMusicSequenceType_Seconds, kMusicSequenceType_Samples: return kAudioToolboxErr_InvalidSequenceType
        default: return kAudio_ParamError
        }
    }
}

/// `MusicSequenceGetSequenceType`.
/// - Thread: [control]
@_cdecl("MusicSequenceGetSequenceType")
public func _MusicSequenceGetSequenceType(_ inSequence: OpaquePointer?, _ outType: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let outType else { return kAudio_ParamError }
        outType.pointee = sequence.sequenceType
        return noErr
    }
}

/// `MusicSequenceGetSecondsForBeats` (through the tempo track).
/// - Thread: [control]
@_cdecl("MusicSequenceGetSecondsForBeats")
public func _MusicSequenceGetSecondsForBeats(_ inSequence: OpaquePointer?, _ inBeats: Double, _ outSeconds: UnsafeMutablePointer<Double>?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let outSeconds, inBeats.isFinite else { return kAudio_ParamError }
        outSeconds.pointee = sequence.model.seconds(forBeats: inBeats)
        return noErr
    }
}

/// `MusicSequenceGetBeatsForSeconds`.
/// - Thread: [control]
@_cdecl("MusicSequenceGetBeatsForSeconds")
public func _MusicSequenceGetBeatsForSeconds(_ inSequence: OpaquePointer?, _ inSeconds: Double, _ outBeats: UnsafeMutablePointer<Double>?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let outBeats, inSeconds.isFinite else { return kAudio_ParamError }
        outBeats.pointee = sequence.model.beats(forSeconds: inSeconds)
        return noErr
    }
}

/// `MusicSequenceBeatsToBarBeatTime` (through the time signatures of the tempo track;
/// bars and beats count from 1).
/// - Thread: [control]
@_cdecl("MusicSequenceBeatsToBarBeatTime")
public func _MusicSequenceBeatsToBarBeatTime(
    _ inSequence: OpaquePointer?, _ inBeats: Double, _ inSubbeatDivisor: UInt32, _ outTime: UnsafeMutablePointer<CAudioToolbox.CABarBeatTime>?
) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let outTime, inBeats.isFinite, inSubbeatDivisor > 0, inSubbeatDivisor <= UInt32(UInt16.max) else { return kAudio_ParamError }
        let time = sequence.model.barBeatTime(forBeats: inBeats, subbeatDivisor: Int(inSubbeatDivisor))
        outTime.pointee = CAudioToolbox.CABarBeatTime(
            bar: Int32(clamping: time.bar), beat: UInt16(clamping: time.beat), subbeat: UInt16(clamping: time.subbeat),
            subbeatDivisor: UInt16(clamping: time.subbeatDivisor), reserved: 0)
        return noErr
    }
}

/// `MusicSequenceBarBeatTimeToBeats`.
/// - Thread: [control]
@_cdecl("MusicSequenceBarBeatTimeToBeats")
public func _MusicSequenceBarBeatTimeToBeats(
    _ inSequence: OpaquePointer?, _ inTime: UnsafePointer<CAudioToolbox.CABarBeatTime>?, _ outBeats: UnsafeMutablePointer<Double>?
) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        guard let inTime, let outBeats, inTime.pointee.subbeatDivisor > 0 else { return kAudio_ParamError }
        let time = inTime.pointee
        outBeats.pointee = sequence.model.beats(for: AUMIDI.CABarBeatTime(
            bar: Int(time.bar), beat: Int(time.beat), subbeat: Int(time.subbeat), subbeatDivisor: Int(time.subbeatDivisor)))
        return noErr
    }
}

/// `MusicSequenceSetUserCallback`: the callback is called for each user event a playing
/// player of the sequence passes, on a thread of the library's, within about 5 ms after the
/// render passed it (``PassedEventDelivery``); NULL stops the calls.
/// - Thread: [control]
@_cdecl("MusicSequenceSetUserCallback")
public func _MusicSequenceSetUserCallback(_ inSequence: OpaquePointer?, _ inCallback: MusicSequenceUserCallback?, _ inClientData: UnsafeMutableRawPointer?) -> OSStatus {
    withHandle(SequenceHandle.live, inSequence) { sequence in
        for player in sequence.players { player.passedEventsFrom = player.player.time }
        if let inCallback {
            sequence.deliversPassedEvents().userCallback = (inCallback, inClientData)
        } else {
            sequence.passedEvents?.userCallback = nil
        }
        return noErr
    }
}
