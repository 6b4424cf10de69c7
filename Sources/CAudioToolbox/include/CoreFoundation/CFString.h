/* CFString, CFArray, CFDictionary and CFURL paths as Core Audio programs use them (CFSTR
   constants for file paths and run-loop modes, a C string out of a name, reading a preset
   array or a class-info dictionary), for AUHost's AudioToolbox on Linux. The functions are
   swift-corelibs-foundation's CoreFoundation, exported by libFoundation.so (link with
   -lFoundation); `CFSTR`'s constant strings are made by libAudioToolbox (one object per
   literal, never freed, as Apple's are). Declarations from Apple's public documentation. */
#ifndef AUHOST_CFSTRING_H
#define AUHOST_CFSTRING_H
#ifdef __cplusplus
extern "C" {
#endif

typedef UInt32 CFStringEncoding;
enum {
    kCFStringEncodingMacRoman = 0,
    kCFStringEncodingASCII = 0x0600,
    kCFStringEncodingUTF8 = 0x08000100,
    kCFStringEncodingISOLatin1 = 0x0201
};

typedef CFIndex CFURLPathStyle;
enum {
    kCFURLPOSIXPathStyle = 0,
    kCFURLWindowsPathStyle = 2
};

/* The constant CFString for a C string literal; the object lives as long as the process. */
CFStringRef __CFStringMakeConstantString(const char *cStr);
#define CFSTR(cStr) __CFStringMakeConstantString("" cStr "")

CFStringRef CFStringCreateWithCString(CFAllocatorRef alloc, const char *cStr, CFStringEncoding encoding);
Boolean CFStringGetCString(CFStringRef theString, char *buffer, CFIndex bufferSize, CFStringEncoding encoding);
CFIndex CFStringGetLength(CFStringRef theString);
CFURLRef CFURLCreateWithFileSystemPath(CFAllocatorRef allocator, CFStringRef filePath, CFURLPathStyle pathStyle,
    Boolean isDirectory);
CFStringRef CFURLCopyFileSystemPath(CFURLRef anURL, CFURLPathStyle pathStyle);

typedef const void *(*CFArrayRetainCallBack)(CFAllocatorRef allocator, const void *value);
typedef void (*CFArrayReleaseCallBack)(CFAllocatorRef allocator, const void *value);
typedef CFStringRef (*CFArrayCopyDescriptionCallBack)(const void *value);
typedef Boolean (*CFArrayEqualCallBack)(const void *value1, const void *value2);
typedef struct CFArrayCallBacks {
    CFIndex version;
    CFArrayRetainCallBack retain;
    CFArrayReleaseCallBack release;
    CFArrayCopyDescriptionCallBack copyDescription;
    CFArrayEqualCallBack equal;
} CFArrayCallBacks;

CFArrayRef CFArrayCreate(CFAllocatorRef allocator, const void **values, CFIndex numValues, const CFArrayCallBacks *callBacks);
CFIndex CFArrayGetCount(CFArrayRef theArray);
const void *CFArrayGetValueAtIndex(CFArrayRef theArray, CFIndex idx);
CFIndex CFDictionaryGetCount(CFDictionaryRef theDict);
const void *CFDictionaryGetValue(CFDictionaryRef theDict, const void *key);

typedef CFTypeRef CFPropertyListRef;
typedef const struct __CFNumber *CFNumberRef;
typedef CFIndex CFNumberType;
enum {
    kCFNumberSInt32Type = 3,
    kCFNumberSInt64Type = 4,
    kCFNumberFloat32Type = 5,
    kCFNumberFloat64Type = 6,
    kCFNumberIntType = 9,
    kCFNumberDoubleType = 13
};
Boolean CFNumberGetValue(CFNumberRef number, CFNumberType theType, void *valuePtr);

CFAbsoluteTime CFAbsoluteTimeGetCurrent(void);
void CFShow(CFTypeRef obj);

#ifdef __cplusplus
}
#endif
#endif
