/* AudioFormat.h for AUHost's AudioToolbox on Linux: information about stream formats (a
   linear PCM description completed, the formats encoded and decoded). Written from Apple's
   public documentation; docs/AUDIOTOOLBOX.md lists what works. */
#ifndef AUHOST_AUDIOFORMAT_H
#define AUHOST_AUDIOFORMAT_H

#include <CoreAudio/CoreAudioTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef UInt32 AudioFormatPropertyID;

AUHOST_ENUM(AudioFormatPropertyID) {
    kAudioFormatProperty_FormatInfo = 0x666D7469,            /* 'fmti' */
    kAudioFormatProperty_FormatName = 0x666E616D,            /* 'fnam' */
    kAudioFormatProperty_FormatIsVBR = 0x66766272,           /* 'fvbr' */
    kAudioFormatProperty_FormatIsExternallyFramed = 0x66657866, /* 'fexf' */
    kAudioFormatProperty_EncodeFormatIDs = 0x61636F66,       /* 'acof' */
    kAudioFormatProperty_DecodeFormatIDs = 0x61636966        /* 'acif' */
};

AUHOST_ENUM(OSStatus) {
    kAudioFormatUnspecifiedError = 0x77686174,        /* 'what' */
    kAudioFormatUnsupportedPropertyError = 0x70726F70, /* 'prop' */
    kAudioFormatBadPropertySizeError = 0x2173697A,    /* '!siz' */
    kAudioFormatBadSpecifierSizeError = 0x21737063,   /* '!spc' */
    kAudioFormatUnsupportedDataFormatError = 0x666D743F, /* 'fmt?' */
    kAudioFormatUnknownFormatError = 0x21666D74       /* '!fmt' */
};

OSStatus AudioFormatGetPropertyInfo(AudioFormatPropertyID inPropertyID, UInt32 inSpecifierSize, const void *inSpecifier,
    UInt32 *outPropertyDataSize);
OSStatus AudioFormatGetProperty(AudioFormatPropertyID inPropertyID, UInt32 inSpecifierSize, const void *inSpecifier,
    UInt32 *ioPropertyDataSize, void *outPropertyData);

#ifdef __cplusplus
}
#endif

#endif
