import AudioToolbox
import Foundation
import Testing

/// MusicDevice.h through the C API on Apple's sampler (AUHost's, with the GM bank): MIDI and
/// notes into a unit pulled with AudioUnitRender, and the sampler's Apple properties.
@Suite struct MusicDeviceFunctionTests {
    static let bank = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

    /// Apple's `subtype` music device, initialized, reverb and chorus off.
    static func synth(_ subtype: OSType = kAudioUnitSubType_Sampler) throws -> AudioUnit {
        var description = AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: subtype, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        let component = try #require(AudioComponentFindNext(nil, &description))
        var unit: AudioUnit?
        #expect(AudioComponentInstanceNew(component, &unit) == noErr)
        #expect(AudioUnitSetParameter(unit, 4, kAudioUnitScope_Global, 0, 0, 0) == noErr)
        #expect(AudioUnitSetParameter(unit, 9, kAudioUnitScope_Global, 0, 0, 0) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        return try #require(unit)
    }

    /// The peak of `frames` frames pulled from `unit`.
    static func peak(_ unit: AudioUnit, frames: Int = 4096) -> Float {
        SequenceRenderTests.render(unit, frames: frames).map(abs).max() ?? 0
    }

    @Test func appleSynthsAreTheSamplerWithTheGeneralMIDIBank() throws {
        for subtype in [kAudioUnitSubType_Sampler, kAudioUnitSubType_DLSSynth, kAudioUnitSubType_MIDISynth] {
            let unit = try Self.synth(subtype)
            defer { AudioComponentInstanceDispose(unit) }
            #expect(Self.peak(unit) < 1e-4, "silent before a note")
            #expect(MusicDeviceMIDIEvent(unit, 0x90, 69, 100, 0) == noErr)
            #expect(Self.peak(unit) > 0.01, "a note of the GM piano")
        }
    }

    @Test func midiEventsAndNotesAreHeardAndWrongOnesRefused() throws {
        let unit = try Self.synth()
        defer { AudioComponentInstanceDispose(unit) }
        var params = MusicDeviceNoteParams(argCount: 2, mPitch: 72, mVelocity: 110, mControls: NoteParamsControlValue())
        var instance: NoteInstanceID = 0
        #expect(MusicDeviceStartNote(unit, kMusicNoteEvent_UseGroupInstrument, 0, &instance, 0, &params) == noErr)
        #expect(Self.peak(unit) > 0.01)
        #expect(MusicDeviceStopNote(unit, 0, instance, 0) == noErr)
        _ = SequenceRenderTests.render(unit, frames: 48_000 * 4)
        #expect(Self.peak(unit) == 0, "the note ended")
        #expect(MusicDeviceStartNote(unit, 0x79_00_18, 1, &instance, 0, &params) == noErr, "an instrument by bank MSB, LSB and program")
        #expect(Self.peak(unit) > 0.01)

        #expect(MusicDeviceMIDIEvent(unit, 0x12, 0, 0, 0) == kAudio_ParamError)
        #expect(MusicDeviceMIDIEvent(unit, 0x90, 200, 0, 0) == kAudio_ParamError)
        #expect(MusicDeviceMIDIEvent(unit, 0x90, 60, 100, 1 << 20) == kAudioUnitErr_InvalidPropertyValue, "an offset past the slice")
        #expect(MusicDeviceMIDIEvent(nil, 0x90, 60, 100, 0) == kAudio_ParamError)
        #expect(MusicDeviceStartNote(unit, kMusicNoteEvent_UseGroupInstrument, 0, &instance, 0, nil) == kAudio_ParamError)
        params.mPitch = 300
        #expect(MusicDeviceStartNote(unit, kMusicNoteEvent_UseGroupInstrument, 0, &instance, 0, &params) == kAudio_ParamError)
        #expect(MusicDeviceStopNote(unit, 3, instance, 0) == kAudio_ParamError, "another group's note")

        var mixerDescription = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var mixer: AudioUnit?
        #expect(AudioComponentInstanceNew(AudioComponentFindNext(nil, &mixerDescription), &mixer) == noErr)
        defer { AudioComponentInstanceDispose(mixer!) }
        #expect(MusicDeviceMIDIEvent(mixer, 0x90, 60, 100, 0) == badComponentSelector)
    }

    @Test func loadInstrumentAndSoundBankURL() throws {
        let unit = try Self.synth()
        defer { AudioComponentInstanceDispose(unit) }
        var size: UInt32 = 0
        var writable: DarwinBoolean = false
        #expect(AudioUnitGetPropertyInfo(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &size, &writable) == noErr)
        #expect(Int(size) == MemoryLayout<AUSamplerInstrumentData>.size && writable.boolValue)
        #expect(AudioUnitGetPropertyInfo(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Input, 0, &size, &writable) == kAudioUnitErr_InvalidScope)

        let url = URL(fileURLWithPath: Self.bank)
        // Program 24 (0-based): GM's nylon guitar, whose note differs from the piano's.
        var data = AUSamplerInstrumentData(fileURL: Unmanaged.passUnretained(url as CFURL), instrumentType: UInt8(kInstrumentType_SF2Preset),
                                           bankMSB: UInt8(kAUSampler_DefaultMelodicBankMSB), bankLSB: UInt8(kAUSampler_DefaultBankLSB), presetID: 24)
        let dataSize = UInt32(MemoryLayout<AUSamplerInstrumentData>.size)
        #expect(MusicDeviceMIDIEvent(unit, 0x90, 60, 100, 0) == noErr)
        let piano = SequenceRenderTests.render(unit, frames: 8192)
        #expect(MusicDeviceMIDIEvent(unit, 0x80, 60, 0, 0) == noErr)
        _ = SequenceRenderTests.render(unit, frames: 48_000 * 4)
        #expect(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &data, dataSize) == noErr)
        #expect(MusicDeviceMIDIEvent(unit, 0x90, 60, 100, 0) == noErr)
        let guitar = SequenceRenderTests.render(unit, frames: 8192)
        #expect(guitar.map(abs).max()! > 0.01)
        #expect(zip(piano, guitar).contains { abs($0 - $1) > 0.01 }, "another instrument sounds")

        data.presetID = 200
        #expect(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &data, dataSize) == kAudioUnitErr_InvalidPropertyValue)
        data.presetID = 0
        data.instrumentType = UInt8(kInstrumentType_AUPreset)
        #expect(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &data, dataSize) == kAudio_UnimplementedError)
        data.instrumentType = 9
        #expect(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &data, dataSize) == kAudio_ParamError)
        data.instrumentType = UInt8(kInstrumentType_DLSPreset)
        #expect(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &data, 3) == kAudioUnitErr_InvalidPropertyValue)
        data.fileURL = nil
        #expect(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &data, dataSize) == kAudio_ParamError)
        let missing = URL(fileURLWithPath: "/nonexistent/bank.sf2")
        data = AUSamplerInstrumentData(fileURL: Unmanaged.passUnretained(missing as CFURL), instrumentType: UInt8(kInstrumentType_DLSPreset), bankMSB: 0x79, bankLSB: 0, presetID: 0)
        #expect(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &data, dataSize) == -66742, "kAudioUnitErr_InvalidFilePath")
        var out = AUSamplerInstrumentData()
        size = dataSize
        #expect(AudioUnitGetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &out, &size) == kAudioUnitErr_InvalidProperty, "write-only")

        // SoundBankURL: set loads the bank as a GM module; read, a new URL of it.
        var bankURL: OpaquePointer? = OpaquePointer(Unmanaged.passRetained(url as NSURL).toOpaque())
        defer { Unmanaged<NSURL>.fromOpaque(UnsafeRawPointer(bankURL!)).release() }
        #expect(AudioUnitSetProperty(unit, kMusicDeviceProperty_SoundBankURL, kAudioUnitScope_Global, 0, &bankURL, 8) == noErr)
        var read: OpaquePointer?
        size = 8
        #expect(AudioUnitGetProperty(unit, kMusicDeviceProperty_SoundBankURL, kAudioUnitScope_Global, 0, &read, &size) == noErr)
        let readURL = Unmanaged<NSURL>.fromOpaque(UnsafeRawPointer(try #require(read))).takeRetainedValue()
        #expect(readURL.path == Self.bank)
        var none: OpaquePointer?
        #expect(AudioUnitSetProperty(unit, kMusicDeviceProperty_SoundBankURL, kAudioUnitScope_Global, 0, &none, 8) == kAudio_ParamError)
        #expect(AudioUnitSetProperty(unit, kMusicDeviceProperty_SoundBankFSRef, kAudioUnitScope_Global, 0, &none, 8) == kAudioUnitErr_InvalidPropertyValue, "an FSRef is 80 bytes")
        #expect(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadAudioFiles, kAudioUnitScope_Global, 0, &none, 8) == kAudioUnitErr_InvalidPropertyValue, "no CFArray")
    }
}
