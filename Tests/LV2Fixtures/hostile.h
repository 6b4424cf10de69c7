#ifndef HOSTILE_H
#define HOSTILE_H
#include <lv2/core/lv2.h>
#include <stdint.h>

// Shared between the fixture files only: never exported from the library (a global
// `cleanup` could bind to a host's symbol of that name).
#define FIXTURE_INTERNAL __attribute__((visibility("hidden")))

// The mono pass-through every fixture starts from (fixtures.c): port 0 in, port 1 out.
typedef struct {
    const float *input;
    float *output;
} Passthrough;
FIXTURE_INTERNAL LV2_Handle instantiate_passthrough(const LV2_Descriptor *, double, const char *, const LV2_Feature *const *);
FIXTURE_INTERNAL void connect_port(LV2_Handle, uint32_t, void *);
FIXTURE_INTERNAL void run_passthrough(LV2_Handle, uint32_t);
FIXTURE_INTERNAL void cleanup(LV2_Handle);

// The hostile fixtures' functions (hostile.c), for fixtures.c's descriptor table.
FIXTURE_INTERNAL LV2_Handle hostile_instantiate_abort(const LV2_Descriptor *, double, const char *, const LV2_Feature *const *);
FIXTURE_INTERNAL LV2_Handle hostile_instantiate_fork(const LV2_Descriptor *, double, const char *, const LV2_Feature *const *);
FIXTURE_INTERNAL void hostile_run_exit(LV2_Handle, uint32_t);
FIXTURE_INTERNAL void hostile_run_stdout_spam(LV2_Handle, uint32_t);
FIXTURE_INTERNAL void hostile_run_sleep_long(LV2_Handle, uint32_t);
FIXTURE_INTERNAL void hostile_run_write_past_end(LV2_Handle, uint32_t);

#endif
