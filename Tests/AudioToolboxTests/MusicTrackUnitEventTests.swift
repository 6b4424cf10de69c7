import AudioToolbox
import Foundation
import Testing

/// Parameter and AU preset events on a track (`MusicTrackNewParameterEvent`,
/// `MusicTrackNewAUPresetEvent`): stored and read back through an iterator, and applied by
/// the player to the track's destination unit at their beat.
@Suite struct MusicTrackUnitEventTests {
    /// AUSampler → MultiChannelMixer → GenericOutput, reverb and chorus off; the mixer's node.
    static func samplerMixerGraph() -> (graph: AUGraph, sampler: AudioUnit, mixer: AudioUnit, mixerNode: AUNode, output: AudioUnit)? {
        func description(_ type: OSType, _ subtype: OSType) -> AudioComponentDescription {
            AudioComponentDescription(componentType: type, componentSubType: subtype, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        }
        var samplerDescription = description(kAudioUnitType_MusicDevice, kAudioUnitSubType_Sampler)
        var mixerDescription = description(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        var outputDescription = description(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        var graph: AUGraph?
        var samplerNode = AUNode(), mixerNode = AUNode(), outputNode = AUNode()
        var sampler: AudioUnit?, mixer: AudioUnit?, output: AudioUnit?
        guard NewAUGraph(&graph) == noErr, AUGraphAddNode(graph, &samplerDescription, &samplerNode) == noErr,
              AUGraphAddNode(graph, &mixerDescription, &mixerNode) == noErr, AUGraphAddNode(graph, &outputDescription, &outputNode) == noErr,
              AUGraphConnectNodeInput(graph, samplerNode, 0, mixerNode, 0) == noErr,
              AUGraphConnectNodeInput(graph, mixerNode, 0, outputNode, 0) == noErr, AUGraphOpen(graph) == noErr,
              AUGraphNodeInfo(graph, samplerNode, nil, &sampler) == noErr, AUGraphNodeInfo(graph, mixerNode, nil, &mixer) == noErr,
              AUGraphNodeInfo(graph, outputNode, nil, &output) == noErr,
              AudioUnitSetParameter(sampler, 4, kAudioUnitScope_Global, 0, 0, 0) == noErr,   // reverb off
              AudioUnitSetParameter(sampler, 9, kAudioUnitScope_Global, 0, 0, 0) == noErr,   // chorus off
              AUGraphInitialize(graph) == noErr, let graph, let sampler, let mixer, let output
        else { return nil }
        return (graph, sampler, mixer, mixerNode, output)
    }

    /// Plays a note held from beat 0 to beat 4 (and, when `volumeAtBeat2` is given, a track
    /// of the mixer's output volume changed to it at beat 2) and renders 3 s.
    static func render(volumeAtBeat2: Float?) throws -> (samples: [Float], sampleRate: Double) {
        let (graph, _, _, mixerNode, output) = try #require(samplerMixerGraph())
        defer { DisposeAUGraph(graph) }
        var sequence: MusicSequence?, notes: MusicTrack?
        #expect(NewMusicSequence(&sequence) == noErr)
        defer { DisposeMusicSequence(sequence!) }
        #expect(MusicSequenceNewTrack(sequence, &notes) == noErr)
        var note = MIDINoteMessage(channel: 0, note: 60, velocity: 100, releaseVelocity: 0, duration: 4)
        #expect(MusicTrackNewMIDINoteEvent(notes, 0, &note) == noErr)
        #expect(MusicSequenceSetAUGraph(sequence, graph) == noErr)
        if let volumeAtBeat2 {
            var automation: MusicTrack?
            #expect(MusicSequenceNewTrack(sequence, &automation) == noErr)
            #expect(MusicTrackSetDestNode(automation, mixerNode) == noErr)
            var change = ParameterEvent(parameterID: 0, scope: kAudioUnitScope_Output, element: 0, value: volumeAtBeat2)
            #expect(MusicTrackNewParameterEvent(automation, 2, &change) == noErr)
        }
        return playAndRender(sequence, output: output, seconds: 3)
    }

    /// Plays `sequence` (tied to a graph) with a new player from beat 0 and pulls `seconds`
    /// of the graph's `output`; the samples and the graph's rate.
    static func playAndRender(_ sequence: MusicSequence?, output: AudioUnit, seconds: Int) -> (samples: [Float], sampleRate: Double) {
        var player: MusicPlayer?
        #expect(NewMusicPlayer(&player) == noErr)
        defer { DisposeMusicPlayer(player) }
        #expect(MusicPlayerSetSequence(player, sequence) == noErr)
        #expect(MusicPlayerStart(player) == noErr)
        var sampleRate = 0.0
        var size = UInt32(8)
        #expect(AudioUnitGetProperty(output, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &sampleRate, &size) == noErr)
        return (SequenceRenderTests.render(output, frames: seconds * Int(sampleRate)), sampleRate)
    }

    /// The mixer's output volume goes from 1 to 0.25 at beat 2 (1 s at 120 BPM: the frame of
    /// one second at the graph's rate, rendered 512 frames a cycle, one slice each): every
    /// frame before it is the same as without the event, every frame from it on exactly a
    /// quarter.
    @Test func aParameterEventStepsTheLevelOnItsBeatsFrame() throws {
        let (plain, sampleRate) = try Self.render(volumeAtBeat2: nil)
        let (automated, _) = try Self.render(volumeAtBeat2: 0.25)
        let step = Int(sampleRate)
        try #require(sampleRate > 0 && plain.count >= 3 * step && automated.count == plain.count)
        #expect(plain[step - 2_000..<step].contains { abs($0) > 0.001 } && plain[step..<step + 2_000].contains { abs($0) > 0.001 }, "the note sounds around the step")
        let firstChange = plain.indices.first { plain[$0] != automated[$0] }
        #expect(firstChange == step, "the level changes at frame \(firstChange ?? -1), beat 2 is frame \(step)")
        let quartered = (step..<plain.count).allSatisfy { automated[$0] == plain[$0] * 0.25 }
        #expect(quartered, "from beat 2 on, every sample is a quarter of the plain render's")
    }

    /// An AU preset event restores the sampler's ClassInfo (its gain) when the player passes it.
    @Test func anAUPresetEventRestoresTheStateItHolds() throws {
        let (graph, sampler, _, _, output) = try #require(Self.samplerMixerGraph())
        defer { DisposeAUGraph(graph) }
        #expect(AudioUnitSetParameter(sampler, 0, kAudioUnitScope_Global, 0, 0.5, 0) == noErr)   // gain
        var saved: Unmanaged<AnyObject>?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        #expect(AudioUnitGetProperty(sampler, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &saved, &size) == noErr)
        let preset = try #require(saved)
        defer { preset.release() }
        #expect(AudioUnitSetParameter(sampler, 0, kAudioUnitScope_Global, 0, 0.2, 0) == noErr)

        var sequence: MusicSequence?, track: MusicTrack?
        #expect(NewMusicSequence(&sequence) == noErr)
        defer { DisposeMusicSequence(sequence!) }
        #expect(MusicSequenceNewTrack(sequence, &track) == noErr)
        var event = AUPresetEvent(scope: kAudioUnitScope_Global, element: 0, preset: preset)
        #expect(MusicTrackNewAUPresetEvent(track, 1, &event) == noErr)
        var notADictionary = AUPresetEvent(scope: kAudioUnitScope_Global, element: 0, preset: nil)
        #expect(MusicTrackNewAUPresetEvent(track, 1, &notADictionary) == kAudio_ParamError)

        // Read back: the same dictionary, scope and element.
        var iterator: MusicEventIterator?
        #expect(NewMusicEventIterator(track, &iterator) == noErr)
        var time = 0.0, type: MusicEventType = 0
        var data: UnsafeRawPointer?
        #expect(MusicEventIteratorGetEventInfo(iterator, &time, &type, &data, nil) == noErr)
        #expect(time == 1 && type == kMusicEventType_AUPreset)
        let read = try #require(data).loadUnaligned(as: AUPresetEvent.self)
        #expect(read.preset?.toOpaque() == preset.toOpaque() && read.scope == kAudioUnitScope_Global)
        DisposeMusicEventIterator(iterator)

        #expect(MusicSequenceSetAUGraph(sequence, graph) == noErr)
        var player: MusicPlayer?
        #expect(NewMusicPlayer(&player) == noErr)
        defer { DisposeMusicPlayer(player) }
        #expect(MusicPlayerSetSequence(player, sequence) == noErr)
        #expect(MusicPlayerStart(player) == noErr)
        var gain: AudioUnitParameterValue = 0
        #expect(AudioUnitGetParameter(sampler, 0, kAudioUnitScope_Global, 0, &gain) == noErr && gain == 0.2, "not before its beat")
        _ = SequenceRenderTests.render(output, frames: 44_100)   // beats 0-2: past beat 1
        // The preset is restored off the render thread within a few ms of the render passing it.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            #expect(AudioUnitGetParameter(sampler, 0, kAudioUnitScope_Global, 0, &gain) == noErr)
            if gain == 0.5 { break }
            usleep(2_000)
        }
        #expect(gain == 0.5, "the preset's gain, restored after beat 1: \(gain)")
    }

    /// A parameter event reads back as it was given; a scope Core Audio does not define or a
    /// value that is no number is kAudio_ParamError.
    @Test func aParameterEventReadsBackAndBadOnesAreRefused() throws {
        var sequence: MusicSequence?, track: MusicTrack?
        #expect(NewMusicSequence(&sequence) == noErr)
        defer { DisposeMusicSequence(sequence!) }
        #expect(MusicSequenceNewTrack(sequence, &track) == noErr)
        var change = ParameterEvent(parameterID: 7, scope: kAudioUnitScope_Input, element: 3, value: 0.75)
        #expect(MusicTrackNewParameterEvent(track, 1.5, &change) == noErr)
        var badScope = ParameterEvent(parameterID: 7, scope: 99, element: 0, value: 0)
        #expect(MusicTrackNewParameterEvent(track, 1, &badScope) == kAudio_ParamError)
        var notANumber = ParameterEvent(parameterID: 7, scope: kAudioUnitScope_Global, element: 0, value: .nan)
        #expect(MusicTrackNewParameterEvent(track, 1, &notANumber) == kAudio_ParamError)
        #expect(MusicTrackNewParameterEvent(track, 1, nil) == kAudio_ParamError)
        var iterator: MusicEventIterator?
        #expect(NewMusicEventIterator(track, &iterator) == noErr)
        defer { DisposeMusicEventIterator(iterator) }
        var time = 0.0, type: MusicEventType = 0
        var data: UnsafeRawPointer?, size: UInt32 = 0
        #expect(MusicEventIteratorGetEventInfo(iterator, &time, &type, &data, &size) == noErr)
        let read = try #require(data).loadUnaligned(as: ParameterEvent.self)
        #expect(time == 1.5 && type == kMusicEventType_Parameter && size == 16)
        #expect(read.parameterID == 7 && read.scope == kAudioUnitScope_Input && read.element == 3 && read.value == 0.75)
        var other = ParameterEvent(parameterID: 8, scope: kAudioUnitScope_Global, element: 0, value: 2)
        #expect(MusicEventIteratorSetEventInfo(iterator, kMusicEventType_Parameter, &other) == noErr)
        #expect(MusicEventIteratorGetEventInfo(iterator, nil, nil, &data, nil) == noErr)
        #expect(try #require(data).loadUnaligned(as: ParameterEvent.self).parameterID == 8)
    }
}
