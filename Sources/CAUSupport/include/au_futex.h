#ifndef AU_FUTEX_H
#define AU_FUTEX_H
#include <stdint.h>

/// Wakes up to `count` threads waiting on `word` (FUTEX_WAKE, private): how a graph's render
/// thread wakes its parked render workers. The one system call a parallel plan's render
/// path makes, and only when a worker is parked; made directly (not through glibc's
/// `syscall`, which the AllocCounter shim counts as a lock) and counted here instead.
/// Returns how many were woken. Thread: any; never allocates or blocks.
int au_futex_wake(uint32_t *word, int count);

/// Waits while `*word == expected`, at most `timeout_ns` nanoseconds (negative: no limit):
/// how a parked render worker sleeps between cycles, off the render path.
/// Returns 0 or the errno (EAGAIN: the word had changed; ETIMEDOUT). Thread: a worker.
int au_futex_wait(uint32_t *word, uint32_t expected, int64_t timeout_ns);

/// How many FUTEX_WAKE calls au_futex_wake made inside render calls (marked threads).
/// Thread: any.
uint64_t au_futex_render_wakes(void);

/// A spin-wait hint to the processor (`pause` on x86). Thread: any.
void au_cpu_relax(void);

#endif
