#ifndef AU_BRIDGE_H
#define AU_BRIDGE_H
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <spawn.h>

/// The first bytes of the shared memory between the host and a unit-host child (AUBridge)
/// for one unit: one cycle's hand-over. The host stores a cycle's frame count and time, then
/// a new `request` sequence, and rings the child's doorbell (below) if the child sleeps; the
/// child renders and stores the same sequence in `reply` and wakes the host if it sleeps.
/// `reply` is a shared futex (the memory is a memfd mapped by two processes).
/// Thread: the host's render thread and the child's render thread.
typedef struct {
    uint32_t request;        /* host: the cycle asked for (1, 2, …, wrapping below AU_BRIDGE_ABORTED) */
    uint32_t reply;          /* child: the cycle done; AU_BRIDGE_ABORTED once the host's monitor saw the child go */
    uint32_t frames;         /* host: the cycle's frame count */
    int32_t status;          /* child: the unit's render status */
    double sampleTime;       /* host: the cycle's sample time */
    uint64_t requestNanos;   /* host: CLOCK_MONOTONIC when the request was posted; 0 while none is outstanding */
    uint32_t parameterWrites;/* host: bumped when the values in the parameter area changed */
    uint32_t midiCount;      /* host: MIDI events in the MIDI area for this cycle */
    uint32_t renderNanos;    /* child: how long the unit took for the last cycle */
    uint32_t hostSleeping;   /* host: 1 while its render thread sleeps (or is about to) on `reply`: the child wakes it only then */
    uint32_t rendering;      /* child: the request it took and renders now (the host spins longer for it) */
    uint32_t hostWakes;      /* child: how many replies woke the host (it slept for them) */
    uint32_t next;           /* host: the unit (its index + 1) the child renders right after this one, over this one's output (0: none) */
    uint32_t nonFinite;      /* child: 1 when the unit, rendered in a run, wrote NaN or infinity (its output is then silence) */
} au_bridge_header;

/// The child's doorbell: one small memfd per unit-host child, mapped by the host and the
/// child, that the child's one render thread sleeps on for the requests of all its units.
typedef struct {
    uint32_t rings;          /* host: bumped (a shared futex) when it posts a request while the child sleeps */
    uint32_t sleeping;       /* child: 1 while its render thread sleeps (or is about to) on `rings` */
    uint32_t stop;           /* child: its render thread leaves (its control thread sets it) */
    uint32_t unused;
    uint64_t spinNanos;      /* host: how long the child's render thread spins for a request before it sleeps */
} au_bridge_doorbell;

/// The `reply` value that says the child is gone (never a request sequence).
#define AU_BRIDGE_ABORTED 0xFFFFFFFFu

/// The bit of a request sequence (sequences stay below it) that says the unit is rendered
/// in a run, right after the unit before it (whose `next` names it), never alone.
#define AU_BRIDGE_IN_RUN 0x80000000u

/// Posts cycle `sequence` and, if the child's render thread sleeps, rings its doorbell (one
/// shared FUTEX_WAKE); a child still spinning sees it without a wake-up or a system call. Never blocks.
void au_bridge_post_request(au_bridge_header *header, au_bridge_doorbell *doorbell, uint32_t sequence);

/// Posts cycle `sequence` (with ``AU_BRIDGE_IN_RUN``) for a unit the child renders after the
/// one before it in a run: no ring (the run's first unit's post rings). Never blocks.
void au_bridge_post_in_run(au_bridge_header *header, uint32_t sequence);

/// Waits for the child's reply to `sequence` until `deadline_nanos` (CLOCK_MONOTONIC):
/// spins for `spin_nanos`, and on while the child renders the request (`rendering`: it runs
/// on another core) up to `longest_spin_nanos`, then sleeps on the shared futex (saying so in
/// `hostSleeping`). A child not yet running (being woken, or waiting for the host's own core)
/// is not spun for past `spin_nanos`. Returns 0 (answered), 1 (the deadline passed) or 2 (the
/// child is gone). Allocates nothing, takes no lock.
int au_bridge_await_reply(au_bridge_header *header, uint32_t sequence, uint64_t deadline_nanos, uint64_t spin_nanos, uint64_t longest_spin_nanos);

/// The child: the request posted for the unit if it is not `last`, else 0 (a sequentially
/// consistent load: read after ``au_bridge_doorbell_prepare_sleep`` it pairs with the host's
/// post). A request with ``AU_BRIDGE_IN_RUN`` is rendered only after the unit before it.
uint32_t au_bridge_pending(au_bridge_header *header, uint32_t last);

/// The child: it renders `sequence` now (`rendering`).
void au_bridge_begin_render(au_bridge_header *header, uint32_t sequence);

/// The child's render thread, about to sleep: says so (`sleeping`) and returns the ring
/// count to sleep on. It then looks at every unit once more (``au_bridge_pending``) and
/// either sleeps (``au_bridge_doorbell_sleep``) or, having found a request, ``au_bridge_doorbell_awake``.
uint32_t au_bridge_doorbell_prepare_sleep(au_bridge_doorbell *doorbell);

/// Sleeps until the host rings (the ring count is no longer `rings`), the child stops, or
/// `nanos` pass; then is awake.
void au_bridge_doorbell_sleep(au_bridge_doorbell *doorbell, uint32_t rings, uint64_t nanos);

/// The render thread is awake (it found a request after preparing to sleep).
void au_bridge_doorbell_awake(au_bridge_doorbell *doorbell);

/// Whether the render thread is to leave. Thread: the child's render thread.
int au_bridge_doorbell_stopping(au_bridge_doorbell *doorbell);

/// How long the render thread spins for a request before it sleeps. Thread: any.
uint64_t au_bridge_doorbell_spin(au_bridge_doorbell *doorbell);

/// The child's control thread: tells the render thread to leave (`leave`) or lets a new one run.
void au_bridge_doorbell_stop(au_bridge_doorbell *doorbell, int leave);

/// The child: stores the reply to `sequence` and wakes the host if it sleeps.
void au_bridge_post_reply(au_bridge_header *header, uint32_t sequence);

/// The host's monitor: marks the child gone and wakes a render thread waiting for it.
void au_bridge_abort(au_bridge_header *header);


/// When the outstanding request was posted (CLOCK_MONOTONIC ns), 0 when none is. Thread: any.
uint64_t au_bridge_outstanding(const au_bridge_header *header);

/// How many replies woke the host (`hostWakes`). Thread: any.
uint32_t au_bridge_host_wakes(const au_bridge_header *header);

/// Whether the child has answered `sequence` (a late cycle's reply); if so, none is outstanding any more. Thread: the host's render thread.
int au_bridge_answered(au_bridge_header *header, uint32_t sequence);

/// CLOCK_MONOTONIC in nanoseconds (the vDSO: no system call).
uint64_t au_bridge_now(void);

/// A memfd of `size` bytes (close-on-exec), or -1 with errno.
int au_bridge_memfd(const char *name, size_t size);

/// The child's render thread: its timed sleeps wake when due, not up to the 50 µs of timer
/// slack a thread that is not real-time gets by default (it sleeps until just before the next
/// cycle is due). Returns 0, or -1 with errno.
int au_bridge_precise_timers(void);

/// The child: dies with SIGKILL when its parent does; -1 when `parent` is already gone.
int au_bridge_die_with_parent(pid_t parent);

/// Adds "close every descriptor from `from` on" to a spawn's file actions (glibc's
/// posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not show).
int au_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/// A pipe whose ends are close-on-exec from the start, the read end non-blocking (glibc's
/// pipe2, which Swift's Glibc module does not show): no child spawned meanwhile inherits it.
int au_spawn_pipe(int ends[2]);

#endif
