// What waking a sleeping process costs on this machine, the floor under an isolated node's
// round trip (docs/BENCHMARKS.md, "What a wake-up costs here"): a parent posts a request in
// shared memory and FUTEX_WAKEs its child, which sleeps on a shared futex between requests
// and answers at once; the parent spins for the answer. 2000 requests, one every PERIOD
// microseconds (default 1333: a 64-frame period at 48 kHz); prints the round trip's median
// and 10th and 90th percentiles. `spin`: the child spins instead of sleeping. Run the parent
// real-time as JACK's process thread is (`chrt -f 50`); the child inherits it, or runs
// SCHED_FIFO CHILD_PRIORITY, or SCHED_OTHER with CHILD_NORMAL=1.
//
//     cc -O2 scripts/bench-wake.c -o /tmp/bench-wake && chrt -f 50 /tmp/bench-wake sleep 1333
#define _GNU_SOURCE
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
typedef struct { uint32_t request, reply, sleeping, stop; } shared_t;
static uint64_t now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (uint64_t)t.tv_sec * 1000000000u + t.tv_nsec; }
static long futex(uint32_t *w, int op, uint32_t v) { return syscall(SYS_futex, w, op, v, NULL, NULL, 0); }
static int cmp(const void *a, const void *b) { uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
    int spin = argc > 1 && !strcmp(argv[1], "spin");
    int rounds = 2000, period = argc > 2 ? atoi(argv[2]) : 1333;
    if (argc < 2 || (strcmp(argv[1], "spin") && strcmp(argv[1], "sleep"))) { fprintf(stderr, "usage: bench-wake sleep|spin [PERIOD]\n"); return 2; }
    shared_t *s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    memset(s, 0, sizeof *s);
    pid_t child = fork();
    if (child == 0) {
        if (getenv("CHILD_NORMAL")) { struct sched_param p = {.sched_priority = 0}; if (sched_setscheduler(0, SCHED_OTHER, &p)) perror("sched"); }
        if (getenv("CHILD_PRIORITY")) { struct sched_param p = {.sched_priority = atoi(getenv("CHILD_PRIORITY"))}; if (sched_setscheduler(0, SCHED_FIFO, &p)) perror("sched"); }
        uint32_t last = 0;
        while (!__atomic_load_n(&s->stop, __ATOMIC_SEQ_CST)) {
            uint32_t r = __atomic_load_n(&s->request, __ATOMIC_SEQ_CST);
            if (r != last) { last = r; __atomic_store_n(&s->reply, r, __ATOMIC_SEQ_CST); continue; }
            if (spin) continue;
            __atomic_store_n(&s->sleeping, 1, __ATOMIC_SEQ_CST);
            if (__atomic_load_n(&s->request, __ATOMIC_SEQ_CST) == last) futex(&s->request, FUTEX_WAIT, last);
            __atomic_store_n(&s->sleeping, 0, __ATOMIC_SEQ_CST);
        }
        _exit(0);
    }
    uint64_t *t = malloc(rounds * sizeof *t);
    for (int i = 0; i < rounds; i++) {
        uint64_t next = now() + (uint64_t)period * 1000;
        uint64_t start = now();
        __atomic_store_n(&s->request, i + 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&s->sleeping, __ATOMIC_SEQ_CST)) futex(&s->request, FUTEX_WAKE, 1);
        while (__atomic_load_n(&s->reply, __ATOMIC_SEQ_CST) != (uint32_t)(i + 1)) {}
        t[i] = now() - start;
        while (now() < next) usleep(50);
    }
    __atomic_store_n(&s->stop, 1, __ATOMIC_SEQ_CST); __atomic_add_fetch(&s->request, 1, __ATOMIC_SEQ_CST); futex(&s->request, FUTEX_WAKE, 1);
    waitpid(child, NULL, 0);
    qsort(t, rounds, sizeof *t, cmp);
    printf("%s, a request every %d us: round trip median %.1f us, 10%% %.1f, 90%% %.1f\n", spin ? "child spinning" : "child sleeping", period, t[rounds / 2] / 1e3, t[rounds / 10] / 1e3, t[rounds * 9 / 10] / 1e3);
    return 0;
}
