/* AudioOutputUnit.h for AUHost's AudioToolbox on Linux. From Apple's public documentation. */
#ifndef AUHOST_AUDIOOUTPUTUNIT_H
#define AUHOST_AUDIOOUTPUTUNIT_H

#include <AudioUnit/AUComponent.h>

#ifdef __cplusplus
extern "C" {
#endif

OSStatus AudioOutputUnitStart(AudioUnit ci);
OSStatus AudioOutputUnitStop(AudioUnit ci);

#ifdef __cplusplus
}
#endif

#endif
