/* MacTypes.h for AUHost's AudioToolbox on Linux: the basic integer and floating-point
   types Core Audio code is written with. Written from Apple's public documentation. */
#ifndef AUHOST_MACTYPES_H
#define AUHOST_MACTYPES_H

#include <stdint.h>
#include <stddef.h>

typedef uint8_t  UInt8;
typedef int8_t   SInt8;
typedef uint16_t UInt16;
typedef int16_t  SInt16;
typedef uint32_t UInt32;
typedef int32_t  SInt32;
typedef uint64_t UInt64;
typedef int64_t  SInt64;
typedef float    Float32;
typedef double   Float64;
typedef unsigned char Boolean;
typedef UInt8    Byte;
typedef SInt32   OSStatus;
typedef SInt16   OSErr;
typedef UInt32   FourCharCode;
typedef FourCharCode OSType;
typedef unsigned long ItemCount;
typedef unsigned long ByteCount;
typedef char *   Ptr;

/* Enums with a fixed underlying type where the compiler has them (clang, C++11, C23),
   so Swift imports Apple's constants with Apple's types; plain enums elsewhere. */
#if defined(__clang__) || (defined(__cplusplus) && __cplusplus >= 201103L) || (defined(__STDC_VERSION__) && __STDC_VERSION__ > 201710L)
#define AUHOST_ENUM(_type) enum : _type
#define AUHOST_NAMED_ENUM(_type, _name) typedef _type _name; enum : _type
#else
#define AUHOST_ENUM(_type) enum
#define AUHOST_NAMED_ENUM(_type, _name) typedef _type _name; enum
#endif

AUHOST_ENUM(OSStatus) { noErr = 0 };
AUHOST_ENUM(OSStatus) { paramErr = -50, memFullErr = -108, unimpErr = -4 };

/* A null pointer under Objective-C's name, as MacTypes.h gives it to C and C++. */
#ifndef nil
#define nil NULL
#endif

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

#endif
