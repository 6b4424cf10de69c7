#include <AudioUnit/AudioOutputUnit.h>
