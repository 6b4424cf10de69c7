import AudioToolbox
import Testing

/// AudioFormat through the C API: a linear PCM description completed as textbook programs
/// ask for it, the coded format lists, and the OSStatus of wrong arguments.
@Suite struct AudioFormatTests {
    @Test func formatInfoCompletesALinearPCMDescription() throws {
        var format = AudioStreamBasicDescription()
        format.mFormatID = kAudioFormatLinearPCM
        format.mSampleRate = 44_100
        format.mChannelsPerFrame = 2
        format.mBitsPerChannel = 24
        format.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsBigEndian
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &format) == noErr)
        #expect(format.mBytesPerFrame == 6 && format.mBytesPerPacket == 6 && format.mFramesPerPacket == 1)
        #expect(format.mFormatFlags & kAudioFormatFlagIsPacked != 0 && format.mFormatFlags & kAudioFormatFlagIsBigEndian != 0)
        format.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsNonInterleaved
        format.mBitsPerChannel = 32
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &format) == noErr && format.mBytesPerFrame == 4)
        var aac = AudioStreamBasicDescription()
        aac.mFormatID = kAudioFormatMPEG4AAC
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &aac) == kAudioFormatUnsupportedDataFormatError)
        var empty = AudioStreamBasicDescription()
        empty.mFormatID = kAudioFormatLinearPCM
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &empty) == kAudioFormatUnknownFormatError)
        var small: UInt32 = 8
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &small, &format) == kAudioFormatBadPropertySizeError)
    }

    @Test func formatListsAndQuestions() throws {
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_EncodeFormatIDs, 0, nil, &size) == noErr && size == 8)
        var ids = [UInt32](repeating: 0, count: 2)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_EncodeFormatIDs, 0, nil, &size, &ids) == noErr && ids == [kAudioFormatLinearPCM, kAudioFormatFLAC])
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_DecodeFormatIDs, 0, nil, &size) == noErr && size == 24)
        ids = [UInt32](repeating: 0, count: 6)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_DecodeFormatIDs, 0, nil, &size, &ids) == noErr
            && ids == [kAudioFormatLinearPCM, kAudioFormatFLAC, kAudioFormatOpus, kAudioFormatMPEGLayer1, kAudioFormatMPEGLayer2, kAudioFormatMPEGLayer3])
        var flac = AudioStreamBasicDescription()
        flac.mFormatID = kAudioFormatFLAC
        var vbr: UInt32 = 0
        size = 4
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatIsVBR, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &flac, &size, &vbr) == noErr && vbr == 1)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatIsVBR, 4, &flac, &size, &vbr) == kAudioFormatBadSpecifierSizeError)
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatName, 0, nil, &size) == kAudio_UnimplementedError)
        #expect(AudioFormatGetPropertyInfo(0x1234, 0, nil, &size) == kAudioFormatUnsupportedPropertyError)
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_EncodeFormatIDs, 0, nil, nil) == kAudio_ParamError)
    }
}
