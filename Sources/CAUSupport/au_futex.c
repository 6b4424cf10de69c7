#define _GNU_SOURCE
#include "au_futex.h"
#include "au_thread.h"
#include <errno.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static atomic_uint_fast64_t render_wakes = 0;

/* The futex call itself: a `syscall` instruction on x86-64, glibc's syscall() elsewhere
   (au_bridge.c makes its shared futex calls through it too). */
long au_futex_call(uint32_t *word, int op, uint32_t value, const struct timespec *timeout) {
#if defined(__x86_64__)
    register long r10 __asm__("r10") = (long)timeout;
    register long r8 __asm__("r8") = 0;
    register long r9 __asm__("r9") = 0;
    long result;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"((long)SYS_futex), "D"(word), "S"((long)op), "d"((long)value), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    if (result < 0 && result > -4096) {
        errno = (int)-result;
        return -1;
    }
    return result;
#else
    return syscall(SYS_futex, word, op, value, timeout, NULL, 0);
#endif
}

int au_futex_wake(uint32_t *word, int count) {
    if (au_is_render_thread()) atomic_fetch_add_explicit(&render_wakes, 1, memory_order_relaxed);
    long woken = au_futex_call(word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, (uint32_t)count, NULL);
    return woken < 0 ? 0 : (int)woken;
}

int au_futex_wait(uint32_t *word, uint32_t expected, int64_t timeout_ns) {
    struct timespec timeout = {.tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000};
    long result = au_futex_call(word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, expected, timeout_ns < 0 ? NULL : &timeout);
    return result == 0 ? 0 : errno;
}

uint64_t au_futex_render_wakes(void) { return atomic_load_explicit(&render_wakes, memory_order_relaxed); }

void au_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}
