import AUTestSupport
import AudioToolbox
import Foundation
import Testing

/// The CoreFoundation values the audio half hands out, read from a C client as Apple's hosts
/// read them: AudioComponentCopyName (a CFString the caller releases), the iPod EQ's
/// FactoryPresets (a CFArray of AUPreset pointers, numbers 0… in order, names as CFStrings;
/// the caller releases the array), a parameter's cfNameString (HasCFNameString and
/// CFNameRelease set), PresentPreset's name, and the sampler's interpolation parameter's
/// ParameterValueStrings (a CFArray of CFStrings; a parameter without strings is refused),
/// a bus's ElementName, and ClassInfo saved, read with CFDictionaryGetValue and CFNumberGetValue, and restored
/// (another unit's refused).
@Suite struct CoreFoundationValueTests {
    static let client = #"""
    #include <AudioToolbox/AudioToolbox.h>

    #define CHECK(x) do { OSStatus s = (x); if (s) { fprintf(stderr, "%s: %d\n", #x, (int)s); return 1; } } while (0)

    static const char *text(CFStringRef string, char *buffer) {
        buffer[0] = 0;
        if (string) CFStringGetCString(string, buffer, 64, kCFStringEncodingUTF8);
        return buffer;
    }

    int main(void) {
        char buffer[64];
        AudioComponentDescription eqDescription = {kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponentDescription mixerDescription = {kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, kAudioUnitManufacturer_Apple, 0, 0};
        AudioComponent eqComponent = AudioComponentFindNext(NULL, &eqDescription);
        AudioComponent mixerComponent = AudioComponentFindNext(NULL, &mixerDescription);
        CFStringRef name = NULL;
        CHECK(AudioComponentCopyName(mixerComponent, &name));
        printf("name: %s\n", text(name, buffer));
        CFRelease(name);

        AudioUnit eq, mixer;
        CHECK(AudioComponentInstanceNew(eqComponent, &eq));
        CHECK(AudioComponentInstanceNew(mixerComponent, &mixer));
        CFArrayRef presets = NULL;
        UInt32 size = sizeof(presets);
        CHECK(AudioUnitGetProperty(eq, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &presets, &size));
        printf("presets: %ld\n", (long)CFArrayGetCount(presets));
        for (CFIndex i = 0; i < CFArrayGetCount(presets); i++) {
            const AUPreset *preset = CFArrayGetValueAtIndex(presets, i);
            if (preset->presetNumber != i) printf("preset %ld has number %d\n", (long)i, (int)preset->presetNumber);
            printf("preset %d: %s\n", (int)preset->presetNumber, text(preset->presetName, buffer));
        }
        CFRelease(presets);
        CFArrayRef none = NULL;
        size = sizeof(none);
        CHECK(AudioUnitGetProperty(mixer, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &none, &size));
        printf("mixer presets: %ld\n", (long)CFArrayGetCount(none));
        CFRelease(none);

        AudioUnitParameterInfo info;
        size = sizeof(info);
        CHECK(AudioUnitGetProperty(mixer, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Input, kMultiChannelMixerParam_Volume, &info, &size));
        printf("parameter: %s flags %d %d\n", text(info.cfNameString, buffer), (info.flags & kAudioUnitParameterFlag_HasCFNameString) != 0,
               (info.flags & kAudioUnitParameterFlag_CFNameRelease) != 0);
        if (info.flags & kAudioUnitParameterFlag_CFNameRelease) CFRelease(info.cfNameString);

        AUPreset present = {2, NULL};
        CHECK(AudioUnitSetProperty(eq, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &present, sizeof present));
        present = (AUPreset){-9, NULL};
        size = sizeof(present);
        CHECK(AudioUnitGetProperty(eq, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &present, &size));
        printf("present: %d %s\n", (int)present.presetNumber, text(present.presetName, buffer));
        if (present.presetName) CFRelease(present.presetName);

        /* ClassInfo: band 3 at +6 dB saved, changed to -3 dB, restored; a mixer's ClassInfo refused by the EQ. */
        CHECK(AudioUnitSetParameter(eq, 3, kAudioUnitScope_Global, 0, 6, 0));
        CFPropertyListRef saved = NULL;
        size = sizeof(saved);
        CHECK(AudioUnitGetProperty(eq, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &saved, &size));
        CFNumberRef subtype = CFDictionaryGetValue((CFDictionaryRef)saved, CFSTR("subtype"));
        SInt32 subtypeValue = 0;
        CFNumberGetValue(subtype, kCFNumberSInt32Type, &subtypeValue);
        printf("class info: %ld keys, subtype is the EQ's: %d, data: %d\n", (long)CFDictionaryGetCount((CFDictionaryRef)saved),
               subtypeValue == (SInt32)kAudioUnitSubType_AUiPodEQ, CFDictionaryGetValue((CFDictionaryRef)saved, CFSTR("data")) != NULL);
        CHECK(AudioUnitSetParameter(eq, 3, kAudioUnitScope_Global, 0, -3, 0));
        CHECK(AudioUnitSetProperty(eq, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &saved, sizeof(saved)));
        Float32 band = 0;
        CHECK(AudioUnitGetParameter(eq, 3, kAudioUnitScope_Global, 0, &band));
        printf("band 3 restored: %g\n", band);
        CFPropertyListRef mixerInfo = NULL;
        size = sizeof(mixerInfo);
        CHECK(AudioUnitGetProperty(mixer, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &mixerInfo, &size));
        printf("another unit's class info: %d\n", (int)AudioUnitSetProperty(eq, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &mixerInfo, sizeof(mixerInfo)));
        CFRelease(mixerInfo);
        CFRelease(saved);

        CFStringRef busName = NULL;
        size = sizeof(busName);
        CHECK(AudioUnitGetProperty(mixer, kAudioUnitProperty_ElementName, kAudioUnitScope_Input, 1, &busName, &size));
        printf("bus name: %s\n", text(busName, buffer));
        CFRelease(busName);
        printf("no such bus: %d, not writable: %d\n", (int)AudioUnitGetProperty(mixer, kAudioUnitProperty_ElementName, kAudioUnitScope_Input, 999, &busName, &size),
               (int)AudioUnitSetProperty(mixer, kAudioUnitProperty_ElementName, kAudioUnitScope_Input, 1, &busName, sizeof busName));

        AudioComponentDescription samplerDescription = {kAudioUnitType_MusicDevice, kAudioUnitSubType_Sampler, kAudioUnitManufacturer_Apple, 0, 0};
        AudioUnit sampler;
        CHECK(AudioComponentInstanceNew(AudioComponentFindNext(NULL, &samplerDescription), &sampler));
        /* The parameter with value strings, found as a host finds it: ParameterList, then each one's flags. */
        AudioUnitParameterID ids[64];
        size = sizeof ids;
        CHECK(AudioUnitGetProperty(sampler, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, ids, &size));
        AudioUnitParameterID withStrings = 9999;
        for (UInt32 i = 0; i < size / sizeof ids[0]; i++) {
            UInt32 infoSize = sizeof(info);
            CHECK(AudioUnitGetProperty(sampler, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, ids[i], &info, &infoSize));
            if (info.flags & kAudioUnitParameterFlag_CFNameRelease) CFRelease(info.cfNameString);
            if ((info.flags & kAudioUnitParameterFlag_ValuesHaveStrings) && withStrings == 9999) withStrings = ids[i];
        }
        CFArrayRef strings = NULL;
        size = sizeof(strings);
        CHECK(AudioUnitGetProperty(sampler, kAudioUnitProperty_ParameterValueStrings, kAudioUnitScope_Global, withStrings, &strings, &size));
        printf("value strings: %ld", (long)CFArrayGetCount(strings));
        for (CFIndex i = 0; i < CFArrayGetCount(strings); i++) printf(" [%s]", text(CFArrayGetValueAtIndex(strings, i), buffer));
        printf("\n");
        CFRelease(strings);
        printf("no value strings: %d\n", (int)AudioUnitGetProperty(sampler, kAudioUnitProperty_ParameterValueStrings, kAudioUnitScope_Global, 0, &strings, &size));
        AudioComponentInstanceDispose(sampler);
        AudioComponentInstanceDispose(eq);
        AudioComponentInstanceDispose(mixer);
        return 0;
    }
    """#

    @Test func namesPresetsAndParameterNamesReadFromC() throws {
        let run = try CClient.run(Self.client, name: "cf-values")
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        for expected in [
            "name: Apple: AUMultiChannelMixer", "presets: 23", "preset 0: Disabled", "preset 2: Bass Booster", "preset 8: Flat", "preset 11: Latin", "preset 16: R&B", "preset 22: Vocal Booster", "mixer presets: 0",
            "parameter: Input 0 Volume flags 1 1", "present: 2 Bass Booster",
            "value strings: 4 [None] [Linear] [4th order] [7th order]",
            "class info: 6 keys, subtype is the EQ's: 1, data: 1", "band 3 restored: 6", "another unit's class info: \(kAudioUnitErr_InvalidPropertyValue)", "bus name: Input 1",
            "no such bus: \(kAudioUnitErr_InvalidElement), not writable: \(kAudioUnitErr_PropertyNotWritable)", "no value strings: \(kAudioUnitErr_InvalidProperty)",
        ] {
            #expect(lines.contains(expected), "\(expected) in:\n\(run.output)\n\(run.errors)")
        }
        #expect(!run.output.contains("has number"), "\(run.output)")
    }
}
