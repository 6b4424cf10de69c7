#define _GNU_SOURCE
#include "au_bridge.h"
#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

long au_futex_call(uint32_t *word, int op, uint32_t value, const struct timespec *timeout);

static uint32_t load(uint32_t *word) { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }
static void store(uint32_t *word, uint32_t value) { __atomic_store_n(word, value, __ATOMIC_RELEASE); }

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

void au_bridge_post_request(au_bridge_header *header, uint32_t sequence) {
    __atomic_store_n(&header->requestNanos, au_bridge_now(), __ATOMIC_RELAXED);
    store(&header->request, sequence);
    wake(&header->request);
}

int au_bridge_await_reply(au_bridge_header *header, uint32_t sequence, uint64_t deadline_nanos, uint64_t spin_nanos) {
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
        if (now - start < spin_nanos) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
            continue;
        }
        wait_for_change(&header->reply, reply, deadline_nanos - now);
    }
}

uint32_t au_bridge_await_request(au_bridge_header *header, uint32_t last) {
    for (;;) {
        if (load(&header->stop)) return 0;
        uint32_t request = load(&header->request);
        if (request != last) return request;
        wait_for_change(&header->request, last, 100000000u);
    }
}

uint64_t au_bridge_outstanding(const au_bridge_header *header) {
    return __atomic_load_n(&header->requestNanos, __ATOMIC_RELAXED);
}

int au_bridge_answered(au_bridge_header *header, uint32_t sequence) {
    if (__atomic_load_n(&header->reply, __ATOMIC_ACQUIRE) != sequence) return 0;
    __atomic_store_n(&header->requestNanos, 0, __ATOMIC_RELAXED);
    return 1;
}

void au_bridge_post_reply(au_bridge_header *header, uint32_t sequence) {
    store(&header->reply, sequence);
    wake(&header->reply);
}

void au_bridge_abort(au_bridge_header *header) {
    store(&header->reply, AU_BRIDGE_ABORTED);
    wake(&header->reply);
}

void au_bridge_stop(au_bridge_header *header) {
    store(&header->stop, 1);
    wake(&header->request);
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

int au_bridge_die_with_parent(pid_t parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    return getppid() == parent ? 0 : -1;
}

int au_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
