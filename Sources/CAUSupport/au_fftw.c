#include "au_fftw.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

static pthread_once_t fftw_once = PTHREAD_ONCE_INIT;
static int fftw_result = 0;

/* Opens `library` for good (never dlclose()d: FFTW keeps the lock it installs) and calls
 * `symbol` in it; true when both were found. */
static int make_safe(const char *library, const char *symbol) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_GLOBAL);
    if (!handle) return 0;
    void (*make)(void) = (void (*)(void))dlsym(handle, symbol);
    if (!make) return 0;
    make();
    return 1;
}

static void make_planners_thread_safe(void) {
    if (make_safe("libfftw3f_threads.so.3", "fftwf_make_planner_thread_safe")) fftw_result |= 1;
    if (make_safe("libfftw3_threads.so.3", "fftw_make_planner_thread_safe")) fftw_result |= 2;
}

int au_fftw_make_planners_thread_safe(void) {
    pthread_once(&fftw_once, make_planners_thread_safe);
    return fftw_result;
}
