import AudioToolbox
import Testing

/// kAudioUnitProperty_CPULoad and kAudioUnitProperty_OfflineRender: global, writable, kept
/// and read back, refused out of range or at another scope, announced to listeners.
@Suite struct RenderHintTests {
    static let listener: AudioUnitPropertyListenerProc = { data, _, id, _, _ in
        data!.assumingMemoryBound(to: UInt32.self).pointee = id
    }

    @Test func theCPULoadLimitIsKeptAndRangeChecked() throws {
        let mixer = try AudioToolboxErrorPathTests.newUnit(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        defer { AudioComponentInstanceDispose(mixer) }
        var size: UInt32 = 0
        var writable: Boolean = 0
        #expect(AudioUnitGetPropertyInfo(mixer, kAudioUnitProperty_CPULoad, kAudioUnitScope_Global, 0, &size, &writable) == noErr)
        #expect(size == 8 && writable == 1)
        var limit: Float64 = -1
        size = 8
        #expect(AudioUnitGetProperty(mixer, kAudioUnitProperty_CPULoad, kAudioUnitScope_Global, 0, &limit, &size) == noErr)
        #expect(limit == 0, "Apple's default: no limit asked")
        let heard = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
        defer { heard.deallocate() }
        heard.pointee = 0
        #expect(AudioUnitAddPropertyListener(mixer, kAudioUnitProperty_CPULoad, Self.listener, heard) == noErr)
        var asked: Float64 = 0.25
        #expect(AudioUnitSetProperty(mixer, kAudioUnitProperty_CPULoad, kAudioUnitScope_Global, 0, &asked, 8) == noErr)
        #expect(heard.pointee == kAudioUnitProperty_CPULoad, "the listener heard the change")
        #expect(AudioUnitGetProperty(mixer, kAudioUnitProperty_CPULoad, kAudioUnitScope_Global, 0, &limit, &size) == noErr)
        #expect(limit == 0.25)
        asked = 1.5
        #expect(AudioUnitSetProperty(mixer, kAudioUnitProperty_CPULoad, kAudioUnitScope_Global, 0, &asked, 8) == kAudioUnitErr_InvalidPropertyValue)
        #expect(AudioUnitSetProperty(mixer, kAudioUnitProperty_CPULoad, kAudioUnitScope_Input, 0, &asked, 8) == kAudioUnitErr_InvalidScope)
        var wrongSize: Float32 = 0.5
        #expect(AudioUnitSetProperty(mixer, kAudioUnitProperty_CPULoad, kAudioUnitScope_Global, 0, &wrongSize, 4) == kAudioUnitErr_InvalidPropertyValue)
        #expect(AudioUnitRemovePropertyListenerWithUserData(mixer, kAudioUnitProperty_CPULoad, Self.listener, heard) == noErr)
    }

    @Test func offlineRenderIsKept() throws {
        let eq = try AudioToolboxErrorPathTests.newUnit(kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ)
        defer { AudioComponentInstanceDispose(eq) }
        var value: UInt32 = 7
        var size: UInt32 = 4
        #expect(AudioUnitGetProperty(eq, kAudioUnitProperty_OfflineRender, kAudioUnitScope_Global, 0, &value, &size) == noErr)
        #expect(value == 0)
        value = 1
        #expect(AudioUnitSetProperty(eq, kAudioUnitProperty_OfflineRender, kAudioUnitScope_Global, 0, &value, 4) == noErr)
        value = 0
        #expect(AudioUnitGetProperty(eq, kAudioUnitProperty_OfflineRender, kAudioUnitScope_Global, 0, &value, &size) == noErr)
        #expect(value == 1)
        #expect(AudioUnitGetProperty(eq, kAudioUnitProperty_OfflineRender, kAudioUnitScope_Output, 0, &value, &size) == kAudioUnitErr_InvalidScope)
    }
}
