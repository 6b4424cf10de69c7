/* AudioUnit.h for AUHost's AudioToolbox on Linux: the Audio Unit headers in one. */
#ifndef AUHOST_AUDIOUNIT_H
#define AUHOST_AUDIOUNIT_H

#include <AudioUnit/AudioComponent.h>
#include <AudioUnit/AUComponent.h>
#include <AudioUnit/AudioOutputUnit.h>
#include <AudioUnit/AudioUnitProperties.h>
#include <AudioUnit/AudioUnitParameters.h>
#include <AudioUnit/MusicDevice.h>
#include <AudioUnit/AudioUnitScheduledPlayback.h>

#endif
