#define _GNU_SOURCE
#include "au_bridge.h"
#include "au_futex.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

long au_futex_call(uint32_t *word, int op, uint32_t value, const struct timespec *timeout);

_Static_assert(sizeof(au_bridge_header) <= 64, "the header is the shared memory's first 64 bytes (BridgeRegion)");

static uint32_t load(uint32_t *word) { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }
static void store(uint32_t *word, uint32_t value) { __atomic_store_n(word, value, __ATOMIC_RELEASE); }
/* The sleeping flags and the sequence words are a Dekker pair: each side stores its own word
   then loads the other's, both sequentially consistent, so either the sleeper sees the new
   sequence before it sleeps or the poster sees the flag and wakes it (no wake is lost). */
static void store_ordered(uint32_t *word, uint32_t value) { __atomic_store_n(word, value, __ATOMIC_SEQ_CST); }
static uint32_t load_ordered(uint32_t *word) { return __atomic_load_n(word, __ATOMIC_SEQ_CST); }

/* Shared (not private) futexes: the word lives in memory two processes map. */
static void wake(uint32_t *word) { au_futex_call(word, FUTEX_WAKE, 1, NULL); }
static void wait_for_change(uint32_t *word, uint32_t expected, uint64_t nanos) {
    struct timespec timeout = {.tv_sec = (time_t)(nanos / 1000000000u), .tv_nsec = (long)(nanos % 1000000000u)};
    au_futex_call(word, FUTEX_WAIT, expected, &timeout);
}

uint64_t au_bridge_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

void au_bridge_post_request(au_bridge_header *header, au_bridge_doorbell *doorbell, uint32_t sequence) {
    __atomic_store_n(&header->requestNanos, au_bridge_now(), __ATOMIC_RELAXED);
    store_ordered(&header->request, sequence);
    if (load_ordered(&doorbell->sleeping)) {
        __atomic_fetch_add(&doorbell->rings, 1, __ATOMIC_SEQ_CST);
        wake(&doorbell->rings);
    }
}

void au_bridge_post_in_run(au_bridge_header *header, uint32_t sequence) {
    __atomic_store_n(&header->requestNanos, au_bridge_now(), __ATOMIC_RELAXED);
    store_ordered(&header->request, sequence);
}

int au_bridge_await_reply(au_bridge_header *header, uint32_t sequence, uint64_t deadline_nanos, uint64_t spin_nanos, uint64_t longest_spin_nanos) {
    uint64_t start = au_bridge_now();
    for (;;) {
        uint32_t reply = load(&header->reply);
        if (reply == sequence) {
            __atomic_store_n(&header->requestNanos, 0, __ATOMIC_RELAXED);
            return 0;
        }
        if (reply == AU_BRIDGE_ABORTED) return 2;
        uint64_t now = au_bridge_now();
        if (now >= deadline_nanos) return 1;
        uint64_t spun = now - start;
        if (spun < spin_nanos || (spun < longest_spin_nanos && load(&header->rendering) == sequence)) {
            au_cpu_relax();
            continue;
        }
        store_ordered(&header->hostSleeping, 1);
        if (load_ordered(&header->reply) == reply) wait_for_change(&header->reply, reply, deadline_nanos - now);
        __atomic_store_n(&header->hostSleeping, 0, __ATOMIC_RELAXED);
    }
}

uint32_t au_bridge_pending(au_bridge_header *header, uint32_t last) {
    uint32_t request = load_ordered(&header->request);
    return request != last ? request : 0;
}

void au_bridge_begin_render(au_bridge_header *header, uint32_t sequence) { store(&header->rendering, sequence); }

uint32_t au_bridge_doorbell_prepare_sleep(au_bridge_doorbell *doorbell) {
    uint32_t rings = load_ordered(&doorbell->rings);
    store_ordered(&doorbell->sleeping, 1);
    return rings;
}

void au_bridge_doorbell_sleep(au_bridge_doorbell *doorbell, uint32_t rings, uint64_t nanos) {
    if (!load(&doorbell->stop)) wait_for_change(&doorbell->rings, rings, nanos);
    __atomic_store_n(&doorbell->sleeping, 0, __ATOMIC_RELAXED);
}

void au_bridge_doorbell_awake(au_bridge_doorbell *doorbell) { __atomic_store_n(&doorbell->sleeping, 0, __ATOMIC_RELAXED); }

int au_bridge_doorbell_stopping(au_bridge_doorbell *doorbell) { return (int)load(&doorbell->stop); }

uint64_t au_bridge_doorbell_spin(au_bridge_doorbell *doorbell) { return __atomic_load_n(&doorbell->spinNanos, __ATOMIC_RELAXED); }

void au_bridge_doorbell_stop(au_bridge_doorbell *doorbell, int leave) {
    store_ordered(&doorbell->stop, leave ? 1 : 0);
    if (leave) {
        __atomic_fetch_add(&doorbell->rings, 1, __ATOMIC_SEQ_CST);
        wake(&doorbell->rings);
    }
}

uint64_t au_bridge_outstanding(const au_bridge_header *header) {
    return __atomic_load_n(&header->requestNanos, __ATOMIC_RELAXED);
}

uint32_t au_bridge_host_wakes(const au_bridge_header *header) {
    return __atomic_load_n(&header->hostWakes, __ATOMIC_RELAXED);
}

int au_bridge_answered(au_bridge_header *header, uint32_t sequence) {
    if (__atomic_load_n(&header->reply, __ATOMIC_ACQUIRE) != sequence) return 0;
    __atomic_store_n(&header->requestNanos, 0, __ATOMIC_RELAXED);
    return 1;
}

void au_bridge_post_reply(au_bridge_header *header, uint32_t sequence) {
    store_ordered(&header->reply, sequence);
    if (load_ordered(&header->hostSleeping)) {
        __atomic_store_n(&header->hostWakes, header->hostWakes + 1, __ATOMIC_RELAXED);
        wake(&header->reply);
    }
}

void au_bridge_abort(au_bridge_header *header) {
    store(&header->reply, AU_BRIDGE_ABORTED);
    wake(&header->reply);
}

int au_bridge_memfd(const char *name, size_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int au_bridge_precise_timers(void) { return prctl(PR_SET_TIMERSLACK, 1UL); }

int au_bridge_die_with_parent(pid_t parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    return getppid() == parent ? 0 : -1;
}

int au_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int au_spawn_pipe(int ends[2]) {
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    return fcntl(ends[0], F_SETFL, O_NONBLOCK);
}
