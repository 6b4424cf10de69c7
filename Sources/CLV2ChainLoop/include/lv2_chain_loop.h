#ifndef LV2_CHAIN_LOOP_H
#define LV2_CHAIN_LOOP_H
/* The benchmark baseline: LV2 plugins run in series by a plain C loop that calls them
 * directly through lilv, with no graph and no Swift. `lv2-chain-bench` runs it, in memory,
 * over files, or on request for `auhost bench graph` (which times it beside the graph).
 * Stereo; every plugin at its default control values.
 * Thread: one thread per loop; nothing here is real-time safe except lv2_chain_loop_run. */
#include <stddef.h>

typedef struct lv2_chain_loop lv2_chain_loop;

/* Loads every plugin on the LV2 path (lilv_world_load_all), instantiates `count` plugins
 * by URI in series at `rate`, for blocks of at most `max_frames`. NULL on failure, with a
 * one-line reason in `error`. */
lv2_chain_loop *lv2_chain_loop_new(const char *const *uris, int count, double rate, int max_frames, char *error, size_t error_size);

/* Runs the chain once over `frames` frames (<= max_frames) of its input buffers. */
void lv2_chain_loop_run(lv2_chain_loop *loop, int frames);

/* The stereo input the first plugin reads and the output the last one writes
 * (channel 0 or 1; max_frames floats each). */
float *lv2_chain_loop_input(lv2_chain_loop *loop, int channel);
const float *lv2_chain_loop_output(lv2_chain_loop *loop, int channel);

/* Nanoseconds per cycle of `cycles` runs of `frames` frames over the current input. */
double lv2_chain_loop_time(lv2_chain_loop *loop, long cycles, int frames);

/* How lv2_chain_loop_process_file writes: 32-bit float instead of 16-bit PCM; the file
 * fsync'ed before it is renamed into place and its folder after, as auhost render's outputs are. */
enum { LV2_CHAIN_LOOP_FLOAT = 1, LV2_CHAIN_LOOP_SYNC = 2 };

/* Reads a stereo file with libsndfile, runs it through the chain in blocks of max_frames,
 * and writes `output` in the input's container (16-bit PCM unless `flags` say otherwise),
 * under a temporary name renamed into place. Returns 0, or -1 with a one-line reason in `error`. */
int lv2_chain_loop_process_file(lv2_chain_loop *loop, const char *input, const char *output, int flags, char *error, size_t error_size);

/* Frees every instance and instantiates, connects and activates it again over the same
 * buffers: the chain's clean start, as a fresh graph gives each file. 0, or -1 when a
 * plugin failed to instantiate (the loop may then only be freed). */
int lv2_chain_loop_restart(lv2_chain_loop *loop);

void lv2_chain_loop_free(lv2_chain_loop *loop);

#endif
