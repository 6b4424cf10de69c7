/* CFRunLoop as Core Audio programs use it (an audio queue's callback run loop, waiting with
   CFRunLoopRunInMode): swift-corelibs-foundation's, exported by libFoundation.so (link with
   -lFoundation), for AUHost's AudioToolbox on Linux. Declarations from Apple's public
   documentation. */
#ifndef AUHOST_CFRUNLOOP_H
#define AUHOST_CFRUNLOOP_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct __CFRunLoop *CFRunLoopRef;
typedef SInt32 CFRunLoopRunResult;

extern const CFStringRef kCFRunLoopDefaultMode;
extern const CFStringRef kCFRunLoopCommonModes;

CFRunLoopRef CFRunLoopGetCurrent(void);
CFRunLoopRef CFRunLoopGetMain(void);
void CFRunLoopRun(void);
void CFRunLoopStop(CFRunLoopRef rl);
CFRunLoopRunResult CFRunLoopRunInMode(CFStringRef mode, CFTimeInterval seconds, Boolean returnAfterSourceHandled);

#ifdef __cplusplus
}
#endif

#endif
