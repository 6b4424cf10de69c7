#include "auhost_dsp.h"

#if defined(__x86_64__) && defined(__ELF__)
__attribute__((target_clones("avx2", "default")))
#endif
int auhost_dsp_scale(const float *input, float gain, float *output, long count) {
    /* Each product's exponent bits, plus one at their lowest: the carry reaches the sign
     * bit for NaN and infinity only (bits, no compare: the loop stays vectorized). */
    unsigned carried = 0;
    for (long i = 0; i < count; i++) {
        float product = input[i] * gain;
        output[i] = product;
        unsigned bits;
        __builtin_memcpy(&bits, &product, sizeof bits);
        carried |= (bits & 0x7F800000u) + 0x00800000u;
    }
    return (carried & 0x80000000u) == 0;
}
