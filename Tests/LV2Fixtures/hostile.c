// Hostile fixture plugins for isolation (docs/ISOLATION.md): each misbehaves in one way a
// plugin run out of process must not bring the host down with. Mono in (port 0), mono out
// (port 1); a pass-through until it misbehaves. Listed in fixtures.c's descriptor table.
#include "hostile.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

/* Aborts in instantiate(). */
LV2_Handle hostile_instantiate_abort(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                     const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle; (void)features;
    abort();
}

/* Forks in instantiate(), as a plugin starting a helper process would: the fork sleeps for
   AUHOST_FIXTURE_FORK_SECONDS (default 30) and exits; the plugin then works. */
LV2_Handle hostile_instantiate_fork(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                    const LV2_Feature *const *features) {
    pid_t child = fork();
    if (child == 0) {
        const char *seconds = getenv("AUHOST_FIXTURE_FORK_SECONDS");
        sleep(seconds ? (unsigned)atoi(seconds) : 30);
        _exit(0);
    }
    return instantiate_passthrough(descriptor, rate, bundle, features);
}

/* Calls exit(0) in its first run(); with AUHOST_FIXTURE_EXIT_ONCE naming a file, only when
   that file does not exist yet (it makes it first): a second try in a fresh process works. */
void hostile_run_exit(LV2_Handle instance, uint32_t frames) {
    const char *once = getenv("AUHOST_FIXTURE_EXIT_ONCE");
    if (once) {
        FILE *marker = fopen(once, "r");
        if (marker) {
            fclose(marker);
            run_passthrough(instance, frames);
            return;
        }
        marker = fopen(once, "w");
        if (marker) fclose(marker);
    }
    exit(0);
}

/* Prints a line to standard output from every run() (stdio, flushed). */
void hostile_run_stdout_spam(LV2_Handle instance, uint32_t frames) {
    printf("stdout-spam fixture: %u frames\n", frames);
    fflush(stdout);
    run_passthrough(instance, frames);
}

/* Sleeps AUHOST_FIXTURE_SLEEP_MS milliseconds (default 20: longer than a live period) in
   every run(), then passes audio through. */
void hostile_run_sleep_long(LV2_Handle instance, uint32_t frames) {
    const char *milliseconds = getenv("AUHOST_FIXTURE_SLEEP_MS");
    usleep((useconds_t)(milliseconds ? atoi(milliseconds) : 20) * 1000);
    run_passthrough(instance, frames);
}

/* Writes its output, then 1 MiB past the output buffer's end. */
void hostile_run_write_past_end(LV2_Handle instance, uint32_t frames) {
    Passthrough *self = (Passthrough *)instance;
    run_passthrough(instance, frames);
    volatile float *past = self->output + frames;
    for (uint32_t i = 0; i < (1u << 18); ++i) past[i] = 1.0f;
}
