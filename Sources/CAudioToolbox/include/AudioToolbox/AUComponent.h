#include <AudioUnit/AUComponent.h>
