/* CoreAudio.h for AUHost's AudioToolbox on Linux: the types and the host time functions
   (the host clock is CLOCK_MONOTONIC, one tick a nanosecond); the HAL is not provided.
   Declarations from Apple's public documentation. */
#ifndef AUHOST_COREAUDIO_H
#define AUHOST_COREAUDIO_H
#include <CoreAudio/CoreAudioTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

UInt64 AudioGetCurrentHostTime(void);
Float64 AudioGetHostClockFrequency(void);
UInt32 AudioGetHostClockMinimumTimeDelta(void);
UInt64 AudioConvertHostTimeToNanos(UInt64 inHostTime);
UInt64 AudioConvertNanosToHostTime(UInt64 inNanos);

#ifdef __cplusplus
}
#endif
#endif
