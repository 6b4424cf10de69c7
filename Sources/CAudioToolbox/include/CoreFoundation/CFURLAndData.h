/* The CFURL and CFData functions AudioToolbox's file and music functions need (file URLs
   and Standard MIDI File bytes), for AUHost's AudioToolbox on Linux. They are
   swift-corelibs-foundation's CoreFoundation, exported by libFoundation.so (link with
   -lFoundation; AudioToolbox.pc's Libs say so): a CFURLRef is a Foundation NSURL and a
   CFDataRef an NSData, as toll-free bridging makes them on Apple. Swift code writes
   `url as CFURL` (the AudioToolbox module's CFURL is NSURL). Declarations from Apple's
   public documentation. */
#ifndef AUHOST_CFURLANDDATA_H
#define AUHOST_CFURLANDDATA_H

#if !defined(__cplusplus)
#include <stdbool.h> /* CFBase.h's: C code passes true and false to CF functions */
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define kCFAllocatorDefault ((CFAllocatorRef)0)

CFTypeRef CFRetain(CFTypeRef cf);
void CFRelease(CFTypeRef cf);

CFURLRef CFURLCreateFromFileSystemRepresentation(CFAllocatorRef allocator, const UInt8 *buffer, CFIndex bufLen,
    Boolean isDirectory);
Boolean CFURLGetFileSystemRepresentation(CFURLRef url, Boolean resolveAgainstBase, UInt8 *buffer, CFIndex maxBufLen);

CFDataRef CFDataCreate(CFAllocatorRef allocator, const UInt8 *bytes, CFIndex length);
CFIndex CFDataGetLength(CFDataRef theData);
const UInt8 *CFDataGetBytePtr(CFDataRef theData);

#ifdef __cplusplus
}
#endif

#endif
