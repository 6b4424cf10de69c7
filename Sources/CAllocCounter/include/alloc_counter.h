#ifndef ALLOC_COUNTER_H
#define ALLOC_COUNTER_H
#include <stdint.h>

/// Counts, on the threads that asked for it, every call to malloc, calloc, realloc, free
/// (and the aligned allocators), Swift retain and release, and lock or wait operations
/// (pthread mutex / rwlock / condition variable, semaphores, futex system calls).
///
/// Built as a shared library (the AllocCounter product) and loaded with LD_PRELOAD, it
/// interposes those symbols and forwards each call to the real one. A program finds the
/// functions below with dlsym(RTLD_DEFAULT, ...) and brackets its render calls with
/// alloc_counter_begin / alloc_counter_end: only calls made in between, on that thread,
/// are counted. Thread: any; no allocation, no lock.

typedef struct alloc_counter_counts {
    uint64_t mallocs;
    uint64_t callocs;
    uint64_t reallocs;
    uint64_t frees;
    uint64_t retains;
    uint64_t releases;
    uint64_t locks;
    uint64_t syscalls;
} alloc_counter_counts;

void alloc_counter_begin(void);
void alloc_counter_end(void);
void alloc_counter_read(alloc_counter_counts *counts);
void alloc_counter_reset(void);

#endif
