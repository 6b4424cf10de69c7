#include "au_fluidsynth_loader.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

// FluidSynth's types as its types.h and log.h declare them. Its header is not included: it
// declares every function with default visibility, and the definitions below are hidden.
typedef struct _fluid_hashtable_t fluid_settings_t;
typedef struct _fluid_synth_t fluid_synth_t;
typedef struct _fluid_sfont_t fluid_sfont_t;
typedef struct _fluid_preset_t fluid_preset_t;
typedef void (*fluid_log_function_t)(int level, const char *message, void *data);

// Every FluidSynth function the sampler calls (AUSampler, CFluidSynth's shim.h):
// FORWARD(return type, name, (parameters), (arguments)).
#define FLUID_FUNCTIONS(FORWARD, FORWARD_VOID) \
    FORWARD(fluid_settings_t *, new_fluid_settings, (void), ()) \
    FORWARD_VOID(delete_fluid_settings, (fluid_settings_t *settings), (settings)) \
    FORWARD(int, fluid_settings_setint, (fluid_settings_t *settings, const char *name, int val), (settings, name, val)) \
    FORWARD(int, fluid_settings_setnum, (fluid_settings_t *settings, const char *name, double val), (settings, name, val)) \
    FORWARD(fluid_synth_t *, new_fluid_synth, (fluid_settings_t *settings), (settings)) \
    FORWARD_VOID(delete_fluid_synth, (fluid_synth_t *synth), (synth)) \
    FORWARD(fluid_log_function_t, fluid_set_log_function, (int level, fluid_log_function_t fun, void *data), (level, fun, data)) \
    FORWARD(int, fluid_synth_sfload, (fluid_synth_t *synth, const char *filename, int reset_presets), (synth, filename, reset_presets)) \
    FORWARD(fluid_sfont_t *, fluid_synth_get_sfont_by_id, (fluid_synth_t *synth, int id), (synth, id)) \
    FORWARD_VOID(fluid_sfont_iteration_start, (fluid_sfont_t *sfont), (sfont)) \
    FORWARD(fluid_preset_t *, fluid_sfont_iteration_next, (fluid_sfont_t *sfont), (sfont)) \
    FORWARD(int, fluid_preset_get_banknum, (fluid_preset_t *preset), (preset)) \
    FORWARD(int, fluid_preset_get_num, (fluid_preset_t *preset), (preset)) \
    FORWARD(int, fluid_synth_all_sounds_off, (fluid_synth_t *synth, int chan), (synth, chan)) \
    FORWARD(int, fluid_synth_system_reset, (fluid_synth_t *synth), (synth)) \
    FORWARD(int, fluid_synth_noteon, (fluid_synth_t *synth, int chan, int key, int vel), (synth, chan, key, vel)) \
    FORWARD(int, fluid_synth_noteoff, (fluid_synth_t *synth, int chan, int key), (synth, chan, key)) \
    FORWARD(int, fluid_synth_cc, (fluid_synth_t *synth, int chan, int ctrl, int val), (synth, chan, ctrl, val)) \
    FORWARD(int, fluid_synth_key_pressure, (fluid_synth_t *synth, int chan, int key, int val), (synth, chan, key, val)) \
    FORWARD(int, fluid_synth_channel_pressure, (fluid_synth_t *synth, int chan, int val), (synth, chan, val)) \
    FORWARD(int, fluid_synth_pitch_bend, (fluid_synth_t *synth, int chan, int val), (synth, chan, val)) \
    FORWARD(int, fluid_synth_program_change, (fluid_synth_t *synth, int chan, int program), (synth, chan, program)) \
    FORWARD(int, fluid_synth_program_select, (fluid_synth_t *synth, int chan, int sfont_id, int bank_num, int preset_num), (synth, chan, sfont_id, bank_num, preset_num)) \
    FORWARD(int, fluid_synth_reverb_on, (fluid_synth_t *synth, int fx_group, int on), (synth, fx_group, on)) \
    FORWARD(int, fluid_synth_chorus_on, (fluid_synth_t *synth, int fx_group, int on), (synth, fx_group, on)) \
    FORWARD(int, fluid_synth_set_reverb, (fluid_synth_t *synth, double roomsize, double damping, double width, double level), (synth, roomsize, damping, width, level)) \
    FORWARD(int, fluid_synth_set_chorus, (fluid_synth_t *synth, int nr, double level, double speed, double depth_ms, int type), (synth, nr, level, speed, depth_ms, type)) \
    FORWARD_VOID(fluid_synth_set_gain, (fluid_synth_t *synth, float gain), (synth, gain)) \
    FORWARD(int, fluid_synth_set_gen, (fluid_synth_t *synth, int chan, int param, float value), (synth, chan, param, value)) \
    FORWARD(int, fluid_synth_set_interp_method, (fluid_synth_t *synth, int chan, int interp_method), (synth, chan, interp_method)) \
    FORWARD(int, fluid_synth_write_float, (fluid_synth_t *synth, int len, void *lout, int loff, int lincr, void *rout, int roff, int rincr), (synth, len, lout, loff, lincr, rout, roff, rincr))

// The real functions, found by au_fluidsynth_load.
#define POINTER(type, name, parameters, arguments) static type (*real_##name) parameters;
#define POINTER_VOID(name, parameters, arguments) static void (*real_##name) parameters;
FLUID_FUNCTIONS(POINTER, POINTER_VOID)

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result = -1;
static char load_error[512];

static void *find(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (!symbol && load_error[0] == 0) snprintf(load_error, sizeof load_error, "libfluidsynth.so.3 has no %s", name);
    return symbol;
}

static void load(void) {
    // Never closed: synthesizers live until the process ends.
    void *library = dlopen("libfluidsynth.so.3", RTLD_NOW | RTLD_GLOBAL);
    if (!library) {
        const char *said = dlerror();
        snprintf(load_error, sizeof load_error, "%s", said ? said : "libfluidsynth.so.3 could not be opened");
        return;
    }
#define FIND(type, name, parameters, arguments) *(void **)&real_##name = find(library, #name);
#define FIND_VOID(name, parameters, arguments) *(void **)&real_##name = find(library, #name);
    FLUID_FUNCTIONS(FIND, FIND_VOID)
    if (load_error[0] == 0) load_result = 0;
}

int au_fluidsynth_load(void) {
    pthread_once(&load_once, load);
    return load_result;
}

const char *au_fluidsynth_load_error(void) { return load_error[0] ? load_error : NULL; }

// The functions the sampler links against. Hidden: a library that links this target does
// not export them, so libfluidsynth's calls to itself never come back here. The sampler
// loads the library before its first call (SamplerSynth); these only forward.
#define DEFINE(type, name, parameters, arguments) \
    __attribute__((visibility("hidden"))) type name parameters { return real_##name arguments; }
#define DEFINE_VOID(name, parameters, arguments) \
    __attribute__((visibility("hidden"))) void name parameters { real_##name arguments; }
FLUID_FUNCTIONS(DEFINE, DEFINE_VOID)
