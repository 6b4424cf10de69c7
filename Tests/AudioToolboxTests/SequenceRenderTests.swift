import AUTestSupport
import AudioToolbox
import Foundation
import Testing

/// A Standard MIDI File loaded with MusicSequenceFileLoad and played by a MusicPlayer into
/// an AUSampler → GenericOutput graph, pulled with AudioUnitRender as Apple's PlaySequence
/// sample does offline: every note starts on the frame its tempo map gives.
@Suite struct SequenceRenderTests {

    /// A format-1 SMF, 480 ticks a beat: tempo 120 BPM, 60 BPM from beat 8, 666 667 µs a
    /// beat (≈ 90 BPM) from beat 12; one track of short notes at beats 0, 8, 12 and 15.5.
    static let notes: [(beat: Double, key: UInt8)] = [(0, 60), (8, 64), (12, 67), (15.5, 72)]
    static var file: [UInt8] {
        func vlq(_ value: Int) -> [UInt8] {
            var bytes = [UInt8(value & 0x7F)]
            var rest = value >> 7
            while rest > 0 { bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0); rest >>= 7 }
            return bytes
        }
        func chunk(_ body: [UInt8]) -> [UInt8] {
            Array("MTrk".utf8) + withUnsafeBytes(of: UInt32(body.count).bigEndian) { Array($0) } + body
        }
        func tempo(_ micros: Int) -> [UInt8] { [0xFF, 0x51, 0x03, UInt8(micros >> 16), UInt8((micros >> 8) & 0xFF), UInt8(micros & 0xFF)] }
        let tempoTrack = vlq(0) + tempo(500_000) + vlq(8 * 480) + tempo(1_000_000) + vlq(4 * 480) + tempo(666_667) + [0, 0xFF, 0x2F, 0]
        var noteTrack: [UInt8] = []
        var tick = 0
        for note in notes {
            let on = Int(note.beat * 480)
            noteTrack += vlq(on - tick) + [0x90, note.key, 100] + vlq(240) + [0x80, note.key, 0]
            tick = on + 240
        }
        noteTrack += [0, 0xFF, 0x2F, 0]
        return Array("MThd".utf8) + [0, 0, 0, 6, 0, 1, 0, 2, 0x01, 0xE0] + chunk(tempoTrack) + chunk(noteTrack)
    }

    /// The second at which `beat` plays under that tempo map, worked out by hand.
    static func seconds(_ beat: Double) -> Double {
        if beat <= 8 { return beat * 0.5 }
        if beat <= 12 { return 4 + (beat - 8) }
        return 8 + (beat - 12) * 0.666667
    }

    /// A sampler (General MIDI, reverb and chorus off, so silence between notes is exact
    /// zero) into a GenericOutput, initialized.
    static func samplerGraph() -> (graph: AUGraph, sampler: AudioUnit, output: AudioUnit)? {
        var graph: AUGraph?
        var samplerDescription = AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: kAudioUnitSubType_Sampler, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var outputDescription = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var samplerNode = AUNode(), outputNode = AUNode()
        var sampler: AudioUnit?, output: AudioUnit?
        guard NewAUGraph(&graph) == noErr, AUGraphAddNode(graph, &samplerDescription, &samplerNode) == noErr,
              AUGraphAddNode(graph, &outputDescription, &outputNode) == noErr,
              AUGraphConnectNodeInput(graph, samplerNode, 0, outputNode, 0) == noErr, AUGraphOpen(graph) == noErr,
              AUGraphNodeInfo(graph, samplerNode, nil, &sampler) == noErr, AUGraphNodeInfo(graph, outputNode, nil, &output) == noErr,
              AudioUnitSetParameter(sampler, 4, kAudioUnitScope_Global, 0, 0, 0) == noErr,   // reverb off
              AudioUnitSetParameter(sampler, 9, kAudioUnitScope_Global, 0, 0, 0) == noErr,   // chorus off
              AUGraphInitialize(graph) == noErr, let graph, let sampler, let output
        else { return nil }
        return (graph, sampler, output)
    }

    /// Pulls `frames` frames of the output's left channel, 512 at a time.
    static func render(_ output: AudioUnit, from sampleTime: Double = 0, frames: Int) -> [Float] {
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 512), right = UnsafeMutablePointer<Float>.allocate(capacity: 512)
        defer { left.deallocate(); right.deallocate() }
        var samples: [Float] = []
        var timestamp = AudioTimeStamp()
        timestamp.mFlags = kAudioTimeStampSampleTimeValid
        timestamp.mSampleTime = sampleTime
        while samples.count < frames {
            list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 2048, mData: left)
            list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 2048, mData: right)
            var flags: AudioUnitRenderActionFlags = 0
            guard AudioUnitRender(output, &flags, &timestamp, 0, 512, list.unsafeMutablePointer) == noErr else { return samples }
            samples += UnsafeBufferPointer(start: left, count: 512)
            timestamp.mSampleTime += 512
        }
        return samples
    }

    @Test func notesOfALoadedFileStartOnTheFramesOfItsTempoMap() throws {
        let folder = try TemporaryFolder(prefix: "sequence-render")
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("tempo-map.mid")
        try Data(Self.file).write(to: path)

        let (graph, _, output) = try #require(Self.samplerGraph())
        defer { DisposeAUGraph(graph) }
        var sequence: MusicSequence?
        #expect(NewMusicSequence(&sequence) == noErr)
        defer { DisposeMusicSequence(sequence!) }
        #expect(MusicSequenceFileLoad(sequence!, path as NSURL as CFURL, kMusicSequenceFile_MIDIType, 0) == noErr)
        var count: UInt32 = 0
        #expect(MusicSequenceGetTrackCount(sequence, &count) == noErr && count == 1)
        var seconds = 0.0
        #expect(MusicSequenceGetSecondsForBeats(sequence, 15.5, &seconds) == noErr && abs(seconds - Self.seconds(15.5)) < 1e-6)
        #expect(MusicSequenceSetAUGraph(sequence, graph) == noErr)
        var player: MusicPlayer?
        #expect(NewMusicPlayer(&player) == noErr)
        defer { DisposeMusicPlayer(player) }
        #expect(MusicPlayerSetSequence(player, sequence) == noErr)
        #expect(MusicPlayerStart(player) == noErr)

        var rate = 0.0
        var size = UInt32(MemoryLayout<Double>.size)
        #expect(AudioUnitGetProperty(output, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rate, &size) == noErr && rate > 0)
        let samples = Self.render(output, frames: Int(11.5 * rate))
        try #require(samples.count >= Int(11.5 * rate))
        for note in Self.notes {
            let expected = Int((Self.seconds(note.beat) * rate + 1e-6).rounded(.down))
            // The voice's envelope starts from zero on the note-on's frame: its first
            // non-zero sample is the next one.
            let onset = samples[max(0, expected - 4410)...].firstIndex { $0 != 0 }
            #expect(onset == expected + 1, "note \(note.key) at beat \(note.beat): first sound at \(onset ?? -1), note-on expected at frame \(expected)")
            let window = Array(samples[(expected + 441)..<(expected + 441 + 8192)])
            let frequency = 440 * pow(2, (Double(note.key) - 69) / 12)
            let here = Goertzel.amplitude(of: frequency, in: window, sampleRate: rate)
            let neighbours = [frequency * pow(2, -1 / 12), frequency * pow(2, 1 / 12)].map { Goertzel.amplitude(of: $0, in: window, sampleRate: rate) }
            #expect(here > 4 * neighbours.max()!, "note \(note.key): \(here) against its neighbours \(neighbours)")
        }
    }
}
