/* The small part of <CoreServices/CoreServices.h> that Core Audio sample code uses: FSRef,
   made from a path with FSPathMakeRef and handed to kMusicDeviceProperty_SoundBankFSRef and
   MusicSequenceLoadSMFWithFlags, for AUHost's AudioToolbox on Linux. An FSRef is 80 opaque
   bytes, as on Apple; here they hold a number the library maps to the path (a path the
   process made a reference to; references live as long as the process). Written from
   Apple's public documentation. */
#ifndef AUHOST_CORESERVICES_H
#define AUHOST_CORESERVICES_H

#include <MacTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct FSRef {
    UInt8 hidden[80];
} FSRef;

/* MacErrors.h's file-system codes (eofErr: the end of a file, as sample code tests for). */
AUHOST_ENUM(OSStatus) { fnfErr = -43, bdNamErr = -37, eofErr = -39, ioErr = -36 };

OSStatus FSPathMakeRef(const UInt8 *path, FSRef *ref, Boolean *isDirectory);
OSStatus FSRefMakePath(const FSRef *ref, UInt8 *path, UInt32 pathBufferSize);

#ifdef __cplusplus
}
#endif

#endif
