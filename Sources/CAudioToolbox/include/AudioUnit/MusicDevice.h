/* MusicDevice.h for AUHost's AudioToolbox on Linux: MIDI to a music device, and the
   sampler's properties (Apple keeps those in AudioUnitProperties.h). Written from Apple's
   public documentation. */
#ifndef AUHOST_MUSICDEVICE_H
#define AUHOST_MUSICDEVICE_H

#include <CoreFoundation/CoreFoundation.h>
#include <AudioUnit/AUComponent.h>
#include <AudioUnit/AudioComponent.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef UInt32 MusicDeviceInstrumentID;
typedef UInt32 MusicDeviceGroupID;
typedef UInt32 NoteInstanceID;
typedef AudioComponentInstance MusicDeviceComponent;

typedef struct NoteParamsControlValue {
    AudioUnitParameterID mID;
    AudioUnitParameterValue mValue;
} NoteParamsControlValue;

typedef struct MusicDeviceNoteParams {
    UInt32 argCount;
    Float32 mPitch;
    Float32 mVelocity;
    NoteParamsControlValue mControls[1];
} MusicDeviceNoteParams;

AUHOST_ENUM(UInt32) {
    kMusicNoteEvent_UseGroupInstrument = 0xFFFFFFFF,
    kMusicNoteEvent_Unused = 0xFFFFFFFF
};

OSStatus MusicDeviceMIDIEvent(MusicDeviceComponent inUnit, UInt32 inStatus, UInt32 inData1, UInt32 inData2,
    UInt32 inOffsetSampleFrame);
OSStatus MusicDeviceSysEx(MusicDeviceComponent inUnit, const UInt8 *inData, UInt32 inLength);
OSStatus MusicDeviceStartNote(MusicDeviceComponent inUnit, MusicDeviceInstrumentID inInstrument,
    MusicDeviceGroupID inGroupID, NoteInstanceID *outNoteInstanceID, UInt32 inOffsetSampleFrame,
    const MusicDeviceNoteParams *inParams);
OSStatus MusicDeviceStopNote(MusicDeviceComponent inUnit, MusicDeviceGroupID inGroupID,
    NoteInstanceID inNoteInstanceID, UInt32 inOffsetSampleFrame);

/* Music device properties */
AUHOST_ENUM(AudioUnitPropertyID) {
    kMusicDeviceProperty_InstrumentCount = 1000,
    kMusicDeviceProperty_BankName = 1007,
    kMusicDeviceProperty_SoundBankData = 1008,
    kMusicDeviceProperty_StreamFromDisk = 1011,
    kMusicDeviceProperty_SoundBankFSRef = 1012,
    kMusicDeviceProperty_InstrumentName = 1001,
    kMusicDeviceProperty_InstrumentNumber = 1004,
    kMusicDeviceProperty_SoundBankURL = 1100,
    kAUMIDISynthProperty_EnablePreload = 4119
};

/* The sampler's properties */
AUHOST_ENUM(AudioUnitPropertyID) {
    kAUSamplerProperty_LoadInstrument = 4102,
    kAUSamplerProperty_LoadAudioFiles = 4101
};

typedef struct AUSamplerInstrumentData {
    CFURLRef fileURL;
    UInt8 instrumentType;
    UInt8 bankMSB;
    UInt8 bankLSB;
    UInt8 presetID;
} AUSamplerInstrumentData;

AUHOST_ENUM(UInt8) {
    kInstrumentType_DLSPreset = 1,
    kInstrumentType_SF2Preset = kInstrumentType_DLSPreset,
    kInstrumentType_AUPreset = 2,
    kInstrumentType_Audiofile = 3,
    kInstrumentType_EXS24 = 4
};

AUHOST_ENUM(UInt8) {
    kAUSampler_DefaultPercussionBankMSB = 0x78,
    kAUSampler_DefaultMelodicBankMSB = 0x79,
    kAUSampler_DefaultBankLSB = 0x00
};

#ifdef __cplusplus
}
#endif

#endif
