#define _GNU_SOURCE
#include "au_thread.h"
#include "au_float.h"
#include "au_strict.h"
#include <dlfcn.h>
#include <stddef.h>

/* initial-exec: a plain %fs-relative access instead of a __tls_get_addr call on every
 * render entry (this code is linked into the executable, never dlopen()ed late). */
static _Thread_local int render_depth __attribute__((tls_model("initial-exec"))) = 0;
/* The floating-point state the outermost enter found, given back by the matching leave. */
static _Thread_local uint32_t outer_float_state __attribute__((tls_model("initial-exec"))) = 0;
/* Set while a render loop keeps denormals flushed itself (au_render_thread_keep_flushing):
 * enter and leave then leave the control register alone. Reading it is not free either:
 * it carries the sticky exception flags, so it waits for the floating-point work before
 * it (the plugins' last samples) to finish. */
static _Thread_local bool keeps_flushing __attribute__((tls_model("initial-exec"))) = false;
/* Set on a thread that runs under strict mode's seccomp filter (au_render_thread_watch_strictly):
 * the outermost enter starts recording trapped system calls and the matching leave stops. */
static _Thread_local bool strictly_watched __attribute__((tls_model("initial-exec"))) = false;

/* When the AllocCounter shim is preloaded (LD_PRELOAD), every render call is counted:
 * the outermost enter begins counting on the thread and the matching leave ends it. */
static void (*counter_begin)(void) = NULL;
static void (*counter_end)(void) = NULL;
static void (*counter_read)(au_render_counts *) = NULL;

__attribute__((constructor)) static void au_find_alloc_counter(void) {
    counter_begin = (void (*)(void))dlsym(RTLD_DEFAULT, "alloc_counter_begin");
    counter_end = (void (*)(void))dlsym(RTLD_DEFAULT, "alloc_counter_end");
    counter_read = (void (*)(au_render_counts *))dlsym(RTLD_DEFAULT, "alloc_counter_read");
    if (!counter_begin || !counter_end || !counter_read) counter_begin = NULL, counter_end = NULL, counter_read = NULL;
}

int au_render_thread_enter(void) {
    if (++render_depth == 1) {
        if (!keeps_flushing) outer_float_state = au_enable_flush_denormals();
        if (counter_begin) counter_begin();
        if (strictly_watched) au_strict_set_recording(true);
    }
    return render_depth;
}

void au_render_thread_leave(void) {
    if (render_depth > 0 && --render_depth == 0) {
        if (strictly_watched) au_strict_set_recording(false);
        if (counter_end) counter_end();
        if (!keeps_flushing) au_restore_float_state(outer_float_state);
    }
}

bool au_render_thread_keep_flushing(bool keep) {
    bool was = keeps_flushing;
    keeps_flushing = keep;
    return was;
}

bool au_is_render_thread(void) { return render_depth > 0; }

int au_render_thread_watch_strictly(void) {
    int status = au_strict_install();
    if (status == 0) strictly_watched = true;
    return status;
}

bool au_render_counts_read(au_render_counts *counts) {
    if (!counter_read) return false;
    counter_read(counts);
    return true;
}

#include <pthread.h>
#include <string.h>

void au_name_this_thread(const char *name) {
    char kept[16];
    strncpy(kept, name, sizeof kept - 1);
    kept[sizeof kept - 1] = 0;
    pthread_setname_np(pthread_self(), kept);
}
