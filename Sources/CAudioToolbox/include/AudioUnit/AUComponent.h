/* AUComponent.h for AUHost's AudioToolbox on Linux: the Audio Unit types, scopes, render
   flags, errors and the AudioUnit* functions. Written from Apple's public documentation. */
#ifndef AUHOST_AUCOMPONENT_H
#define AUHOST_AUCOMPONENT_H

#include <AudioUnit/AudioComponent.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef AudioComponentInstance AudioUnit;

AUHOST_ENUM(OSType) {
    kAudioUnitType_Output = 0x61756F75,          /* 'auou' */
    kAudioUnitType_MusicDevice = 0x61756D75,     /* 'aumu' */
    kAudioUnitType_MusicEffect = 0x61756D66,     /* 'aumf' */
    kAudioUnitType_FormatConverter = 0x61756663, /* 'aufc' */
    kAudioUnitType_Effect = 0x61756678,          /* 'aufx' */
    kAudioUnitType_Mixer = 0x61756D78,           /* 'aumx' */
    kAudioUnitType_Panner = 0x6175706E,          /* 'aupn' */
    kAudioUnitType_Generator = 0x6175676E,       /* 'augn' */
    kAudioUnitType_OfflineEffect = 0x61756F6C,   /* 'auol' */
    kAudioUnitType_MIDIProcessor = 0x61756D69    /* 'aumi' */
};

AUHOST_ENUM(OSType) { kAudioUnitManufacturer_Apple = 0x6170706C /* 'appl' */ };

AUHOST_ENUM(OSType) {
    kAudioUnitSubType_GenericOutput = 0x67656E72,     /* 'genr' */
    kAudioUnitSubType_VoiceProcessingIO = 0x7670696F, /* 'vpio' */
    kAudioUnitSubType_HALOutput = 0x6168616C,         /* 'ahal' */
    kAudioUnitSubType_DefaultOutput = 0x64656620,     /* 'def ' */
    kAudioUnitSubType_SystemOutput = 0x73797320,      /* 'sys ' */
    kAudioUnitSubType_RemoteIO = 0x72696F63,          /* 'rioc' */

    kAudioUnitSubType_DLSSynth = 0x646C7320,          /* 'dls ' */
    kAudioUnitSubType_Sampler = 0x73616D70,           /* 'samp' */
    kAudioUnitSubType_MIDISynth = 0x6D73796E,         /* 'msyn' */

    kAudioUnitSubType_AUConverter = 0x636F6E76,       /* 'conv' */
    kAudioUnitSubType_Varispeed = 0x76617269,         /* 'vari' */
    kAudioUnitSubType_DeferredRenderer = 0x64656672,  /* 'defr' */
    kAudioUnitSubType_Splitter = 0x73706C74,          /* 'splt' */
    kAudioUnitSubType_MultiSplitter = 0x6D73706C,     /* 'mspl' */
    kAudioUnitSubType_Merger = 0x6D657267,            /* 'merg' */
    kAudioUnitSubType_NewTimePitch = 0x6E757470,      /* 'nutp' */
    kAudioUnitSubType_AUiPodTimeOther = 0x6970746F,   /* 'ipto' */
    kAudioUnitSubType_RoundTripAAC = 0x72616163,      /* 'raac' */
    kAudioUnitSubType_TimePitch = 0x746D7074,         /* 'tmpt' */

    kAudioUnitSubType_PeakLimiter = 0x6C6D7472,       /* 'lmtr' */
    kAudioUnitSubType_DynamicsProcessor = 0x64636D70, /* 'dcmp' */
    kAudioUnitSubType_LowPassFilter = 0x6C706173,     /* 'lpas' */
    kAudioUnitSubType_HighPassFilter = 0x68706173,    /* 'hpas' */
    kAudioUnitSubType_BandPassFilter = 0x62706173,    /* 'bpas' */
    kAudioUnitSubType_HighShelfFilter = 0x68736866,   /* 'hshf' */
    kAudioUnitSubType_LowShelfFilter = 0x6C736866,    /* 'lshf' */
    kAudioUnitSubType_ParametricEQ = 0x706D6571,      /* 'pmeq' */
    kAudioUnitSubType_Distortion = 0x64697374,        /* 'dist' */
    kAudioUnitSubType_Delay = 0x64656C79,             /* 'dely' */
    kAudioUnitSubType_SampleDelay = 0x73646C79,       /* 'sdly' */
    kAudioUnitSubType_NBandEQ = 0x6E626571,           /* 'nbeq' */
    kAudioUnitSubType_Reverb2 = 0x72766232,           /* 'rvb2' */
    kAudioUnitSubType_AUiPodEQ = 0x69706571,          /* 'ipeq' */
    kAudioUnitSubType_GraphicEQ = 0x67726571,         /* 'greq' */
    kAudioUnitSubType_MultiBandCompressor = 0x6D636D70, /* 'mcmp' */
    kAudioUnitSubType_MatrixReverb = 0x6D726576,      /* 'mrev' */

    kAudioUnitSubType_MultiChannelMixer = 0x6D636D78, /* 'mcmx' */
    kAudioUnitSubType_MatrixMixer = 0x6D786D78,       /* 'mxmx' */
    kAudioUnitSubType_SpatialMixer = 0x3364656D,      /* '3dem' */
    kAudioUnitSubType_StereoMixer = 0x736D7872,       /* 'smxr' */

    kAudioUnitSubType_ScheduledSoundPlayer = 0x7373706C, /* 'sspl' */
    kAudioUnitSubType_AudioFilePlayer = 0x6166706C       /* 'afpl' */
};

typedef UInt32 AudioUnitRenderActionFlags;
AUHOST_ENUM(AudioUnitRenderActionFlags) {
    kAudioUnitRenderAction_PreRender = (1U << 2),
    kAudioUnitRenderAction_PostRender = (1U << 3),
    kAudioUnitRenderAction_OutputIsSilence = (1U << 4),
    kAudioOfflineUnitRenderAction_Preflight = (1U << 5),
    kAudioOfflineUnitRenderAction_Render = (1U << 6),
    kAudioOfflineUnitRenderAction_Complete = (1U << 7),
    kAudioUnitRenderAction_PostRenderError = (1U << 8),
    kAudioUnitRenderAction_DoNotCheckRenderArgs = (1U << 9)
};

AUHOST_ENUM(OSStatus) {
    kAudioUnitErr_InvalidProperty = -10879,
    kAudioUnitErr_InvalidParameter = -10878,
    kAudioUnitErr_InvalidElement = -10877,
    kAudioUnitErr_NoConnection = -10876,
    kAudioUnitErr_FailedInitialization = -10875,
    kAudioUnitErr_TooManyFramesToProcess = -10874,
    kAudioUnitErr_InvalidFile = -10871,
    kAudioUnitErr_UnknownFileType = -10870,
    kAudioUnitErr_FileNotSpecified = -10869,
    kAudioUnitErr_FormatNotSupported = -10868,
    kAudioUnitErr_Uninitialized = -10867,
    kAudioUnitErr_InvalidScope = -10866,
    kAudioUnitErr_PropertyNotWritable = -10865,
    kAudioUnitErr_CannotDoInCurrentContext = -10863,
    kAudioUnitErr_InvalidPropertyValue = -10851,
    kAudioUnitErr_PropertyNotInUse = -10850,
    kAudioUnitErr_Initialized = -10849,
    kAudioUnitErr_InvalidOfflineRender = -10848,
    kAudioUnitErr_Unauthorized = -10847,
    kAudioUnitErr_MIDIOutputBufferFull = -66753,
    kAudioComponentErr_InstanceTimedOut = -66754,
    kAudioComponentErr_InstanceInvalidated = -66749,
    kAudioUnitErr_RenderTimeout = -66745,
    kAudioUnitErr_ExtensionNotFound = -66744,
    kAudioUnitErr_InvalidParameterValue = -66743,
    kAudioUnitErr_InvalidFilePath = -66742,
    kAudioUnitErr_MissingKey = -66741,
    kAudioComponentErr_DuplicateDescription = -66752,
    kAudioComponentErr_UnsupportedType = -66751,
    kAudioComponentErr_TooManyInstances = -66750,
    kAudioComponentErr_NotPermitted = -66748,
    kAudioComponentErr_InitializationTimedOut = -66747,
    kAudioComponentErr_InvalidFormat = -66746,
    badComponentInstance = (OSStatus)0x80008001,
    badComponentSelector = (OSStatus)0x80008002
};

typedef UInt32 AudioUnitPropertyID;
typedef UInt32 AudioUnitScope;
typedef UInt32 AudioUnitElement;
typedef UInt32 AudioUnitParameterID;
typedef Float32 AudioUnitParameterValue;

typedef UInt32 AUParameterEventType;
AUHOST_ENUM(AUParameterEventType) { kParameterEvent_Immediate = 1, kParameterEvent_Ramped = 2 };

typedef struct AudioUnitParameterEvent {
    AudioUnitScope scope;
    AudioUnitElement element;
    AudioUnitParameterID parameter;
    AUParameterEventType eventType;
    union {
        struct {
            SInt32 startBufferOffset;
            UInt32 durationInFrames;
            AudioUnitParameterValue startValue;
            AudioUnitParameterValue endValue;
        } ramp;
        struct {
            UInt32 bufferOffset;
            AudioUnitParameterValue value;
        } immediate;
    } eventValues;
} AudioUnitParameterEvent;

typedef struct AudioUnitParameter {
    AudioUnit mAudioUnit;
    AudioUnitParameterID mParameterID;
    AudioUnitScope mScope;
    AudioUnitElement mElement;
} AudioUnitParameter;

typedef struct AudioUnitProperty {
    AudioUnit mAudioUnit;
    AudioUnitPropertyID mPropertyID;
    AudioUnitScope mScope;
    AudioUnitElement mElement;
} AudioUnitProperty;

typedef OSStatus (*AURenderCallback)(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags,
    const AudioTimeStamp *inTimeStamp, UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData);
typedef void (*AudioUnitPropertyListenerProc)(void *inRefCon, AudioUnit inUnit, AudioUnitPropertyID inID,
    AudioUnitScope inScope, AudioUnitElement inElement);
typedef void (*AUInputSamplesInOutputCallback)(void *inRefCon, const AudioTimeStamp *inOutputTimeStamp,
    Float64 inInputSample, Float64 inNumberInputSamples);

OSStatus AudioUnitInitialize(AudioUnit inUnit);
OSStatus AudioUnitUninitialize(AudioUnit inUnit);
OSStatus AudioUnitGetPropertyInfo(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
    AudioUnitElement inElement, UInt32 *outDataSize, Boolean *outWritable);
OSStatus AudioUnitGetProperty(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
    AudioUnitElement inElement, void *outData, UInt32 *ioDataSize);
OSStatus AudioUnitSetProperty(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
    AudioUnitElement inElement, const void *inData, UInt32 inDataSize);
OSStatus AudioUnitAddPropertyListener(AudioUnit inUnit, AudioUnitPropertyID inID,
    AudioUnitPropertyListenerProc inProc, void *inProcUserData);
OSStatus AudioUnitRemovePropertyListenerWithUserData(AudioUnit inUnit, AudioUnitPropertyID inID,
    AudioUnitPropertyListenerProc inProc, void *inProcUserData);
OSStatus AudioUnitAddRenderNotify(AudioUnit inUnit, AURenderCallback inProc, void *inProcUserData);
OSStatus AudioUnitRemoveRenderNotify(AudioUnit inUnit, AURenderCallback inProc, void *inProcUserData);
OSStatus AudioUnitGetParameter(AudioUnit inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
    AudioUnitElement inElement, AudioUnitParameterValue *outValue);
OSStatus AudioUnitSetParameter(AudioUnit inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
    AudioUnitElement inElement, AudioUnitParameterValue inValue, UInt32 inBufferOffsetInFrames);
OSStatus AudioUnitScheduleParameters(AudioUnit inUnit, const AudioUnitParameterEvent *inParameterEvent,
    UInt32 inNumParamEvents);
OSStatus AudioUnitRender(AudioUnit inUnit, AudioUnitRenderActionFlags *ioActionFlags,
    const AudioTimeStamp *inTimeStamp, UInt32 inOutputBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData);
OSStatus AudioUnitReset(AudioUnit inUnit, AudioUnitScope inScope, AudioUnitElement inElement);

#ifdef __cplusplus
}
#endif

#endif
