/* The small part of CoreFoundation that Audio Unit hosting code uses: the types that
   appear in AudioToolbox's structures and the byte swaps. AUHost's AudioToolbox on Linux;
   written from Apple's public documentation. CFString, CFArray and CFDictionary values are
   not produced by this library yet (see docs/AUDIOTOOLBOX.md). */
#ifndef AUHOST_COREFOUNDATION_H
#define AUHOST_COREFOUNDATION_H

#include <MacTypes.h>
/* Apple's CoreFoundation.h brings in the C library's common headers; programs rely on it
   (printf, sin, isprint, exit without their own includes), and on sleep and usleep. */
#if !defined(__cplusplus)
#include <stdbool.h>
#endif
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef const void *CFTypeRef;
typedef const struct __CFString *CFStringRef;
typedef const struct __CFArray *CFArrayRef;
typedef const struct __CFDictionary *CFDictionaryRef;
typedef const struct __CFData *CFDataRef;
typedef const struct __CFURL *CFURLRef;
typedef const struct __CFAllocator *CFAllocatorRef;
typedef signed long CFIndex;
typedef double CFTimeInterval;
typedef CFTimeInterval CFAbsoluteTime;

static inline UInt16 CFSwapInt16(UInt16 v) { return (UInt16)((v << 8) | (v >> 8)); }
static inline UInt32 CFSwapInt32(UInt32 v) { return __builtin_bswap32(v); }
static inline UInt64 CFSwapInt64(UInt64 v) { return __builtin_bswap64(v); }
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline UInt16 CFSwapInt16HostToBig(UInt16 v) { return CFSwapInt16(v); }
static inline UInt32 CFSwapInt32HostToBig(UInt32 v) { return CFSwapInt32(v); }
static inline UInt64 CFSwapInt64HostToBig(UInt64 v) { return CFSwapInt64(v); }
static inline UInt16 CFSwapInt16BigToHost(UInt16 v) { return CFSwapInt16(v); }
static inline UInt32 CFSwapInt32BigToHost(UInt32 v) { return CFSwapInt32(v); }
static inline UInt64 CFSwapInt64BigToHost(UInt64 v) { return CFSwapInt64(v); }
static inline UInt16 CFSwapInt16HostToLittle(UInt16 v) { return v; }
static inline UInt32 CFSwapInt32HostToLittle(UInt32 v) { return v; }
static inline UInt16 CFSwapInt16LittleToHost(UInt16 v) { return v; }
static inline UInt32 CFSwapInt32LittleToHost(UInt32 v) { return v; }
#else
static inline UInt16 CFSwapInt16HostToBig(UInt16 v) { return v; }
static inline UInt32 CFSwapInt32HostToBig(UInt32 v) { return v; }
static inline UInt64 CFSwapInt64HostToBig(UInt64 v) { return v; }
static inline UInt16 CFSwapInt16BigToHost(UInt16 v) { return v; }
static inline UInt32 CFSwapInt32BigToHost(UInt32 v) { return v; }
static inline UInt64 CFSwapInt64BigToHost(UInt64 v) { return v; }
static inline UInt16 CFSwapInt16HostToLittle(UInt16 v) { return CFSwapInt16(v); }
static inline UInt32 CFSwapInt32HostToLittle(UInt32 v) { return CFSwapInt32(v); }
static inline UInt16 CFSwapInt16LittleToHost(UInt16 v) { return CFSwapInt16(v); }
static inline UInt32 CFSwapInt32LittleToHost(UInt32 v) { return CFSwapInt32(v); }
#endif

#ifdef __cplusplus
}
#endif

#include <CoreFoundation/CFURLAndData.h>
#include <CoreFoundation/CFRunLoop.h>
#include <CoreFoundation/CFString.h>

#endif
