#ifndef AU_STRICT_H
#define AU_STRICT_H
#include <stdbool.h>
#include <stdint.h>

/// Strict render-thread mode: a seccomp filter on the calling thread only (filters are per
/// thread) that traps every system call but an allow-list — futex wake, the private plain
/// futex wait of glibc's internal locks, clock_gettime,
/// gettimeofday, rt_sigreturn, and a leaving thread's calls (getpid, gettid,
/// rt_sigprocmask, madvise, munmap, exit: glibc makes them with every signal blocked, when
/// a trap would kill the process) — into a SIGSYS handler. The handler records the call's
/// number and the address it was made from in a lock-free slot, then performs the call
/// itself through a stub the filter lets through, so the program behaves as before and
/// only the record shows what was trapped (with a backtrace). Catches what the counting shim cannot see:
/// locks that never reach libc's mutex functions (a contended Swift `Mutex` waits with a
/// futex call) and system calls such as write and nanosleep.
///
/// x86_64 Linux only; the filter cannot be removed, so install it on a thread that only
/// renders and parks (or exits through allowed calls) afterwards.

/// How many return addresses a trap keeps.
#define AU_STRICT_FRAMES 12

/// One trapped system call.
typedef struct au_strict_trap {
    /// The system call number (x86_64).
    long number;
    /// The address the call was made from (the instruction after `syscall`).
    uintptr_t address;
    /// The call's backtrace (backtrace(3) from the handler, warmed up at install so that
    /// it loads nothing then): `depth` return addresses, innermost first.
    uintptr_t frames[AU_STRICT_FRAMES];
    int depth;
} au_strict_trap;

/// Installs the filter on the calling thread (prctl(PR_SET_NO_NEW_PRIVS) +
/// seccomp(SECCOMP_SET_MODE_FILTER)) and the process-wide SIGSYS handler. Returns 0, or
/// an errno value when the kernel refused (or the architecture is not x86_64).
/// Thread: the thread to watch; allocates nothing after it returns.
int au_strict_install(void);

/// Starts (true) or stops (false) recording trapped calls; calls trapped while stopped
/// are performed without a record. Thread: the watched thread (each records its own).
void au_strict_set_recording(bool recording);

/// How many calls were trapped while recording (the first `capacity` are kept).
/// Thread: any.
uint64_t au_strict_trap_count(void);

/// Copies up to `capacity` recorded traps into `traps`; returns how many it copied.
/// Thread: any, after the watched thread stopped recording.
int au_strict_read_traps(au_strict_trap *traps, int capacity);

/// The symbol `address` lies in (dladdr), and its offset from the symbol's start; NULL
/// when none is known. Thread: control (never from the render thread).
const char *au_strict_symbol(uintptr_t address, uintptr_t *offset);

/// The file of the loaded object `address` lies in (dladdr), and its offset from the
/// object's base (what `addr2line -e file` takes); NULL when none. Thread: control.
const char *au_strict_module(uintptr_t address, uintptr_t *offset);

#endif
