#ifndef AU_QUANTIZE_H
#define AU_QUANTIZE_H
#include <stdint.h>

/// Quantizes `frames` samples of each of `file_channels` channels to `bits` (16 or 24) and
/// interleaves them left-aligned in 32 bits (libsndfile's `int` full scale) into `out`:
/// full scale is ±1 with 2^(bits-1) steps, NaN is silence, values past full scale are
/// clamped, the rest rounded half away from zero (truncating `v ± 0.5`, in float). Channel
/// `c` reads `sources[c]` (a NULL channel is silent). Returns the samples clamped.
/// Written so that the compiler vectorizes it (no branch in the sample loop; one pass per
/// channel into `lane`, `frames` int32s of scratch, then the interleave).
/// Thread: any; no allocation, no syscall.
long au_quantize_interleave(const float *const *sources, int file_channels, int frames, int bits, int32_t *lane,
                            int32_t *out);

#endif
