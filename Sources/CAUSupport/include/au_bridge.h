#ifndef AU_BRIDGE_H
#define AU_BRIDGE_H
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <spawn.h>

/// The first bytes of the shared memory between the host and a unit-host child (AUBridge):
/// one cycle's hand-over. The host stores a cycle's frame count and time, then a new
/// `request` sequence, and wakes the child; the child renders and stores the same sequence
/// in `reply` and wakes the host. Both words are shared futexes (the memory is a memfd
/// mapped by two processes). Thread: the host's render thread and the child's render thread.
typedef struct {
    uint32_t request;        /* host: the cycle asked for (1, 2, …, wrapping below AU_BRIDGE_ABORTED) */
    uint32_t reply;          /* child: the cycle done; AU_BRIDGE_ABORTED once the host's monitor saw the child go */
    uint32_t frames;         /* host: the cycle's frame count */
    int32_t status;          /* child: the unit's render status */
    double sampleTime;       /* host: the cycle's sample time */
    uint64_t requestNanos;   /* host: CLOCK_MONOTONIC when the request was posted; 0 while none is outstanding */
    uint32_t stop;           /* host: the child's render thread leaves */
    uint32_t parameterWrites;/* host: bumped when the values in the parameter area changed */
    uint32_t midiCount;      /* host: MIDI events in the MIDI area for this cycle */
    uint32_t renderNanos;    /* child: how long the unit took for the last cycle */
} au_bridge_header;

/// The `reply` value that says the child is gone (never a request sequence).
#define AU_BRIDGE_ABORTED 0xFFFFFFFFu

/// Posts cycle `sequence` and wakes the child (one shared FUTEX_WAKE). Never blocks.
void au_bridge_post_request(au_bridge_header *header, uint32_t sequence);

/// Waits for the child's reply to `sequence` until `deadline_nanos` (CLOCK_MONOTONIC):
/// spins for `spin_nanos`, then sleeps on the shared futex. Returns 0 (answered),
/// 1 (the deadline passed) or 2 (the child is gone). Allocates nothing, takes no lock.
int au_bridge_await_reply(au_bridge_header *header, uint32_t sequence, uint64_t deadline_nanos, uint64_t spin_nanos);

/// The child: waits for a request other than `last`; returns it, or 0 when told to stop.
uint32_t au_bridge_await_request(au_bridge_header *header, uint32_t last);

/// The child: stores the reply to `sequence` and wakes the host.
void au_bridge_post_reply(au_bridge_header *header, uint32_t sequence);

/// The host's monitor: marks the child gone and wakes a render thread waiting for it.
void au_bridge_abort(au_bridge_header *header);

/// The host: tells the child's render thread to leave and wakes it.
void au_bridge_stop(au_bridge_header *header);

/// When the outstanding request was posted (CLOCK_MONOTONIC ns), 0 when none is. Thread: any.
uint64_t au_bridge_outstanding(const au_bridge_header *header);

/// Whether the child has answered `sequence` (a late cycle's reply); if so, none is outstanding any more. Thread: the host's render thread.
int au_bridge_answered(au_bridge_header *header, uint32_t sequence);

/// CLOCK_MONOTONIC in nanoseconds (the vDSO: no system call).
uint64_t au_bridge_now(void);

/// A memfd of `size` bytes (close-on-exec), or -1 with errno.
int au_bridge_memfd(const char *name, size_t size);

/// The child: dies with SIGKILL when its parent does; -1 when `parent` is already gone.
int au_bridge_die_with_parent(pid_t parent);

/// Adds "close every descriptor from `from` on" to a spawn's file actions (glibc's
/// posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not show).
int au_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

#endif
