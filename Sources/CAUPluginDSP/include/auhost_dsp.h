#ifndef AUHOST_DSP_H
#define AUHOST_DSP_H

/* Vector loops for native units (AUPluginSDK wraps them): compiled for AVX2 and for the
 * baseline on x86-64, the processor's copy picked once when the library loads.
 * Thread: any (a unit's render); no allocation, no lock, no system call. */

/* output[i] = input[i] * gain for `count` samples (vDSP_vsmul's job); `output` may be
   `input`. Returns 1 when every sample written is finite (no NaN, no infinity), else 0:
   checked in the same pass, at no cost a store-bound loop notices. */
int auhost_dsp_scale(const float *input, float gain, float *output, long count);

#endif
