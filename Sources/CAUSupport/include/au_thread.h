#ifndef AU_THREAD_H
#define AU_THREAD_H
#include <stdbool.h>

/// Marks the calling thread as inside (depth > 0) or outside the render path.
/// Thread: any; touches only the caller's thread-local state; never allocates or blocks.
int au_render_thread_enter(void);
void au_render_thread_leave(void);
/// True while the calling thread is inside a render call.
bool au_is_render_thread(void);

#endif
