/* AudioConverter.h for AUHost's AudioToolbox on Linux: linear PCM conversion between any
   two PCM formats (sample type, byte order, interleaving, rate through libsamplerate).
   Written from Apple's public documentation; docs/AUDIOTOOLBOX.md lists what works. */
#ifndef AUHOST_AUDIOCONVERTER_H
#define AUHOST_AUDIOCONVERTER_H

#include <CoreAudio/CoreAudioTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct OpaqueAudioConverter *AudioConverterRef;
typedef UInt32 AudioConverterPropertyID;

typedef struct AudioStreamPacketDescription {
    SInt64 mStartOffset;
    UInt32 mVariableFramesInPacket;
    UInt32 mDataByteSize;
} AudioStreamPacketDescription;

AUHOST_ENUM(AudioConverterPropertyID) {
    kAudioConverterPropertyMinimumInputBufferSize = 0x6D696273,  /* 'mibs' */
    kAudioConverterPropertyMinimumOutputBufferSize = 0x6D6F6273, /* 'mobs' */
    kAudioConverterPropertyMaximumInputPacketSize = 0x78697073,  /* 'xips' */
    kAudioConverterPropertyMaximumOutputPacketSize = 0x786F7073, /* 'xops' */
    kAudioConverterPropertyCalculateInputBufferSize = 0x63696273, /* 'cibs' */
    kAudioConverterPropertyCalculateOutputBufferSize = 0x636F6273, /* 'cobs' */
    kAudioConverterSampleRateConverterQuality = 0x73726371,      /* 'srcq' */
    kAudioConverterSampleRateConverterComplexity = 0x73726361,   /* 'srca' */
    kAudioConverterPrimeInfo = 0x7072696D,                       /* 'prim' */
    kAudioConverterCurrentOutputStreamDescription = 0x61636F64,  /* 'acod' */
    kAudioConverterCurrentInputStreamDescription = 0x61636964    /* 'acid' */
};

AUHOST_ENUM(UInt32) {
    kAudioConverterQuality_Max = 0x7F,
    kAudioConverterQuality_High = 0x60,
    kAudioConverterQuality_Medium = 0x40,
    kAudioConverterQuality_Low = 0x20,
    kAudioConverterQuality_Min = 0
};

AUHOST_ENUM(OSStatus) {
    kAudioConverterErr_FormatNotSupported = 0x666D743F,        /* 'fmt?' */
    kAudioConverterErr_OperationNotSupported = 0x6F703F3F,     /* 'op??' */
    kAudioConverterErr_PropertyNotSupported = 0x70726F70,      /* 'prop' */
    kAudioConverterErr_InvalidInputSize = 0x696E737A,          /* 'insz' */
    kAudioConverterErr_InvalidOutputSize = 0x6F74737A,         /* 'otsz' */
    kAudioConverterErr_UnspecifiedError = 0x77686174,          /* 'what' */
    kAudioConverterErr_BadPropertySizeError = 0x2173697A,      /* '!siz' */
    kAudioConverterErr_RequiresPacketDescriptionsError = 0x21706B64, /* '!pkd' */
    kAudioConverterErr_InputSampleRateOutOfRange = 0x21697372, /* '!isr' */
    kAudioConverterErr_OutputSampleRateOutOfRange = 0x216F7372 /* '!osr' */
};

typedef OSStatus (*AudioConverterComplexInputDataProc)(AudioConverterRef inAudioConverter, UInt32 *ioNumberDataPackets,
    AudioBufferList *ioData, AudioStreamPacketDescription **outDataPacketDescription, void *inUserData);

OSStatus AudioConverterNew(const AudioStreamBasicDescription *inSourceFormat,
    const AudioStreamBasicDescription *inDestinationFormat, AudioConverterRef *outAudioConverter);
OSStatus AudioConverterDispose(AudioConverterRef inAudioConverter);
OSStatus AudioConverterReset(AudioConverterRef inAudioConverter);
OSStatus AudioConverterGetPropertyInfo(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
    UInt32 *outSize, Boolean *outWritable);
OSStatus AudioConverterGetProperty(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
    UInt32 *ioPropertyDataSize, void *outPropertyData);
OSStatus AudioConverterSetProperty(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
    UInt32 inPropertyDataSize, const void *inPropertyData);
OSStatus AudioConverterConvertBuffer(AudioConverterRef inAudioConverter, UInt32 inInputDataSize, const void *inInputData,
    UInt32 *ioOutputDataSize, void *outOutputData);
OSStatus AudioConverterFillComplexBuffer(AudioConverterRef inAudioConverter, AudioConverterComplexInputDataProc inInputDataProc,
    void *inInputDataProcUserData, UInt32 *ioOutputDataPacketSize, AudioBufferList *outOutputData,
    AudioStreamPacketDescription *outPacketDescription);
OSStatus AudioConverterConvertComplexBuffer(AudioConverterRef inAudioConverter, UInt32 inNumberPCMFrames,
    const AudioBufferList *inInputData, AudioBufferList *outOutputData);

#ifdef __cplusplus
}
#endif

#endif
