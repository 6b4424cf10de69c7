import AudioToolbox
import Foundation
import Testing

/// The MusicPlayer functions and track destinations through the C API, on an AUSampler →
/// GenericOutput graph pulled with AudioUnitRender; an edit made while the player plays is
/// heard on its beat.
@Suite struct MusicPlayerFunctionTests {
    /// A sequence of one track with a note of `key` at beat 0, tied to `graph`.
    static func sequence(graph: AUGraph) throws -> (MusicSequence, MusicTrack) {
        var sequence: MusicSequence?, track: MusicTrack?
        #expect(NewMusicSequence(&sequence) == noErr)
        #expect(MusicSequenceNewTrack(sequence, &track) == noErr)
        var note = MIDINoteMessage(channel: 0, note: 60, velocity: 100, releaseVelocity: 0, duration: 0.25)
        #expect(MusicTrackNewMIDINoteEvent(track, 0, &note) == noErr)
        #expect(MusicSequenceSetAUGraph(sequence, graph) == noErr)
        return (try #require(sequence), try #require(track))
    }

    @Test func thePlayerIsSetStartedMovedAndStopped() throws {
        let (graph, _, output) = try #require(SequenceRenderTests.samplerGraph())
        defer { DisposeAUGraph(graph) }
        let (sequence, _) = try Self.sequence(graph: graph)
        defer { DisposeMusicSequence(sequence) }
        #expect(NewMusicPlayer(nil) == kAudio_ParamError)
        var player: MusicPlayer?
        #expect(NewMusicPlayer(&player) == noErr)
        var got: MusicSequence?
        #expect(MusicPlayerGetSequence(player, &got) == kAudioToolboxErr_NoSequence)
        var time = 0.0
        #expect(MusicPlayerGetTime(player, &time) == kAudioToolboxErr_NoSequence)
        #expect(MusicPlayerPreroll(player) == kAudioToolboxErr_NoSequence)
        #expect(MusicPlayerSetSequence(player, sequence) == noErr)
        #expect(MusicPlayerGetSequence(player, &got) == noErr && got == sequence)
        #expect(MusicPlayerGetSequence(player, nil) == kAudio_ParamError)
        #expect(MusicPlayerPreroll(player) == noErr)
        #expect(MusicPlayerSetTime(player, 2) == noErr)
        #expect(MusicPlayerGetTime(player, &time) == noErr && time == 2)
        #expect(MusicPlayerSetTime(player, -1) == kAudio_ParamError)
        #expect(MusicPlayerSetPlayRateScalar(player, 2) == noErr)
        var rate = 0.0
        #expect(MusicPlayerGetPlayRateScalar(player, &rate) == noErr && rate == 2)
        #expect(MusicPlayerSetPlayRateScalar(player, 0) == kAudio_ParamError)
        #expect(MusicPlayerGetPlayRateScalar(player, nil) == kAudio_ParamError)
        #expect(MusicPlayerSetPlayRateScalar(player, 1) == noErr)

        var playing: DarwinBoolean = true
        #expect(MusicPlayerIsPlaying(player, &playing) == noErr && !playing.boolValue)
        #expect(MusicPlayerStart(player) == noErr)
        #expect(MusicPlayerIsPlaying(player, &playing) == noErr && playing.boolValue)
        var sampleRate = 0.0
        var size = UInt32(8)
        #expect(AudioUnitGetProperty(output, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &sampleRate, &size) == noErr)
        _ = SequenceRenderTests.render(output, frames: Int(sampleRate))   // one second: two beats at 120 BPM
        #expect(MusicPlayerGetTime(player, &time) == noErr && abs(time - 4) < 0.05, "two beats on from beat 2: \(time)")
        var host: UInt64 = 0
        #expect(MusicPlayerGetHostTimeForBeats(player, 5, &host) == kAudioToolboxErr_InvalidPlayerState, "an offline pull gives no host time")
        var beats = 0.0
        #expect(MusicPlayerGetBeatsForHostTime(player, 0, &beats) == kAudioToolboxErr_InvalidPlayerState)
        #expect(MusicPlayerGetHostTimeForBeats(player, 5, nil) == kAudio_ParamError)
        #expect(MusicPlayerStop(player) == noErr)
        #expect(MusicPlayerIsPlaying(player, &playing) == noErr && !playing.boolValue)
        #expect(MusicPlayerIsPlaying(player, nil) == kAudio_ParamError)
        #expect(DisposeMusicPlayer(player) == noErr)
        #expect(MusicPlayerStart(player) == kAudio_ParamError, "a disposed player")
    }

    @Test func anEditWhilePlayingIsHeardOnItsBeat() throws {
        let (graph, _, output) = try #require(SequenceRenderTests.samplerGraph())
        defer { DisposeAUGraph(graph) }
        let (sequence, track) = try Self.sequence(graph: graph)
        defer { DisposeMusicSequence(sequence) }
        var player: MusicPlayer?
        #expect(NewMusicPlayer(&player) == noErr)
        defer { DisposeMusicPlayer(player) }
        #expect(MusicPlayerSetSequence(player, sequence) == noErr)
        #expect(MusicPlayerStart(player) == noErr)
        var sampleRate = 0.0
        var size = UInt32(8)
        #expect(AudioUnitGetProperty(output, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &sampleRate, &size) == noErr)
        var samples = SequenceRenderTests.render(output, frames: Int(sampleRate))   // beats 0-2
        var note = MIDINoteMessage(channel: 0, note: 67, velocity: 100, releaseVelocity: 0, duration: 0.5)
        #expect(MusicTrackNewMIDINoteEvent(track, 6, &note) == noErr)   // at 3 s, while playing
        samples += SequenceRenderTests.render(output, frames: Int(2.5 * sampleRate))
        let expected = Int(3 * sampleRate)
        let onset = samples[Int(2 * sampleRate)...].firstIndex { $0 != 0 }
        #expect(onset == expected + 1, "the note added while playing starts at \(onset ?? -1); its note-on is frame \(expected)")
    }

    @Test func tracksGoToTheirDestinationNodes() throws {
        let (graph, _, _) = try #require(SequenceRenderTests.samplerGraph())
        defer { DisposeAUGraph(graph) }
        var sequence: MusicSequence?, track: MusicTrack?, tempo: MusicTrack?
        #expect(NewMusicSequence(&sequence) == noErr)
        defer { DisposeMusicSequence(sequence!) }
        #expect(MusicSequenceNewTrack(sequence, &track) == noErr)
        #expect(MusicSequenceGetTempoTrack(sequence, &tempo) == noErr)
        var node = AUNode()
        #expect(MusicTrackGetDestNode(track, &node) == kAudioToolboxError_NoTrackDestination)
        #expect(MusicTrackSetDestNode(track, 1) == kAudioToolboxError_NoTrackDestination, "no graph yet")
        #expect(MusicSequenceSetAUGraph(sequence, graph) == noErr)
        var got: AUGraph?
        #expect(MusicSequenceGetAUGraph(sequence, &got) == noErr && got == graph)
        #expect(MusicSequenceGetAUGraph(sequence, nil) == kAudio_ParamError)
        var samplerNode = AUNode()
        #expect(AUGraphGetIndNode(graph, 0, &samplerNode) == noErr)
        #expect(MusicTrackSetDestNode(track, samplerNode) == noErr)
        #expect(MusicTrackGetDestNode(track, &node) == noErr && node == samplerNode)
        #expect(MusicTrackSetDestNode(track, 99) == kAUGraphErr_NodeNotFound)
        #expect(MusicTrackSetDestNode(tempo, samplerNode) == kAudioToolboxErr_IllegalTrackDestination)
        #expect(MusicTrackSetDestMIDIEndpoint(track, 1) == kAudio_UnimplementedError)
        #expect(MusicTrackGetDestNode(track, nil) == kAudio_ParamError)
    }
}
