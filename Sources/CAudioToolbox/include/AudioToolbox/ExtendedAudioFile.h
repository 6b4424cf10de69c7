/* ExtendedAudioFile.h for AUHost's AudioToolbox on Linux: audio files read and written in
   any linear PCM client format, converted and resampled (libsndfile, libsamplerate).
   Written from Apple's public documentation; docs/AUDIOTOOLBOX.md lists what works. */
#ifndef AUHOST_EXTENDEDAUDIOFILE_H
#define AUHOST_EXTENDEDAUDIOFILE_H

#include <CoreFoundation/CoreFoundation.h>
#include <CoreAudio/CoreAudioTypes.h>
#include <AudioToolbox/AudioFile.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct OpaqueExtAudioFile *ExtAudioFileRef;
typedef UInt32 ExtAudioFilePropertyID;

AUHOST_ENUM(ExtAudioFilePropertyID) {
    kExtAudioFileProperty_FileDataFormat = 0x66666D74,     /* 'ffmt' */
    kExtAudioFileProperty_FileChannelLayout = 0x66636C6F,  /* 'fclo' */
    kExtAudioFileProperty_ClientDataFormat = 0x63666D74,   /* 'cfmt' */
    kExtAudioFileProperty_ClientChannelLayout = 0x63636C6F, /* 'cclo' */
    kExtAudioFileProperty_CodecManufacturer = 0x636D616E,  /* 'cman' */
    kExtAudioFileProperty_AudioConverter = 0x61636E76,     /* 'acnv' */
    kExtAudioFileProperty_AudioFile = 0x6166696C,          /* 'afil' */
    kExtAudioFileProperty_FileMaxPacketSize = 0x666D7073,  /* 'fmps' */
    kExtAudioFileProperty_ClientMaxPacketSize = 0x636D7073, /* 'cmps' */
    kExtAudioFileProperty_FileLengthFrames = 0x2366726D,   /* '#frm' */
    kExtAudioFileProperty_ConverterConfig = 0x61636366,    /* 'accf' */
    kExtAudioFileProperty_IOBufferSizeBytes = 0x696F6273,  /* 'iobs' */
    kExtAudioFileProperty_IOBuffer = 0x696F6266,           /* 'iobf' */
    kExtAudioFileProperty_PacketTable = 0x78707469         /* 'xpti' */
};

AUHOST_ENUM(OSStatus) {
    kExtAudioFileError_InvalidProperty = -66561,
    kExtAudioFileError_InvalidPropertySize = -66562,
    kExtAudioFileError_NonPCMClientFormat = -66563,
    kExtAudioFileError_InvalidChannelMap = -66564,
    kExtAudioFileError_InvalidOperationOrder = -66565,
    kExtAudioFileError_InvalidDataFormat = -66566,
    kExtAudioFileError_MaxPacketSizeUnknown = -66567,
    kExtAudioFileError_InvalidSeek = -66568,
    kExtAudioFileError_AsyncWriteTooLarge = -66569,
    kExtAudioFileError_AsyncWriteBufferOverflow = -66570
};

OSStatus ExtAudioFileOpenURL(CFURLRef inURL, ExtAudioFileRef *outExtAudioFile);
OSStatus ExtAudioFileWrapAudioFileID(AudioFileID inFileID, Boolean inForWriting, ExtAudioFileRef *outExtAudioFile);
OSStatus ExtAudioFileCreateWithURL(CFURLRef inURL, AudioFileTypeID inFileType,
    const AudioStreamBasicDescription *inStreamDesc, const AudioChannelLayout *inChannelLayout, UInt32 inFlags,
    ExtAudioFileRef *outExtAudioFile);
OSStatus ExtAudioFileDispose(ExtAudioFileRef inExtAudioFile);
OSStatus ExtAudioFileRead(ExtAudioFileRef inExtAudioFile, UInt32 *ioNumberFrames, AudioBufferList *ioData);
OSStatus ExtAudioFileWrite(ExtAudioFileRef inExtAudioFile, UInt32 inNumberFrames, const AudioBufferList *ioData);
OSStatus ExtAudioFileWriteAsync(ExtAudioFileRef inExtAudioFile, UInt32 inNumberFrames, const AudioBufferList *ioData);
OSStatus ExtAudioFileSeek(ExtAudioFileRef inExtAudioFile, SInt64 inFrameOffset);
OSStatus ExtAudioFileTell(ExtAudioFileRef inExtAudioFile, SInt64 *outFrameOffset);
OSStatus ExtAudioFileGetPropertyInfo(ExtAudioFileRef inExtAudioFile, ExtAudioFilePropertyID inPropertyID, UInt32 *outSize,
    Boolean *outWritable);
OSStatus ExtAudioFileGetProperty(ExtAudioFileRef inExtAudioFile, ExtAudioFilePropertyID inPropertyID, UInt32 *ioPropertyDataSize,
    void *outPropertyData);
OSStatus ExtAudioFileSetProperty(ExtAudioFileRef inExtAudioFile, ExtAudioFilePropertyID inPropertyID, UInt32 inPropertyDataSize,
    const void *inPropertyData);

#ifdef __cplusplus
}
#endif

#endif
