internal import AUCore
internal import AUEngine
internal import AUMIDI
internal import AUMusicPlayer

// MusicPlayer's C functions over AUMIDI's MusicPlayer, the graph's MIDI scheduler: every
// event lands at the frame the tempo map gives, in whichever driver renders the graph (the
// output device's thread, JACK, or the program's AudioUnitRender of a GenericOutput).

/// Runs `body` with the live player of `pointer`.
func withPlayer(_ pointer: OpaquePointer?, _ body: (PlayerHandle) throws -> OSStatus) -> OSStatus {
    withHandle(PlayerHandle.live, pointer, body)
}

/// `NewMusicPlayer`.
/// - Thread: [control]
@_cdecl("NewMusicPlayer")
public func _NewMusicPlayer(_ outPlayer: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    newHandle(PlayerHandle.live, outPlayer, PlayerHandle.init)
}

/// `DisposeMusicPlayer`: stops it (every sounding note ends) and detaches it from its graph.
/// - Thread: [control]
@_cdecl("DisposeMusicPlayer")
public func _DisposeMusicPlayer(_ inPlayer: OpaquePointer?) -> OSStatus {
    withPlayer(inPlayer) { player in
        player.player.stop()
        if let sequence = player.sequence {
            sequence.players.removeAll { $0 === player }
            try? sequence.graph?.graph.setMIDIScheduler(nil)
        }
        player.sequence = nil
        player.player.setSequence(nil)
        PlayerHandle.live.unregister(player)
        return noErr
    }
}

/// `MusicPlayerSetSequence`: plays `inSequence` (NULL: none) into the sequence's graph.
/// - Thread: [control]
@_cdecl("MusicPlayerSetSequence")
public func _MusicPlayerSetSequence(_ inPlayer: OpaquePointer?, _ inSequence: OpaquePointer?) -> OSStatus {
    withPlayer(inPlayer) { player in
        var sequence: SequenceHandle?
        if let inSequence {
            guard let found = SequenceHandle.live.lookup(inSequence) else { return kAudio_ParamError }
            sequence = found
        }
        player.sequence?.players.removeAll { $0 === player }
        player.sequence = sequence
        sequence?.players.append(player)
        try player.publish()
        return noErr
    }
}

/// `MusicPlayerGetSequence`: kAudioToolboxErr_NoSequence when none is set.
/// - Thread: [control]
@_cdecl("MusicPlayerGetSequence")
public func _MusicPlayerGetSequence(_ inPlayer: OpaquePointer?, _ outSequence: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    withPlayer(inPlayer) { player in
        guard let outSequence else { return kAudio_ParamError }
        guard let sequence = player.sequence else { return kAudioToolboxErr_NoSequence }
        outSequence.pointee = cPointer(sequence)
        return noErr
    }
}

/// `MusicPlayerSetTime`: the beat it plays from (a seek while playing).
/// - Thread: [control]
@_cdecl("MusicPlayerSetTime")
public func _MusicPlayerSetTime(_ inPlayer: OpaquePointer?, _ inTime: Double) -> OSStatus {
    withPlayer(inPlayer) { player in
        guard inTime.isFinite, inTime >= 0 else { return kAudio_ParamError }
        try player.player.setTime(inTime)
        player.passedEventsFrom = inTime
        return noErr
    }
}

/// `MusicPlayerGetTime`: the beat it is at (while playing, where the next cycle starts).
/// - Thread: [control]
@_cdecl("MusicPlayerGetTime")
public func _MusicPlayerGetTime(_ inPlayer: OpaquePointer?, _ outTime: UnsafeMutablePointer<Double>?) -> OSStatus {
    withPlayer(inPlayer) { player in
        guard let outTime else { return kAudio_ParamError }
        guard player.sequence != nil else { return kAudioToolboxErr_NoSequence }
        outTime.pointee = player.player.time
        return noErr
    }
}

/// `MusicPlayerGetHostTimeForBeats` (nanoseconds of the driver's clock): only while
/// playing in a graph whose driver gives host times (JACK), else
/// kAudioToolboxErr_InvalidPlayerState.
/// - Thread: [control]
@_cdecl("MusicPlayerGetHostTimeForBeats")
public func _MusicPlayerGetHostTimeForBeats(_ inPlayer: OpaquePointer?, _ inBeats: Double, _ outHostTime: UnsafeMutablePointer<UInt64>?) -> OSStatus {
    withPlayer(inPlayer) { player in
        guard let outHostTime, inBeats.isFinite else { return kAudio_ParamError }
        do {
            outHostTime.pointee = try player.player.hostTime(forBeats: inBeats)
        } catch {
            return kAudioToolboxErr_InvalidPlayerState
        }
        return noErr
    }
}

/// `MusicPlayerGetBeatsForHostTime`.
/// - Thread: [control]
@_cdecl("MusicPlayerGetBeatsForHostTime")
public func _MusicPlayerGetBeatsForHostTime(_ inPlayer: OpaquePointer?, _ inHostTime: UInt64, _ outBeats: UnsafeMutablePointer<Double>?) -> OSStatus {
    withPlayer(inPlayer) { player in
        guard let outBeats else { return kAudio_ParamError }
        do {
            outBeats.pointee = try player.player.beats(forHostTime: inHostTime)
        } catch {
            return kAudioToolboxErr_InvalidPlayerState
        }
        return noErr
    }
}

/// Opens and initializes the sequence's graph when it is not (Apple's player does; a
/// sequence without a graph gets the default one), and hands the player its output rate.
private func prepareGraph(_ player: PlayerHandle) throws -> GraphHandle {
    guard let sequence = player.sequence else { throw StatusError(kAudioToolboxErr_NoSequence) }
    if sequence.graph == nil {
        sequence.graph = try defaultGraph()
        sequence.ownsGraph = true
    }
    let graph = sequence.graph!
    if !graph.graph.isInitialized { try check(_AUGraphInitialize(graph.pointer)) }
    try player.publish()
    return graph
}

/// `MusicPlayerPreroll`: initializes the sequence's graph if it is not (a sequence without
/// a graph gets Apple's default one, as MusicSequenceGetAUGraph makes it);
/// kAudioToolboxErr_NoSequence without a sequence.
/// - Thread: [control]
@_cdecl("MusicPlayerPreroll")
public func _MusicPlayerPreroll(_ inPlayer: OpaquePointer?) -> OSStatus {
    withPlayer(inPlayer) { player in
        _ = try prepareGraph(player)
        return noErr
    }
}

/// `MusicPlayerStart`: plays from its time; a graph playing on an output device is started
/// if it is not running (a GenericOutput graph plays as the program pulls it).
/// - Thread: [control]
@_cdecl("MusicPlayerStart")
public func _MusicPlayerStart(_ inPlayer: OpaquePointer?) -> OSStatus {
    withPlayer(inPlayer) { player in
        let graph = try prepareGraph(player)
        player.passedEventsFrom = player.player.time
        try player.player.start()
        let output = graph.graph.outputNode.flatMap { node in graph.nodes.first { $0.node == node } }
        if !graph.graph.isRunning, let output, output.description.componentSubType != kAudioUnitSubType_GenericOutput {
            try check(_AUGraphStart(graph.pointer))
        }
        return noErr
    }
}

/// `MusicPlayerStop`: stops where it is, ending every sounding note (the graph runs on).
/// - Thread: [control]
@_cdecl("MusicPlayerStop")
public func _MusicPlayerStop(_ inPlayer: OpaquePointer?) -> OSStatus {
    withPlayer(inPlayer) { player in
        player.player.stop()
        return noErr
    }
}

/// `MusicPlayerIsPlaying`.
/// - Thread: [control]
@_cdecl("MusicPlayerIsPlaying")
public func _MusicPlayerIsPlaying(_ inPlayer: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    withPlayer(inPlayer) { player in store(player.player.isPlaying, in: out) }
}

/// `MusicPlayerSetPlayRateScalar`: > 0 and finite, else kAudio_ParamError.
/// - Thread: [control]
@_cdecl("MusicPlayerSetPlayRateScalar")
public func _MusicPlayerSetPlayRateScalar(_ inPlayer: OpaquePointer?, _ inScale: Double) -> OSStatus {
    withPlayer(inPlayer) { player in
        guard inScale.isFinite, inScale > 0 else { return kAudio_ParamError }
        try player.player.setPlayRateScalar(inScale)
        return noErr
    }
}

/// `MusicPlayerGetPlayRateScalar`.
/// - Thread: [control]
@_cdecl("MusicPlayerGetPlayRateScalar")
public func _MusicPlayerGetPlayRateScalar(_ inPlayer: OpaquePointer?, _ outScale: UnsafeMutablePointer<Double>?) -> OSStatus {
    withPlayer(inPlayer) { player in
        guard let outScale else { return kAudio_ParamError }
        outScale.pointee = player.player.playRateScalar
        return noErr
    }
}
