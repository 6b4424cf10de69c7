#ifndef AU_THREAD_H
#define AU_THREAD_H
#include <stdbool.h>
#include <stdint.h>

/// Marks the calling thread as inside (depth > 0) or outside the render path. The
/// outermost enter flushes denormals (au_enable_flush_denormals) and the matching leave
/// restores the floating-point state it found: one call each way per render call.
/// Thread: any; touches only the caller's thread-local state; never allocates or blocks.
int au_render_thread_enter(void);
void au_render_thread_leave(void);
/// Tells enter and leave whether the calling thread keeps denormals flushed itself (a
/// render loop that set them once): when it does, they do not touch the floating-point
/// control register. Returns the previous setting.
bool au_render_thread_keep_flushing(bool keep);
/// True while the calling thread is inside a render call.
bool au_is_render_thread(void);
/// Puts the calling thread under strict mode's seccomp filter (au_strict_install) and makes
/// every outermost enter/leave on it start/stop recording trapped system calls, so that
/// only calls made inside render calls are recorded (a JACK process thread's own waits
/// between periods are performed unrecorded). Returns 0 or the errno of the refusal.
/// Thread: a thread that does nothing but render, before its first render call.
int au_render_thread_watch_strictly(void);

/// What the AllocCounter shim (when preloaded with LD_PRELOAD) counted inside render
/// calls since the process started; the same layout as alloc_counter_counts.
typedef struct au_render_counts {
    uint64_t mallocs, callocs, reallocs, frees, retains, releases, locks, syscalls;
} au_render_counts;

/// Reads the counts; false when the shim is not loaded. Thread: any.
bool au_render_counts_read(au_render_counts *counts);

/// Names the calling thread (at most 15 bytes are kept), as `top -H` and debuggers show it.
/// Thread: any.
void au_name_this_thread(const char *name);

#endif
