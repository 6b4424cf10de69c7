#include "au_quantize.h"
#include <stddef.h>

// One channel, contiguous: the loop the compiler vectorizes (selects, a truncating
// conversion, a count of clamped samples).
static long quantize_lane(const float *restrict source, int frames, float scale, int shift, int32_t *restrict lane) {
    const float highest = scale - 1.0f;
    long clipped = 0;
    for (int frame = 0; frame < frames; frame++) {
        float value = source[frame] * scale;
        value = value != value ? 0.0f : value;
        clipped += (value > highest) + (value < -scale);
        value = value > highest ? highest : value;
        value = value < -scale ? -scale : value;
        value = value + (value < 0.0f ? -0.5f : 0.5f);
        lane[frame] = (int32_t)value * (int32_t)(1u << shift);
    }
    return clipped;
}

long au_quantize_interleave(const float *const *sources, int file_channels, int frames, int bits, int32_t *lane,
                            int32_t *out) {
    const float scale = (float)(1 << (bits - 1));
    const int shift = 32 - bits;
    long clipped = 0;
    for (int channel = 0; channel < file_channels; channel++) {
        int32_t *restrict target = out + channel;
        if (sources[channel] == NULL) {
            for (int frame = 0; frame < frames; frame++) target[(ptrdiff_t)frame * file_channels] = 0;
            continue;
        }
        clipped += quantize_lane(sources[channel], frames, scale, shift, lane);
        if (file_channels == 2) {
            for (int frame = 0; frame < frames; frame++) target[2 * frame] = lane[frame];
        } else {
            for (int frame = 0; frame < frames; frame++) target[(ptrdiff_t)frame * file_channels] = lane[frame];
        }
    }
    return clipped;
}
