#include <jack/jack.h>
#include <jack/midiport.h>
#include <jack/thread.h>
