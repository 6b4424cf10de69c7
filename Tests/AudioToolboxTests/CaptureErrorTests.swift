import AUTestSupport
import Testing

/// Capture's refusals on a device with no input (AUHOST_DEVICE=null): HasIO on element 1 is
/// 0, enabling it is kAudioUnitErr_InvalidElement, AudioUnitRender on element 1 cannot be
/// done; playback (element 0) is there and stays on (only a JACK unit, which can capture, plays silence).
@Suite struct CaptureErrorTests {
    static let client = CaptureJACKLiveTests.common + "\n" + #"""
    int main(void) {
        AudioComponentDescription description = {kAudioUnitType_Output, kAudioUnitSubType_RemoteIO, kAudioUnitManufacturer_Apple, 0, 0};
        AudioUnit rio;
        CHECK(AudioComponentInstanceNew(AudioComponentFindNext(NULL, &description), &rio));
        UInt32 value = 7, size = sizeof value, one = 1, zero = 0;
        CHECK(AudioUnitGetProperty(rio, kAudioOutputUnitProperty_HasIO, kAudioUnitScope_Input, 1, &value, &size));
        printf("input: %u\n", value);
        CHECK(AudioUnitGetProperty(rio, kAudioOutputUnitProperty_HasIO, kAudioUnitScope_Output, 0, &value, &size));
        printf("output: %u\n", value);
        EXPECT(AudioUnitSetProperty(rio, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &one, sizeof one), kAudioUnitErr_InvalidElement);
        EXPECT(AudioUnitSetProperty(rio, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 2, &one, sizeof one), kAudioUnitErr_InvalidElement);
        EXPECT(AudioUnitSetProperty(rio, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, &zero, sizeof zero), kAudio_UnimplementedError);
        CHECK(AudioUnitGetProperty(rio, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, &value, &size));
        printf("playback enabled: %u\n", value);
        Float32 left[16];
        struct { UInt32 count; AudioBuffer buffers[1]; } list = {1, {{1, sizeof left, left}}};
        AudioUnitRenderActionFlags flags = 0;
        AudioTimeStamp time = {0};
        EXPECT(AudioUnitRender(rio, &flags, &time, 1, 16, (AudioBufferList *)&list), kAudioUnitErr_CannotDoInCurrentContext);
        AudioComponentInstanceDispose(rio);
        printf("done\n");
        return 0;
    }
    """#

    @Test func aDeviceWithNoInputRefusesCapture() throws {
        let run = try CClient.run(Self.client, name: "capture-errors", environment: ["AUHOST_DEVICE": "null"])
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(run.output == "input: 0\noutput: 1\nplayback enabled: 1\ndone\n")
    }
}
