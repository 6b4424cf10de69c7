#ifndef AU_FLOAT_H
#define AU_FLOAT_H
#include <stdint.h>

/// Sets flush-to-zero and denormals-are-zero on the calling thread and returns the
/// previous floating-point control state, to be given back to au_restore_float_state.
/// Thread: render; no allocation, no syscall.
uint32_t au_enable_flush_denormals(void);
void au_restore_float_state(uint32_t state);
/// True when the calling thread flushes denormals to zero.
int au_flushes_denormals(void);

#endif
