#include <AudioUnit/AudioUnitProperties.h>
