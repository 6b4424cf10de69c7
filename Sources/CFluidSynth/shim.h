#include <fluidsynth.h>

/* The reverb's and the chorus's amounts in one call each, for every effects group.
 * FluidSynth 2.2 deprecated these for the per-group setters, but those read each value's
 * range from the settings under the settings' mutex on every call; these take no lock,
 * so the sampler's render thread calls them. Wrapped here so that the deprecation stays
 * in C. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static inline int au_fluid_synth_set_reverb(fluid_synth_t *synth, double roomsize, double damping, double width, double level) {
    return fluid_synth_set_reverb(synth, roomsize, damping, width, level);
}
static inline int au_fluid_synth_set_chorus(fluid_synth_t *synth, int voices, double level, double speed, double depth_ms) {
    return fluid_synth_set_chorus(synth, voices, level, speed, depth_ms, FLUID_CHORUS_MOD_SINE);
}
#pragma GCC diagnostic pop
