#ifndef AU_METER_H
#define AU_METER_H

/// The largest magnitude among the `frames` samples at `samples`, and in `*squares` the sum
/// of their squares (summed in single precision within the call, eight lanes at a time: a
/// render's block of a few thousand frames; the caller sums the blocks in double). The
/// samples hold no NaN (the graph's output: its nodes' are silenced). On x86-64, compiled
/// for AVX2 and for the baseline, the processor's copy picked once when the library loads.
/// Thread: any; no allocation, no lock, no system call.
float au_peak_and_squares(const float *samples, long frames, double *squares);

#endif
