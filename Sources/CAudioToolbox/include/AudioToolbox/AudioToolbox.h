/* AudioToolbox.h for AUHost's AudioToolbox on Linux (libAudioToolbox.so): the audio half
   of Apple's AudioToolbox over AUHost. docs/AUDIOTOOLBOX.md lists what works. */
#ifndef AUHOST_AUDIOTOOLBOX_H
#define AUHOST_AUDIOTOOLBOX_H

#include <CoreAudio/CoreAudio.h>
#include <AudioUnit/AudioUnit.h>
#include <AudioToolbox/AUGraph.h>
#include <AudioToolbox/MusicPlayer.h>
#include <AudioToolbox/AudioFile.h>
#include <AudioToolbox/ExtendedAudioFile.h>
#include <AudioToolbox/AudioConverter.h>
#include <AudioToolbox/AudioQueue.h>
#include <AudioToolbox/CoreAudioClock.h>
#include <AudioToolbox/AudioFormat.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Prints a description of an AUGraph or an AudioUnit to standard output. */
OSStatus CAShow(void *inObject);

#ifdef __cplusplus
}
#endif

#endif
