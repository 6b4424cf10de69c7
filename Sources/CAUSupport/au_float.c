#include "au_float.h"
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define AU_FTZ_DAZ 0x8040u /* FTZ (bit 15) | DAZ (bit 6) */
/* Writing MXCSR serializes the pipeline; reading it does not. Both calls skip the write
 * when the register already holds what is wanted (a render thread that keeps FTZ/DAZ on). */
uint32_t au_enable_flush_denormals(void) {
    uint32_t old = _mm_getcsr();
    if ((old & AU_FTZ_DAZ) != AU_FTZ_DAZ) _mm_setcsr(old | AU_FTZ_DAZ);
    return old;
}
void au_restore_float_state(uint32_t state) {
    if (_mm_getcsr() != state) _mm_setcsr(state);
}
int au_flushes_denormals(void) { return (_mm_getcsr() & AU_FTZ_DAZ) == AU_FTZ_DAZ; }
#elif defined(__aarch64__)
#define AU_FZ (1u << 24)
uint32_t au_enable_flush_denormals(void) {
    uint64_t fpcr;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
    __asm__ __volatile__("msr fpcr, %0" ::"r"(fpcr | AU_FZ));
    return (uint32_t)fpcr;
}
void au_restore_float_state(uint32_t state) {
    uint64_t fpcr = state;
    __asm__ __volatile__("msr fpcr, %0" ::"r"(fpcr));
}
int au_flushes_denormals(void) {
    uint64_t fpcr;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
    return (fpcr & AU_FZ) != 0;
}
#else
uint32_t au_enable_flush_denormals(void) { return 0; }
void au_restore_float_state(uint32_t state) { (void)state; }
int au_flushes_denormals(void) { return 0; }
#endif
