import AudioToolbox
import Foundation
import Testing

/// Apple's AUAudioFilePlayer through the C API in an AUGraph into a GenericOutput pulled
/// with AudioUnitRender: a region of an AudioFileID (start frame, length, one loop, an
/// offset) plays sample for sample from the first render; CurrentPlayTime; wrong arguments.
@Suite struct AudioFilePlayerTests {
    @Test func aRegionPlaysFromTheStartTimeStamp() throws {
        let folder = try ExtAudioFileTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (graph, _, player, output) = OneUnitGraph.make(kAudioUnitType_Generator, kAudioUnitSubType_AudioFilePlayer)
        defer { DisposeAUGraph(graph!) }
        #expect(AUGraphInitialize(graph) == noErr)
        var rate = 0.0
        var size = UInt32(8)
        #expect(AudioUnitGetProperty(player, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rate, &size) == noErr)

        // A float stereo file at the unit's rate: frame n holds n / 10000 (left) and -n / 10000 (right).
        let url = folder.appendingPathComponent("ramp.caf") as NSURL
        var format = ExtAudioFileTests.float(rate: rate)
        format.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsBigEndian
        format.mBytesPerFrame = 8
        format.mBytesPerPacket = 8
        var writing: AudioFileID?
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &format, 0, &writing) == noErr)
        var ramp = (0..<2000).flatMap { (frame: Int) -> [Float] in [Float(frame) / 10_000, -Float(frame) / 10_000] }.map(\.bitPattern.bigEndian)
        var packets: UInt32 = 2000
        #expect(AudioFileWritePackets(writing, 0, 16_000, nil, 0, &packets, &ramp) == noErr)
        #expect(AudioFileClose(writing) == noErr)
        var file: AudioFileID?
        #expect(AudioFileOpenURL(url as CFURL, AudioFilePermissions(kAudioFileReadPermission), 0, &file) == noErr)
        defer { AudioFileClose(file) }

        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &file, 8) == noErr)
        var region = ScheduledAudioFileRegion()
        region.mTimeStamp.mFlags = kAudioTimeStampSampleTimeValid
        region.mTimeStamp.mSampleTime = 50
        region.mAudioFile = file
        region.mLoopCount = 1
        region.mStartFrame = 100
        region.mFramesToPlay = 1000
        let regionSize = UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &region, regionSize) == noErr)
        var prime: UInt32 = 0
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFilePrime, kAudioUnitScope_Global, 0, &prime, 4) == noErr)
        var start = AudioTimeStamp()
        start.mFlags = kAudioTimeStampSampleTimeValid
        start.mSampleTime = -1
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0, &start, UInt32(MemoryLayout<AudioTimeStamp>.size)) == noErr)

        let samples = SequenceRenderTests.render(output!, frames: 3072)
        #expect(samples[0..<50].allSatisfy { $0 == 0 }, "silence before the region's offset")
        let regionSamples: [Float] = (100..<1100).map { Float($0) / 10_000 }
        #expect(Array(samples[50..<1050]) == regionSamples, "the region, sample for sample")
        #expect(Array(samples[1050..<2050]) == regionSamples, "its one loop")
        #expect(samples[2050...].allSatisfy { $0 == 0 }, "silence after")
        var now = AudioTimeStamp()
        size = UInt32(MemoryLayout<AudioTimeStamp>.size)
        #expect(AudioUnitGetProperty(player, kAudioUnitProperty_CurrentPlayTime, kAudioUnitScope_Global, 0, &now, &size) == noErr && now.mSampleTime == 3072)
        var ids: [AudioFileID?] = [nil]
        size = 8
        #expect(AudioUnitGetProperty(player, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &ids, &size) == noErr && ids[0] == file)

        // Wrong arguments.
        var stranger = region
        stranger.mAudioFile = nil
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &stranger, regionSize) == kAudioUnitErr_InvalidPropertyValue)
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &region, 8) == kAudioUnitErr_InvalidPropertyValue)
        var past = region
        past.mStartFrame = 5000
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &past, regionSize) == kAudioUnitErr_InvalidPropertyValue)
        var garbage: OpaquePointer? = OpaquePointer(bitPattern: 0x1234)
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &garbage, 8) == kAudioUnitErr_InvalidPropertyValue)
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_CurrentPlayTime, kAudioUnitScope_Global, 0, &now, size) == kAudioUnitErr_PropertyNotWritable)
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Input, 0, &file, 8) == kAudioUnitErr_InvalidScope)
        var noTime = start
        noTime.mFlags = 0
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0, &noTime, UInt32(MemoryLayout<AudioTimeStamp>.size)) == kAudioUnitErr_InvalidPropertyValue)
        var frames: UInt32 = 0
        #expect(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFileBufferSizeFrames, kAudioUnitScope_Global, 0, &frames, 4) == kAudio_UnimplementedError)
    }
}

/// An AUGraph of one Apple unit into a GenericOutput, opened, with its node and both units;
/// the caller initializes it and disposes of it.
enum OneUnitGraph {
    static func make(_ type: OSType, _ subtype: OSType) -> (graph: AUGraph?, node: AUNode, unit: AudioUnit?, output: AudioUnit?) {
        var graph: AUGraph?
        var unitDescription = AudioComponentDescription(componentType: type, componentSubType: subtype,
                                                        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var outputDescription = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
                                                          componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var node = AUNode(), outputNode = AUNode()
        var unit: AudioUnit?, output: AudioUnit?
        #expect(NewAUGraph(&graph) == noErr)
        #expect(AUGraphAddNode(graph, &unitDescription, &node) == noErr)
        #expect(AUGraphAddNode(graph, &outputDescription, &outputNode) == noErr)
        #expect(AUGraphConnectNodeInput(graph, node, 0, outputNode, 0) == noErr)
        #expect(AUGraphOpen(graph) == noErr)
        #expect(AUGraphNodeInfo(graph, node, nil, &unit) == noErr && AUGraphNodeInfo(graph, outputNode, nil, &output) == noErr)
        return (graph, node, unit, output)
    }
}
