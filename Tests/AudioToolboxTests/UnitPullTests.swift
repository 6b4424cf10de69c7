import AudioToolbox
import Glibc
import Testing

/// Units outside a graph, pulled with AudioUnitRender as an offline C program pulls them:
/// a render callback set with kAudioUnitProperty_SetRenderCallback in a client format the
/// mixer does not render in (16-bit interleaved), the mixer into a GenericOutput unit with
/// kAudioUnitProperty_MakeConnection, parameters, listeners and render notifications.
@Suite struct UnitPullTests {
    /// A constant 16-bit interleaved stereo signal: left 8192 (0.25), right -16384 (-0.5).
    static let constantInt16: AURenderCallback = { _, _, _, _, frames, ioData in
        let list = UnsafeMutableAudioBufferListPointer(ioData)!
        guard list.count == 1, list[0].mNumberChannels == 2, list[0].mDataByteSize == frames * 4 else { return kAudio_ParamError }
        let samples = list[0].mData!.assumingMemoryBound(to: Int16.self)
        for frame in 0..<Int(frames) {
            samples[2 * frame] = 8192
            samples[2 * frame + 1] = -16384
        }
        return noErr
    }

    static let countNotifications: AURenderCallback = { refCon, flags, _, _, _, _ in
        let counter = refCon!.assumingMemoryBound(to: Int.self)
        if flags!.pointee & kAudioUnitRenderAction_PostRender != 0 { counter.pointee += 1 }
        return noErr
    }

    static let recordChange: AudioUnitPropertyListenerProc = { refCon, _, id, _, _ in
        refCon!.assumingMemoryBound(to: UInt32.self).pointee = id
    }

    @Test func aMixerWithAClientFormatIsPulledThroughAGenericOutput() throws {
        let mixer = try AudioToolboxErrorPathTests.newUnit(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        let output = try AudioToolboxErrorPathTests.newUnit(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        defer {
            AudioComponentInstanceDispose(output)
            AudioComponentInstanceDispose(mixer)
        }
        let changed = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
        changed.pointee = 0
        defer { changed.deallocate() }
        #expect(AudioUnitAddPropertyListener(mixer, kAudioUnitProperty_StreamFormat, Self.recordChange, changed) == noErr)

        var one: UInt32 = 1
        #expect(AudioUnitSetProperty(mixer, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &one, 4) == noErr)
        var int16 = AudioStreamBasicDescription(
            mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
        #expect(AudioUnitSetProperty(mixer, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &int16, 40) == noErr)
        #expect(changed.pointee == kAudioUnitProperty_StreamFormat, "the listener heard the format change")
        var readBack = AudioStreamBasicDescription()
        var size: UInt32 = 40
        #expect(AudioUnitGetProperty(mixer, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &readBack, &size) == noErr)
        #expect(readBack.mBitsPerChannel == 16 && readBack.mFormatFlags == int16.mFormatFlags && readBack.mBytesPerFrame == 4)

        var callback = AURenderCallbackStruct(inputProc: Self.constantInt16, inputProcRefCon: nil)
        #expect(AudioUnitSetProperty(mixer, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr)
        var connection = AudioUnitConnection(sourceAudioUnit: mixer, sourceOutputNumber: 0, destInputNumber: 0)
        #expect(AudioUnitSetProperty(output, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &connection, UInt32(MemoryLayout<AudioUnitConnection>.size)) == noErr)
        #expect(AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.5, 0) == noErr)
        var volume: Float32 = 0
        #expect(AudioUnitGetParameter(mixer, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, &volume) == noErr)
        #expect(volume == 0.5)

        let notifications = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        notifications.pointee = 0
        defer { notifications.deallocate() }
        #expect(AudioUnitAddRenderNotify(output, Self.countNotifications, notifications) == noErr)
        #expect(AudioUnitInitialize(mixer) == noErr)
        #expect(AudioUnitInitialize(output) == noErr)

        let frames = 256
        let left = UnsafeMutablePointer<Float>.allocate(capacity: frames), right = UnsafeMutablePointer<Float>.allocate(capacity: frames)
        defer { left.deallocate(); right.deallocate() }
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        var timestamp = AudioTimeStamp()
        timestamp.mFlags = kAudioTimeStampSampleTimeValid
        for cycle in 0..<4 {
            list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: left)
            list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: right)
            timestamp.mSampleTime = Float64(cycle * frames)
            var flags: AudioUnitRenderActionFlags = 0
            #expect(AudioUnitRender(output, &flags, &timestamp, 0, UInt32(frames), list.unsafeMutablePointer) == noErr)
        }
        // 16-bit full scale is 32768: 0.25 and -0.5, at the bus volume 0.5 (stereo input, centre pan).
        #expect(abs(left[frames - 1] - 0.125) < 1e-4, "left \(left[frames - 1])")
        #expect(abs(right[frames - 1] + 0.25) < 1e-4, "right \(right[frames - 1])")
        #expect(notifications.pointee == 4)
        #expect(AudioUnitRemoveRenderNotify(output, Self.countNotifications, notifications) == noErr)
        #expect(AudioUnitRemovePropertyListenerWithUserData(mixer, kAudioUnitProperty_StreamFormat, Self.recordChange, changed) == noErr)

        var latency: Float64 = -1
        size = 8
        #expect(AudioUnitGetProperty(mixer, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, &size) == noErr)
        #expect(latency == 0)
        // A ramp scheduled for the next render: the bus volume goes from 0.5 to 1 over it.
        var ramp = AudioUnitParameterEvent()
        ramp.scope = kAudioUnitScope_Input
        ramp.element = 0
        ramp.parameter = kMultiChannelMixerParam_Volume
        ramp.eventType = kParameterEvent_Ramped
        ramp.eventValues.ramp = .init(startBufferOffset: 0, durationInFrames: UInt32(frames), startValue: 0.5, endValue: 1)
        #expect(AudioUnitScheduleParameters(mixer, &ramp, 1) == noErr)
        list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: left)
        list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: right)
        timestamp.mSampleTime = Float64(4 * frames)  // a new time: the same one is served from the unit's last render
        var rampFlags: AudioUnitRenderActionFlags = 0
        #expect(AudioUnitRender(output, &rampFlags, &timestamp, 0, UInt32(frames), list.unsafeMutablePointer) == noErr)
        #expect(left[0] < 0.14 && abs(left[frames - 1] - 0.25) < 0.01, "ramped: \(left[0]) … \(left[frames / 2]) … \(left[frames - 1])")

        #expect(AudioUnitUninitialize(output) == noErr)
        #expect(AudioUnitReset(mixer, kAudioUnitScope_Global, 0) == noErr)
    }

    @Test func componentsAreFoundByApplesDescriptions() throws {
        var any = AudioComponentDescription()
        #expect(AudioComponentCount(&any) >= 10)
        var outputs = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: 0, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        #expect(AudioComponentCount(&outputs) == 6, "GenericOutput, RemoteIO, DefaultOutput, SystemOutput, HALOutput, VoiceProcessingIO")
        var subtypes: [OSType] = []
        var component = AudioComponentFindNext(nil, &outputs)
        while let found = component {
            var description = AudioComponentDescription()
            #expect(AudioComponentGetDescription(found, &description) == noErr)
            subtypes.append(description.componentSubType)
            var version: UInt32 = 0
            #expect(AudioComponentGetVersion(found, &version) == noErr && version == 0x10000)
            component = AudioComponentFindNext(found, &outputs)
        }
        #expect(Set(subtypes) == [kAudioUnitSubType_GenericOutput, kAudioUnitSubType_RemoteIO, kAudioUnitSubType_DefaultOutput,
                                  kAudioUnitSubType_SystemOutput, kAudioUnitSubType_HALOutput, kAudioUnitSubType_VoiceProcessingIO])

        let eq = try AudioToolboxErrorPathTests.newUnit(kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ)
        defer { AudioComponentInstanceDispose(eq) }
        var size: UInt32 = 0
        #expect(AudioUnitGetPropertyInfo(eq, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, nil) == noErr)
        #expect(size == 40, "ten bands")
        var ids = [UInt32](repeating: 99, count: 10)
        #expect(AudioUnitGetProperty(eq, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size) == noErr)
        #expect(ids == Array(0..<10))
        var info = AudioUnitParameterInfo()
        size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        #expect(AudioUnitGetProperty(eq, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, 0, &info, &size) == noErr)
        #expect(info.unit == kAudioUnitParameterUnit_Decibels && info.minValue == -12 && info.maxValue == 12)
        #expect(info.flags & kAudioUnitParameterFlag_IsWritable != 0)
        var preset = AUPreset(presetNumber: 2, presetName: nil)
        #expect(AudioUnitSetProperty(eq, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size)) == noErr)
        var band: Float32 = 0
        #expect(AudioUnitGetParameter(eq, 0, kAudioUnitScope_Global, 0, &band) == noErr)
        #expect(band == 5.5, "Bass Booster lifts 32 Hz by 5.5 dB")
    }
}
