#include <AudioUnit/AudioUnitParameters.h>
