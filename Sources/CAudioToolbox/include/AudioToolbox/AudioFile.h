/* AudioFile.h for AUHost's AudioToolbox on Linux: audio files as packets and bytes of their
   data format, over libsndfile (linear PCM; see docs/AUDIOTOOLBOX.md). Written from Apple's
   public documentation. */
#ifndef AUHOST_AUDIOFILE_H
#define AUHOST_AUDIOFILE_H

#include <CoreFoundation/CoreFoundation.h>
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
    kAudioFileMP2Type = 0x4D504732,         /* 'MPG2' */
    kAudioFileMP1Type = 0x4D504731,         /* 'MPG1' */
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

typedef struct OpaqueAudioFileID *AudioFileID;
typedef UInt32 AudioFilePropertyID;

AUHOST_NAMED_ENUM(SInt8, AudioFilePermissions) {
    kAudioFileReadPermission = 0x01,
    kAudioFileWritePermission = 0x02,
    kAudioFileReadWritePermission = 0x03
};

/* The keys of info dictionaries (C strings: programs write CFSTR(kAFInfoDictionary_Title)). */
#define kAFInfoDictionary_Artist "artist"
#define kAFInfoDictionary_Album "album"
#define kAFInfoDictionary_Tempo "tempo"
#define kAFInfoDictionary_KeySignature "key signature"
#define kAFInfoDictionary_TimeSignature "time signature"
#define kAFInfoDictionary_TrackNumber "track number"
#define kAFInfoDictionary_Year "year"
#define kAFInfoDictionary_Composer "composer"
#define kAFInfoDictionary_Lyricist "lyricist"
#define kAFInfoDictionary_Genre "genre"
#define kAFInfoDictionary_Title "title"
#define kAFInfoDictionary_RecordedDate "recorded date"
#define kAFInfoDictionary_Comments "comments"
#define kAFInfoDictionary_Copyright "copyright"
#define kAFInfoDictionary_SourceEncoder "source encoder"
#define kAFInfoDictionary_EncodingApplication "encoding application"
#define kAFInfoDictionary_NominalBitRate "nominal bit rate"
#define kAFInfoDictionary_ChannelLayout "channel layout"
#define kAFInfoDictionary_ApproximateDurationInSeconds "approximate duration in seconds"

AUHOST_ENUM(AudioFilePropertyID) {
    kAudioFilePropertyFileFormat = 0x66666D74,            /* 'ffmt' */
    kAudioFilePropertyDataFormat = 0x64666D74,            /* 'dfmt' */
    kAudioFilePropertyIsOptimized = 0x6F70746D,           /* 'optm' */
    kAudioFilePropertyMagicCookieData = 0x6D676963,       /* 'mgic' */
    kAudioFilePropertyAudioDataByteCount = 0x62636E74,    /* 'bcnt' */
    kAudioFilePropertyAudioDataPacketCount = 0x70636E74,  /* 'pcnt' */
    kAudioFilePropertyMaximumPacketSize = 0x7073697A,     /* 'psiz' */
    kAudioFilePropertyDataOffset = 0x646F6666,            /* 'doff' */
    kAudioFilePropertyChannelLayout = 0x636D6170,         /* 'cmap' */
    kAudioFilePropertyInfoDictionary = 0x696E666F,        /* 'info' */
    kAudioFilePropertyPacketSizeUpperBound = 0x706B7562,  /* 'pkub' */
    kAudioFilePropertyEstimatedDuration = 0x65647572      /* 'edur' */
};

AUHOST_ENUM(UInt32) {
    kAudioFileGlobalInfo_ReadableTypes = 0x61667266,      /* 'afrf' */
    kAudioFileGlobalInfo_WritableTypes = 0x61667766,      /* 'afwf' */
    kAudioFileGlobalInfo_FileTypeName = 0x66746E6D        /* 'ftnm' */
};

struct AudioStreamPacketDescription;

OSStatus AudioFileOpenURL(CFURLRef inFileRef, AudioFilePermissions inPermissions, AudioFileTypeID inFileTypeHint,
    AudioFileID *outAudioFile);
OSStatus AudioFileCreateWithURL(CFURLRef inFileRef, AudioFileTypeID inFileType, const AudioStreamBasicDescription *inFormat,
    AudioFileFlags inFlags, AudioFileID *outAudioFile);
OSStatus AudioFileClose(AudioFileID inAudioFile);
OSStatus AudioFileGetPropertyInfo(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID, UInt32 *outDataSize,
    UInt32 *isWritable);
OSStatus AudioFileGetProperty(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID, UInt32 *ioDataSize,
    void *outPropertyData);
OSStatus AudioFileSetProperty(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID, UInt32 inDataSize,
    const void *inPropertyData);
OSStatus AudioFileReadBytes(AudioFileID inAudioFile, Boolean inUseCache, SInt64 inStartingByte, UInt32 *ioNumBytes,
    void *outBuffer);
OSStatus AudioFileWriteBytes(AudioFileID inAudioFile, Boolean inUseCache, SInt64 inStartingByte, UInt32 *ioNumBytes,
    const void *inBuffer);
OSStatus AudioFileReadPacketData(AudioFileID inAudioFile, Boolean inUseCache, UInt32 *ioNumBytes,
    struct AudioStreamPacketDescription *outPacketDescriptions, SInt64 inStartingPacket, UInt32 *ioNumPackets,
    void *outBuffer);
OSStatus AudioFileReadPackets(AudioFileID inAudioFile, Boolean inUseCache, UInt32 *outNumBytes,
    struct AudioStreamPacketDescription *outPacketDescriptions, SInt64 inStartingPacket, UInt32 *ioNumPackets,
    void *outBuffer);
OSStatus AudioFileWritePackets(AudioFileID inAudioFile, Boolean inUseCache, UInt32 inNumBytes,
    const struct AudioStreamPacketDescription *inPacketDescriptions, SInt64 inStartingPacket, UInt32 *ioNumPackets,
    const void *inBuffer);
OSStatus AudioFileGetGlobalInfoSize(UInt32 inPropertyID, UInt32 inSpecifierSize, void *inSpecifier, UInt32 *outDataSize);
OSStatus AudioFileGetGlobalInfo(UInt32 inPropertyID, UInt32 inSpecifierSize, void *inSpecifier, UInt32 *ioDataSize,
    void *outPropertyData);

#ifdef __cplusplus
}
#endif

#endif
