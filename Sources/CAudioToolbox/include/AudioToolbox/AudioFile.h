/* AudioFile.h for AUHost's AudioToolbox on Linux: the file types, flags and errors that
   ExtAudioFile uses (the AudioFile functions themselves are not provided yet; see
   docs/AUDIOTOOLBOX.md). Written from Apple's public documentation. */
#ifndef AUHOST_AUDIOFILE_H
#define AUHOST_AUDIOFILE_H

#include <CoreAudio/CoreAudioTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef UInt32 AudioFileTypeID;
AUHOST_ENUM(AudioFileTypeID) {
    kAudioFileAIFFType = 0x41494646,        /* 'AIFF' */
    kAudioFileAIFCType = 0x41494643,        /* 'AIFC' */
    kAudioFileWAVEType = 0x57415645,        /* 'WAVE' */
    kAudioFileRF64Type = 0x52463634,        /* 'RF64' */
    kAudioFileCAFType = 0x63616666,         /* 'caff' */
    kAudioFileFLACType = 0x666C6163,        /* 'flac' */
    kAudioFileMP3Type = 0x4D504733,         /* 'MPG3' */
    kAudioFileAAC_ADTSType = 0x61647473,    /* 'adts' */
    kAudioFileM4AType = 0x6D346166,         /* 'm4af' */
    kAudioFileNextType = 0x4E655854         /* 'NeXT' */
};

typedef UInt32 AudioFileFlags;
AUHOST_ENUM(AudioFileFlags) {
    kAudioFileFlags_EraseFile = 1,
    kAudioFileFlags_DontPageAlignAudioData = 2
};

AUHOST_ENUM(OSStatus) {
    kAudioFileUnspecifiedError = 0x7768743F,          /* 'wht?' */
    kAudioFileUnsupportedFileTypeError = 0x7479703F,  /* 'typ?' */
    kAudioFileUnsupportedDataFormatError = 0x666D743F, /* 'fmt?' */
    kAudioFileUnsupportedPropertyError = 0x7074793F,  /* 'pty?' */
    kAudioFileBadPropertySizeError = 0x2173697A,      /* '!siz' */
    kAudioFilePermissionsError = 0x70726D3F,          /* 'prm?' */
    kAudioFileNotOptimizedError = 0x6F70746D,         /* 'optm' */
    kAudioFileInvalidChunkError = 0x63686B3F,         /* 'chk?' */
    kAudioFileDoesNotAllow64BitDataSizeError = 0x6F66663F, /* 'off?' */
    kAudioFileInvalidPacketOffsetError = 0x70636B3F,  /* 'pck?' */
    kAudioFileInvalidFileError = 0x6474613F,          /* 'dta?' */
    kAudioFileOperationNotSupportedError = 0x6F703F3F, /* 'op??' */
    kAudioFileNotOpenError = -38,
    kAudioFileEndOfFileError = -39,
    kAudioFilePositionError = -40,
    kAudioFileFileNotFoundError = -43
};

#ifdef __cplusplus
}
#endif

#endif
