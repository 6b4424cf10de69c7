/* CoreMIDI.h for AUHost's AudioToolbox on Linux: the packet list only (MIDIServices.h). */
#ifndef AUHOST_COREMIDI_H
#define AUHOST_COREMIDI_H
#include <CoreMIDI/MIDIServices.h>
#endif
