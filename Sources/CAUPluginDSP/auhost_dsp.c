#include "auhost_dsp.h"

#if defined(__x86_64__) && defined(__ELF__)
__attribute__((target_clones("avx2", "default")))
#endif
void auhost_dsp_scale(const float *input, float gain, float *output, long count) {
    for (long i = 0; i < count; i++) output[i] = input[i] * gain;
}
