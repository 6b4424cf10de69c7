import AudioToolbox
import Glibc
import Testing

/// The OSStatus each wrong argument gets, called through the C API as a C program calls it.
@Suite struct AudioToolboxErrorPathTests {
    static func description(_ type: OSType, _ subtype: OSType) -> AudioComponentDescription {
        AudioComponentDescription(componentType: type, componentSubType: subtype, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    }

    static func newUnit(_ type: OSType, _ subtype: OSType) throws -> AudioUnit {
        var description = description(type, subtype)
        let component = try #require(AudioComponentFindNext(nil, &description))
        var unit: AudioUnit?
        #expect(AudioComponentInstanceNew(component, &unit) == noErr)
        return try #require(unit)
    }

    @Test func aNullUnitIsAParameterError() {
        var value: Float32 = 0
        #expect(AudioUnitInitialize(nil) == kAudio_ParamError)
        #expect(AudioUnitGetParameter(nil, 0, kAudioUnitScope_Global, 0, &value) == kAudio_ParamError)
        #expect(AudioUnitSetProperty(nil, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, nil, 0) == kAudio_ParamError)
        #expect(AudioOutputUnitStart(nil) == kAudio_ParamError)
        #expect(AudioComponentInstanceDispose(nil) == kAudio_ParamError)
    }

    @Test func aWrongSizeIsAnInvalidPropertyValue() throws {
        let mixer = try Self.newUnit(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        defer { AudioComponentInstanceDispose(mixer) }
        var frames: UInt64 = 1024
        #expect(AudioUnitSetProperty(mixer, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 8) == kAudioUnitErr_InvalidPropertyValue)
        var format = AudioStreamBasicDescription()
        var size: UInt32 = 20
        #expect(AudioUnitGetProperty(mixer, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, &size) == kAudioUnitErr_InvalidPropertyValue)
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioUnitGetProperty(mixer, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, &size) == noErr)
        #expect(format.mFormatID == kAudioFormatLinearPCM && format.mChannelsPerFrame == 2)
        #expect(format.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0 && format.mBitsPerChannel == 32)
    }

    @Test func anUnknownPropertyIsInvalidAndAnUnofferedOneUnimplemented() throws {
        let mixer = try Self.newUnit(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        defer { AudioComponentInstanceDispose(mixer) }
        var size: UInt32 = 0
        var writable: Boolean = 0
        #expect(AudioUnitGetPropertyInfo(mixer, 4242, kAudioUnitScope_Global, 0, &size, &writable) == kAudioUnitErr_InvalidProperty)
        #expect(AudioUnitGetPropertyInfo(mixer, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &size, &writable) == kAudio_UnimplementedError)
        #expect(AudioUnitGetPropertyInfo(mixer, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &size, &writable) == kAudioUnitErr_InvalidProperty, "a mixer is no output device")
        #expect(AudioUnitGetPropertyInfo(mixer, kAudioUnitProperty_StreamFormat, 99, 0, &size, &writable) == kAudioUnitErr_InvalidScope)
        #expect(AudioUnitGetPropertyInfo(mixer, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &size, &writable) == noErr)
        #expect(size == 40 && writable == 1)
        var name: Unmanaged<CFString>?
        #expect(AudioComponentCopyName(nil, &name) == kAudio_ParamError)
        #expect(AudioComponentCopyName(AudioComponentInstanceGetComponent(mixer), nil) == kAudio_ParamError)
        var parameter: Float32 = 0
        #expect(AudioUnitGetParameter(mixer, 77, kAudioUnitScope_Input, 0, &parameter) == kAudioUnitErr_InvalidParameter)
    }

    @Test func anUninitializedUnitDoesNotRender() throws {
        let output = try Self.newUnit(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        defer { AudioComponentInstanceDispose(output) }
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 64), right = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { left.deallocate(); right.deallocate() }
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 256, mData: left)
        list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 256, mData: right)
        var flags: AudioUnitRenderActionFlags = 0
        var timestamp = AudioTimeStamp()
        timestamp.mFlags = kAudioTimeStampSampleTimeValid
        #expect(AudioUnitRender(output, &flags, &timestamp, 0, 64, list.unsafeMutablePointer) == kAudioUnitErr_Uninitialized)
    }

    @Test func anUnknownNodeIsNotFound() throws {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        defer { DisposeAUGraph(graph) }
        var unit: AudioUnit?
        #expect(AUGraphNodeInfo(graph, 99, nil, &unit) == kAUGraphErr_NodeNotFound)
        #expect(AUGraphRemoveNode(graph, 99) == kAUGraphErr_NodeNotFound)
        #expect(AUGraphConnectNodeInput(graph, 98, 0, 99, 0) == kAUGraphErr_NodeNotFound)
        #expect(AUGraphDisconnectNodeInput(graph, 99, 0) == kAUGraphErr_NodeNotFound)
        var node: AUNode = 0
        #expect(AUGraphGetIndNode(graph, 0, &node) == kAUGraphErr_NodeNotFound)
        var description = Self.description(kAudioUnitType_Effect, 0x6E6F6E65)  // 'none'
        #expect(AUGraphAddNode(graph, &description, &node) == kAudioUnitErr_ExtensionNotFound)
        #expect(AUGraphStart(graph) == kAudioUnitErr_Uninitialized)
        #expect(NewAUGraph(nil) == kAudio_ParamError)
        #expect(AUGraphOpen(nil) == kAudio_ParamError)
        var count: UInt32 = 0
        #expect(AUGraphGetNumberOfInteractions(graph, nil) == kAudio_ParamError)
        #expect(AUGraphCountNodeInteractions(graph, 99, &count) == kAUGraphErr_NodeNotFound)
        var interaction = AUNodeInteraction()
        #expect(AUGraphGetInteractionInfo(graph, 0, &interaction) == kAUGraphErr_InvalidConnection)
    }
}
