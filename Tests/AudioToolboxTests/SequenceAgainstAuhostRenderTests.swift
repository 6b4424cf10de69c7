import AUFiles
import AUTestSupport
import AudioToolbox
import Foundation
import Testing

/// The same Standard MIDI File through `auhost render` (its General MIDI sampler chain) and
/// through the C API (MusicSequenceFileLoad, a MusicPlayer into Apple's sampler → GenericOutput
/// pulled with AudioUnitRender, at the same 48 kHz) gives the same samples.
@Suite struct SequenceAgainstAuhostRenderTests {
    @Test func theCAPIAndAuhostRenderGiveTheSameSamples() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let song = AudioToolboxBuild.root.appendingPathComponent("Presets/two-part-song.mid")
        let wav = folder.appendingPathComponent("auhost.wav")
        let auhost = AudioToolboxBuild.libraryDirectory.appendingPathComponent("auhost")
        let render = try ChildProcess.run(auhost, ["render", song.path, "-o", wav.path, "--bit-depth", "32f"], timeout: 300)
        try #require(render.status == 0, "\(render.errors)")
        let reader = try AudioFileReader(path: wav.path)
        let all = try reader.readAll()
        let expected = withExtendedLifetime(all) { Array(all.buffers()[0]) }

        var graph: AUGraph?
        var samplerDescription = AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: kAudioUnitSubType_Sampler, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var outputDescription = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var samplerNode = AUNode(), outputNode = AUNode()
        var output: AudioUnit?
        #expect(NewAUGraph(&graph) == noErr)
        defer { DisposeAUGraph(graph!) }
        #expect(AUGraphAddNode(graph, &samplerDescription, &samplerNode) == noErr && AUGraphAddNode(graph, &outputDescription, &outputNode) == noErr)
        #expect(AUGraphConnectNodeInput(graph, samplerNode, 0, outputNode, 0) == noErr && AUGraphOpen(graph) == noErr)
        #expect(AUGraphNodeInfo(graph, outputNode, nil, &output) == noErr && AUGraphInitialize(graph) == noErr)
        var rate = 0.0
        var size = UInt32(8)
        #expect(AudioUnitGetProperty(output, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rate, &size) == noErr)
        try #require(rate == reader.info.sampleRate, "both at \(reader.info.sampleRate) Hz")
        var sequence: MusicSequence?
        #expect(NewMusicSequence(&sequence) == noErr)
        defer { DisposeMusicSequence(sequence!) }
        #expect(MusicSequenceFileLoad(sequence!, song as NSURL as CFURL, kMusicSequenceFile_MIDIType, 0) == noErr)
        #expect(MusicSequenceSetAUGraph(sequence, graph) == noErr)
        var player: MusicPlayer?
        #expect(NewMusicPlayer(&player) == noErr)
        defer { DisposeMusicPlayer(player) }
        #expect(MusicPlayerSetSequence(player, sequence) == noErr && MusicPlayerStart(player) == noErr)
        let frames = Int(8 * rate)
        let samples = SequenceRenderTests.render(output!, frames: frames)
        try #require(samples.count >= frames && expected.count >= frames)
        let difference = zip(samples.prefix(frames), expected.prefix(frames)).map { abs($0 - $1) }.max() ?? 1
        #expect(difference == 0, "the two renders differ by up to \(difference)")
        #expect(expected.prefix(frames).map(abs).max()! > 0.05, "the song is there")
    }
}
