/* The C side of libAudioToolbox.so: the headers in include/ are its public interface; the
   functions are implemented in Swift (Sources/AudioToolbox) with @_cdecl. */
#include <AudioToolbox/AudioToolbox.h>

/* Layout checks: Apple's structures, byte for byte. */
_Static_assert(sizeof(AudioStreamBasicDescription) == 40, "AudioStreamBasicDescription is 40 bytes");
_Static_assert(sizeof(AudioTimeStamp) == 64, "AudioTimeStamp is 64 bytes");
_Static_assert(sizeof(AudioComponentDescription) == 20, "AudioComponentDescription is 20 bytes");
_Static_assert(sizeof(AudioUnitParameterInfo) == 104, "AudioUnitParameterInfo is 104 bytes");
