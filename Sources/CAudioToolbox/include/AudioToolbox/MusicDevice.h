#include <AudioUnit/MusicDevice.h>
