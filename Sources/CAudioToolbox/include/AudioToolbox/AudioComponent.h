#include <AudioUnit/AudioComponent.h>
