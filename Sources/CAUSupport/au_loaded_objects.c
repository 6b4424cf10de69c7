#define _GNU_SOURCE
#include "au_loaded_objects.h"
#include <dlfcn.h>
#include <link.h>

struct holding {
    void **handles;
    size_t capacity;
    size_t count;
};

static int hold(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    struct holding *holding = context;
    if (!info->dlpi_name || !info->dlpi_name[0] || holding->count == holding->capacity) return 0;
    // The names first: dlopen is not called under dl_iterate_phdr's lock.
    holding->handles[holding->count++] = (void *)info->dlpi_name;
    return 0;
}

size_t au_hold_loaded_objects(void **handles, size_t capacity) {
    struct holding holding = {handles, capacity, 0};
    dl_iterate_phdr(hold, &holding);
    size_t held = 0;
    for (size_t index = 0; index < holding.count; index++) {
        void *handle = dlopen((const char *)handles[index], RTLD_NOW | RTLD_NOLOAD);
        if (handle) handles[held++] = handle;
    }
    return held;
}

void au_release_objects(void **handles, size_t count) {
    for (size_t index = 0; index < count; index++) dlclose(handles[index]);
}
