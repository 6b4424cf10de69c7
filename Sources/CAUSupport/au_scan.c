#include "au_scan.h"
#include <stdint.h>

/* The exponent bits of each sample, all ones for NaN and infinity only: adding one to the
 * exponent's lowest bit then carries into the sign bit, which the loop ORs together. No
 * compare, no branch (an early exit keeps a loop scalar) and no floating-point operation,
 * so that the compiler vectorizes it; a max-reduction needs SSE4.1 in the baseline copy. */
typedef uint32_t __attribute__((may_alias)) au_sample_bits;

#if defined(__x86_64__) && defined(__ELF__)
__attribute__((target_clones("avx2", "default")))
#endif
int au_contains_nonfinite(const float *samples, long frames) {
    const au_sample_bits *bits = (const au_sample_bits *)samples;
    uint32_t carried = 0;
    /* Four accumulators of eight lanes: the ORs of one do not wait on another's. */
#pragma clang loop vectorize_width(8) interleave_count(4)
    for (long frame = 0; frame < frames; frame++) carried |= (bits[frame] & 0x7F800000u) + 0x00800000u;
    return (carried & 0x80000000u) != 0;
}
