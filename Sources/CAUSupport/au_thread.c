#include "au_thread.h"

static _Thread_local int render_depth = 0;

int au_render_thread_enter(void) { return ++render_depth; }
void au_render_thread_leave(void) { if (render_depth > 0) --render_depth; }
bool au_is_render_thread(void) { return render_depth > 0; }
