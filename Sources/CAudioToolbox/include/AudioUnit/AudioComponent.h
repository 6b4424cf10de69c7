/* AudioComponent.h for AUHost's AudioToolbox on Linux: finding and instantiating audio
   components. Written from Apple's public documentation. */
#ifndef AUHOST_AUDIOCOMPONENT_H
#define AUHOST_AUDIOCOMPONENT_H

#include <CoreAudio/CoreAudioTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef UInt32 AudioComponentFlags;
AUHOST_ENUM(AudioComponentFlags) {
    kAudioComponentFlag_Unsearchable = 1,
    kAudioComponentFlag_SandboxSafe = 2,
    kAudioComponentFlag_IsV3AudioUnit = 4,
    kAudioComponentFlag_RequiresAsyncInstantiation = 8,
    kAudioComponentFlag_CanLoadInProcess = 0x10
};

typedef UInt32 AudioComponentInstantiationOptions;
AUHOST_ENUM(AudioComponentInstantiationOptions) {
    kAudioComponentInstantiation_LoadOutOfProcess = 1,
    kAudioComponentInstantiation_LoadInProcess = 2
};

typedef struct AudioComponentDescription {
    OSType componentType;
    OSType componentSubType;
    OSType componentManufacturer;
    UInt32 componentFlags;
    UInt32 componentFlagsMask;
} AudioComponentDescription;

typedef struct OpaqueAudioComponent *AudioComponent;
typedef struct ComponentInstanceRecord *AudioComponentInstance;

AudioComponent AudioComponentFindNext(AudioComponent inComponent, const AudioComponentDescription *inDesc);
UInt32 AudioComponentCount(const AudioComponentDescription *inDesc);
OSStatus AudioComponentCopyName(AudioComponent inComponent, CFStringRef *outName);
OSStatus AudioComponentGetDescription(AudioComponent inComponent, AudioComponentDescription *outDesc);
OSStatus AudioComponentGetVersion(AudioComponent inComponent, UInt32 *outVersion);
OSStatus AudioComponentInstanceNew(AudioComponent inComponent, AudioComponentInstance *outInstance);
OSStatus AudioComponentInstanceDispose(AudioComponentInstance inInstance);
AudioComponent AudioComponentInstanceGetComponent(AudioComponentInstance inInstance);

#ifdef __cplusplus
}
#endif

#endif
