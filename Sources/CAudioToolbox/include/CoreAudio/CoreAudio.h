/* CoreAudio.h for AUHost's AudioToolbox on Linux: the types (the HAL is not provided). */
#ifndef AUHOST_COREAUDIO_H
#define AUHOST_COREAUDIO_H
#include <CoreAudio/CoreAudioTypes.h>
#endif
