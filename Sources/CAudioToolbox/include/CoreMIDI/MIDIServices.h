/* MIDIServices.h for AUHost's AudioToolbox on Linux: only the packet list CoreMIDI hands
   MIDI in (what CAClockParseMIDI reads). Written from Apple's public documentation; there are
   no CoreMIDI clients, ports or endpoints here (docs/AUDIOTOOLBOX.md). */
#ifndef AUHOST_MIDISERVICES_H
#define AUHOST_MIDISERVICES_H

#include <MacTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Host time, in the units of AudioGetCurrentHostTime (nanoseconds here); 0 means now. */
typedef UInt64 MIDITimeStamp;

#pragma pack(push, 4)
/* One or more MIDI messages with one time stamp. */
typedef struct MIDIPacket {
    MIDITimeStamp timeStamp;
    UInt16 length;
    Byte data[256];
} MIDIPacket;

/* Packets, one after another (MIDIPacketNext). */
typedef struct MIDIPacketList {
    UInt32 numPackets;
    MIDIPacket packet[1];
} MIDIPacketList;
#pragma pack(pop)

/* The packet after `packet` in a list: right after its data (4-byte aligned on ARM, as on Apple). */
static inline MIDIPacket *MIDIPacketNext(const MIDIPacket *packet) {
#if defined(__arm__) || defined(__aarch64__)
    return (MIDIPacket *)(((uintptr_t)&packet->data[packet->length] + 3) & ~(uintptr_t)3);
#else
    return (MIDIPacket *)&packet->data[packet->length];
#endif
}

#ifdef __cplusplus
}
#endif

#endif
