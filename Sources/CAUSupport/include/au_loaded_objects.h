#ifndef AU_LOADED_OBJECTS_H
#define AU_LOADED_OBJECTS_H

#include <stddef.h>

/// Holds every shared object loaded in the process open (dlopen with RTLD_NOLOAD: one more
/// reference, nothing loaded): writes up to `capacity` handles into `handles` and returns
/// how many; ``au_release_objects`` lets them go. Thread: control.
size_t au_hold_loaded_objects(void **handles, size_t capacity);

/// dlclose()s `count` handles from ``au_hold_loaded_objects``. Thread: control.
void au_release_objects(void **handles, size_t count);

#endif
