#ifndef AU_FFTW_H
#define AU_FFTW_H

// FFTW's planner (fftw[f]_plan_*, fftw[f]_destroy_plan) keeps process-wide state and is not
// thread-safe. Plugins that convolve (Guitarix through libzita-convolver, for example) plan
// on threads of their own, so two of them in one process can corrupt that state (double
// free, segfault). FFTW >= 3.3.5 can guard its planner with a lock
// (fftw[f]_make_planner_thread_safe, in libfftw3[f]_threads); Ardour calls it at start-up.

/// Once per process (later calls return the first result): if libfftw3f_threads.so.3 /
/// libfftw3_threads.so.3 can be opened (dlopen, RTLD_NOW | RTLD_GLOBAL, so the plugins'
/// libfftw3[f] is the same copy), calls its make_planner_thread_safe. No link dependency:
/// a system without FFTW does nothing. Returns a bit set: 1 single precision made safe,
/// 2 double precision made safe. Call before any plugin is instantiated.
/// Thread: control.
int au_fftw_make_planners_thread_safe(void);

#endif
