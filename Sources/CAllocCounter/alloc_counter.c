// LD_PRELOAD shim: see include/alloc_counter.h.
#define _GNU_SOURCE
#include "alloc_counter.h"
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static __thread int counting = 0;
static alloc_counter_counts totals;
/// ALLOC_COUNTER_TRAP=mallocs|frees|locks|retains: stop at the first counted call of that
/// kind (a debugger or Swift's backtracer then shows where it came from);
/// ALLOC_COUNTER_TRAP_SKIP=N lets the first N of them pass (past one-time work);
/// ALLOC_COUNTER_TRAP_AFTER_RESETS=N traps only once the counts were reset N times (alloc-check
/// resets once before its render thread starts and once when the warm-up ends: with 2 it traps in
/// the counted cycles alone).
static int trap_kind = -1;
static long trap_skip = 0;
static long trap_after_resets = 0;
static long resets = 0;

__attribute__((constructor)) static void alloc_counter_init(void) {
    const char *trap = getenv("ALLOC_COUNTER_TRAP");
    if (!trap) return;
    const char *skip = getenv("ALLOC_COUNTER_TRAP_SKIP");
    if (skip) trap_skip = atol(skip);
    const char *after = getenv("ALLOC_COUNTER_TRAP_AFTER_RESETS");
    if (after) trap_after_resets = atol(after);
    if (!strcmp(trap, "mallocs")) trap_kind = 0;
    else if (!strcmp(trap, "frees")) trap_kind = 3;
    else if (!strcmp(trap, "retains")) trap_kind = 4;
    else if (!strcmp(trap, "locks")) trap_kind = 6;
}

#define FIELD_INDEX(field) (int)(offsetof(alloc_counter_counts, field) / sizeof(uint64_t))
#define COUNT(field) do { if (counting) { \
    __atomic_fetch_add(&totals.field, 1, __ATOMIC_RELAXED); \
    if (trap_kind == FIELD_INDEX(field) && __atomic_load_n(&resets, __ATOMIC_RELAXED) >= trap_after_resets \
        && __atomic_fetch_sub(&trap_skip, 1, __ATOMIC_RELAXED) <= 0) { counting = 0; __builtin_trap(); } } } while (0)

void alloc_counter_begin(void) { counting = 1; }
void alloc_counter_end(void) { counting = 0; }
void alloc_counter_reset(void) {
    __atomic_fetch_add(&resets, 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&totals.mallocs, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&totals.callocs, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&totals.reallocs, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&totals.frees, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&totals.retains, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&totals.releases, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&totals.locks, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&totals.syscalls, 0, __ATOMIC_SEQ_CST);
}
void alloc_counter_read(alloc_counter_counts *counts) {
    counts->mallocs = __atomic_load_n(&totals.mallocs, __ATOMIC_SEQ_CST);
    counts->callocs = __atomic_load_n(&totals.callocs, __ATOMIC_SEQ_CST);
    counts->reallocs = __atomic_load_n(&totals.reallocs, __ATOMIC_SEQ_CST);
    counts->frees = __atomic_load_n(&totals.frees, __ATOMIC_SEQ_CST);
    counts->retains = __atomic_load_n(&totals.retains, __ATOMIC_SEQ_CST);
    counts->releases = __atomic_load_n(&totals.releases, __ATOMIC_SEQ_CST);
    counts->locks = __atomic_load_n(&totals.locks, __ATOMIC_SEQ_CST);
    counts->syscalls = __atomic_load_n(&totals.syscalls, __ATOMIC_SEQ_CST);
}

// Allocation.
void *malloc(size_t size) { COUNT(mallocs); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { COUNT(callocs); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { COUNT(reallocs); return __libc_realloc(pointer, size); }
void free(void *pointer) { if (pointer) COUNT(frees); __libc_free(pointer); }
void *memalign(size_t alignment, size_t size) { COUNT(mallocs); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { COUNT(mallocs); return __libc_memalign(alignment, size); }
int posix_memalign(void **result, size_t alignment, size_t size) {
    COUNT(mallocs);
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return 12; /* ENOMEM */
    *result = pointer;
    return 0;
}

// Swift reference counting (libswiftCore exports these; calls from other images go through the PLT).
typedef void *(*retain_fn)(void *);
typedef void (*release_fn)(void *);
void *swift_retain(void *object) {
    static retain_fn real;
    if (!real) real = (retain_fn)dlsym(RTLD_NEXT, "swift_retain");
    COUNT(retains);
    return real(object);
}
void swift_release(void *object) {
    static release_fn real;
    if (!real) real = (release_fn)dlsym(RTLD_NEXT, "swift_release");
    COUNT(releases);
    real(object);
}

// Locks and waits.
#define FORWARD(ret, name, params, args, proto)          \
    ret name params {                                     \
        static ret (*real) proto;                         \
        if (!real) real = (ret (*) proto)dlsym(RTLD_NEXT, #name); \
        COUNT(locks);                                     \
        return real args;                                 \
    }
FORWARD(int, pthread_mutex_lock, (pthread_mutex_t *m), (m), (pthread_mutex_t *))
FORWARD(int, pthread_mutex_trylock, (pthread_mutex_t *m), (m), (pthread_mutex_t *))
FORWARD(int, pthread_rwlock_rdlock, (pthread_rwlock_t *l), (l), (pthread_rwlock_t *))
FORWARD(int, pthread_rwlock_wrlock, (pthread_rwlock_t *l), (l), (pthread_rwlock_t *))
FORWARD(int, pthread_cond_wait, (pthread_cond_t *c, pthread_mutex_t *m), (c, m), (pthread_cond_t *, pthread_mutex_t *))
FORWARD(int, sem_wait, (sem_t *s), (s), (sem_t *))

// Swift's Mutex waits in a futex system call when contended.
long syscall(long number, ...) {
    static long (*real)(long, ...);
    if (!real) real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    va_list list;
    va_start(list, number);
    long a = va_arg(list, long), b = va_arg(list, long), c = va_arg(list, long);
    long d = va_arg(list, long), e = va_arg(list, long), f = va_arg(list, long);
    va_end(list);
    COUNT(syscalls);
    if (number == SYS_futex) COUNT(locks);
    return real(number, a, b, c, d, e, f);
}
