#ifndef AU_FLUIDSYNTH_LOADER_H
#define AU_FLUIDSYNTH_LOADER_H

// libfluidsynth (the sampler's engine) as Debian builds it pulls in 64 libraries (SDL2,
// PulseAudio, X11, Wayland, GLib, readline...): linked into the executable, their loading,
// relocation and constructors cost every `auhost` command about 6.5 ms of CPU before main,
// sampler or not. So it is not linked: this target defines the FluidSynth functions the
// sampler calls, each forwarding to the real one in libfluidsynth.so.3, which is opened
// (RTLD_NOW | RTLD_GLOBAL, so the executable's GOMP_parallel still takes FluidSynth's
// OpenMP regions) when the first sampler is made.

/// Once per process (later calls return the first result): opens libfluidsynth.so.3 and
/// finds every function the sampler calls. 0 when done; -1 when the library or one of its
/// functions is missing (then ``au_fluidsynth_load_error`` says which).
/// Thread: control.
int au_fluidsynth_load(void);

/// What the failed ``au_fluidsynth_load`` could not find (dlerror's message), or NULL.
/// Thread: any.
const char *au_fluidsynth_load_error(void);

#endif
