/*
 * auhost.h: AUHost's small C API (libauhost.so), under the Python package (docs/PYTHON.md).
 *
 * A chain preset renders audio in memory exactly as `auhost render` renders a file: the
 * same preset loading, `--set` checks and messages, graph, latency compensation and tail,
 * so a file's samples processed here equal `auhost render`'s output sample for sample.
 *
 * Conventions (the AudioToolbox layer's where they fit):
 *  - opaque handles, made by a `_new` / `_open` function and freed by its `_free` /
 *    `_close` / `_finish` / `_cancel`;
 *  - audio is planar float32: an array of channel pointers, each to `frames` samples;
 *  - a function that can fail returns 0 (or a handle, or a count) on success and -1 (or
 *    NULL) on failure, with a one-line (or one line per problem) message in `*error`,
 *    allocated with malloc and freed with `auhost_free`; pass NULL for `error` to ignore it;
 *  - strings the library returns (JSON) are freed with `auhost_free`.
 *
 * Threads: every function is control-side (it may allocate and lock). One handle is used
 * by one thread at a time; different chains render on different threads at once.
 */
#ifndef AUHOST_H
#define AUHOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AUHOST_API_VERSION 7

typedef struct auhost_chain auhost_chain;
typedef struct auhost_reader auhost_reader;
typedef struct auhost_writer auhost_writer;

/* The API version this library implements (AUHOST_API_VERSION). */
int auhost_api_version(void);

/* Frees a string or message the library returned. */
void auhost_free(void *pointer);

/* The units whose name, identifier or codes contain `text` (NULL: all) and whose type is
   `type` (a four-character code such as "aufx"; NULL: any), as a JSON array of the objects
   `auhost list --json` prints. */
char *auhost_units_json(const char *text, const char *type, char **error);

/* A chain preset: `preset` is a file's path when `file` is NULL, else the preset's JSON text
   whose relative paths are relative to `file`'s folder. `sample_rate`: the rate the chain
   runs at when the preset names none (the preset's `sampleRate` wins); `block_size`: frames
   per cycle (`--block`, 1...16384); `threads`: the threads that render it (`--threads`,
   1...64; 0: as many as the cores). Every `sample_rate` argument below may be 0 for this one. */
auhost_chain *auhost_chain_new(const char *preset, const char *file, double sample_rate, int block_size, int threads, char **error);

/* auhost_chain_new with the chain's plugins out of process (docs/ISOLATION.md): the nodes
   without an "isolation" key run where `isolation` says: "none" (this process), "together"
   (one child process for all) or "per-unit" (one each); NULL is "none". A plugin that
   crashes, exits or hangs in its child fails the render it was in (the error names the node,
   the unit and what happened) and the process goes on; the next render gets a fresh child.
   The children run `auhost-unit-host`: $AUHOST_UNIT_HOST, else the one beside this library,
   else PREFIX/bin's when this library is PREFIX/lib's. */
auhost_chain *auhost_chain_new_isolated(const char *preset, const char *file, double sample_rate, int block_size, int threads, const char *isolation, char **error);
void auhost_chain_free(auhost_chain *chain);

/* Sets `NODE.PARAM=VALUE` with `auhost render --set`'s checks and messages; on failure
   nothing changes. */
int auhost_chain_set(auhost_chain *chain, const char *assignment, char **error);

/* The tail rendered after the input (`--tail`): seconds (0...3600), or negative for auto. */
int auhost_chain_set_tail(auhost_chain *chain, double seconds, char **error);

/* For audio at `sample_rate`: the rate the chain runs at, its input and output channels, its
   latency in frames (primed, as a render primes it) and its TailTime in seconds. */
int auhost_chain_info(auhost_chain *chain, double sample_rate, double *chain_rate, int *input_channels, int *output_channels,
                      int64_t *latency_frames, double *tail_seconds, char **error);

/* The output a render of `frames` frames at `sample_rate` gives: the chain's output channels
   and its fewest frames, the input's and the tail's shortest (a tail of fixed length: exactly
   so many; auto: the chain's TailTime and the half second of quiet, a tail quiet from its
   start). An output of that size for auhost_chain_process_into takes the render in place
   whenever the tail ends as soon as it may. Since API version 6. */
int auhost_chain_output_shape(auhost_chain *chain, int64_t frames, double sample_rate, int *output_channels, int64_t *output_frames, char **error);

/* Renders `frames` frames of `channels` planar channels at `sample_rate` (a preset with a
   `sampleRate` takes only that rate), or with `smf` (a Standard MIDI File of `smf_size`
   bytes) plays it into the chain's instruments over silence (`channels` 0, `input` NULL),
   as `auhost render` renders one file: a clean start (a series of native effects reset,
   any other chain built from fresh instances), its latency compensated, the tail rendered;
   NaN and infinity in the input are rendered as silence and reported by
   auhost_chain_warnings_json. The output (the chain's output channels at its rate) is kept
   until the next call. */
int auhost_chain_process(auhost_chain *chain, const float *const *input, int channels, int64_t frames, double sample_rate,
                         const uint8_t *smf, size_t smf_size, char **error);
/* Renders audio as auhost_chain_process does, straight into `output` (`output_channels`,
   the chain's output channels, of `output_frames` each: auhost_chain_output_shape's) when
   the output is exactly that long: returns 1. Otherwise the output is
   kept in the chain as after auhost_chain_process (`output` may hold a part of it):
   returns 0. The graph reads `input` where it is and, from API version 4, renders straight
   into `output` when the two do not share memory; neither is copied through the chain's
   buffers. `input` is never written (NaN in it are silenced in a copy). Since API version 2. */
int auhost_chain_process_into(auhost_chain *chain, const float *const *input, int channels, int64_t frames, double sample_rate,
                              float *const *output, int output_channels, int64_t output_frames, char **error);
/* Continues the chain's stream from its state (after the last call, or fresh): `frames`
   frames of `channels` planar channels in, as many written into `output` (`output_channels`,
   the chain's output channels from auhost_chain_info), the latency not compensated, no tail. */
int auhost_chain_stream(auhost_chain *chain, const float *const *input, int channels, int64_t frames, double sample_rate,
                        float *const *output, int output_channels, char **error);
int auhost_chain_output_channels(const auhost_chain *chain);
int64_t auhost_chain_output_frames(const auhost_chain *chain);
/* Copies the last output into `output_channels` planar channels of `output_frames` each. */
void auhost_chain_copy_output(const auhost_chain *chain, float *const *output);

/* The last render's warnings, the lines `auhost render` prints after a file (faults, NaN in
   the input, clipping, a tail cut at its cap), as a JSON array of strings. */
char *auhost_chain_warnings_json(const auhost_chain *chain);
/* How many samples of the last render's input were NaN or infinite (rendered as silence).
   Since API version 4. */
int64_t auhost_chain_nonfinite_input(const auhost_chain *chain);
/* The last render's levels over all its output channels, as `auhost render --results` writes
   them: the sample peak and the RMS, in dBFS (-infinity for silence, or before a render).
   Since API version 5. */
void auhost_chain_levels(const auhost_chain *chain, double *peak_dbfs, double *rms_dbfs);
/* Every input parameter: [{"name": "node.param", "value", "min", "max", "default", "unit", "label"}]. */
char *auhost_chain_parameters_json(const auhost_chain *chain);
/* The chain as it is now as preset JSON (parameters changed from their defaults, custom state). */
char *auhost_chain_preset_json(const auhost_chain *chain, char **error);

/* Audio files through libsndfile. A reader gives the file's rate, channels and frames and
   reads planar float32 in chunks (returns the frames read, 0 at the end, -1 on failure). */
auhost_reader *auhost_reader_open(const char *path, double *sample_rate, int *channels, int64_t *frames, char **error);
int64_t auhost_reader_read(auhost_reader *reader, float *const *output, int64_t frames, char **error);
void auhost_reader_close(auhost_reader *reader);
/* What is wrong with the file that it still reads, NULL when nothing is: a file cut short
   ("in.wav: cut short: its header gives 192000 bytes of audio, the file holds 56 (14 frames)"),
   read to the frames it holds. Freed with auhost_free. Since API version 7. */
char *auhost_reader_warning(const auhost_reader *reader);
/* What is wrong with the file that it still reads, NULL when nothing is: a file cut short
   ("in.wav: cut short: its header gives 192000 bytes of audio, the file holds 56 (14 frames)"),
   read to the frames it holds. Freed with auhost_free. Since API version 7. */
char *auhost_reader_warning(const auhost_reader *reader);

/* A writer writes atomically: an unnamed file linked into place by auhost_writer_finish,
   nothing left by auhost_writer_cancel or a crash; never over an existing file unless
   `overwrite`. `format`: wav, flac, aiff, caf or ogg (NULL: the path's extension, else wav);
   `bit_depth`: "16", "24" or "32f" (NULL: the format's default, 24). Finish and cancel free it. */
auhost_writer *auhost_writer_open(const char *path, double sample_rate, int channels, const char *format, const char *bit_depth,
                                  int overwrite, char **error);
int auhost_writer_write(auhost_writer *writer, const float *const *input, int64_t frames, char **error);
int auhost_writer_finish(auhost_writer *writer, char **error);
void auhost_writer_cancel(auhost_writer *writer);

#ifdef __cplusplus
}
#endif

#endif /* AUHOST_H */
