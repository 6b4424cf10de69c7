#include "au_meter.h"
#include <stdint.h>
#include <string.h>

/* Eight lanes as a vector of the compiler's (AVX2: one register; the baseline: two SSE
 * registers). Magnitudes are the samples with the sign bit cleared, compared as floats;
 * the larger of two lanes picked by the comparison's mask (the compiler makes it a max). */
typedef float au_lanes __attribute__((vector_size(32)));
typedef uint32_t au_lane_bits __attribute__((vector_size(32)));

#if defined(__x86_64__) && defined(__ELF__)
__attribute__((target_clones("avx2", "default")))
#endif
float au_peak_and_squares(const float *samples, long frames, double *squares) {
    au_lanes sums[2] = {{0}, {0}}, peaks[2] = {{0}, {0}};
    long frame = 0;
    for (; frame + 16 <= frames; frame += 16) {
        for (int half = 0; half < 2; half++) {
            au_lane_bits bits;
            memcpy(&bits, samples + frame + 8 * half, sizeof bits);
            au_lanes magnitudes = (au_lanes)(bits & 0x7FFFFFFFu);
            sums[half] += magnitudes * magnitudes;
            au_lane_bits larger = (au_lane_bits)(magnitudes > peaks[half]);
            peaks[half] = (au_lanes)(((au_lane_bits)magnitudes & larger) | ((au_lane_bits)peaks[half] & ~larger));
        }
    }
    float peak = 0, sum = 0;
    for (int lane = 0; lane < 8; lane++) {
        sum += sums[0][lane] + sums[1][lane];
        peak = peaks[0][lane] > peak ? peaks[0][lane] : peak;
        peak = peaks[1][lane] > peak ? peaks[1][lane] : peak;
    }
    double total = sum;
    for (; frame < frames; frame++) {
        float magnitude = samples[frame] < 0 ? -samples[frame] : samples[frame];
        peak = magnitude > peak ? magnitude : peak;
        total += (double)samples[frame] * samples[frame];
    }
    *squares = total;
    return peak;
}
