#ifndef AU_SCAN_H
#define AU_SCAN_H

/// True when any of the `frames` samples at `samples` is NaN or infinity. On x86-64 the
/// loop is compiled twice, for AVX2 and for the baseline, and the processor's picks the
/// copy once, when the library loads (an IFUNC): eight samples an instruction where it can.
/// Thread: any (the graph's scan of every unit's output on the render thread); no
/// allocation, no lock, no system call.
int au_contains_nonfinite(const float *samples, long frames);

#endif
