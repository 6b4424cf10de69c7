// Whether waking a per-unit chain's next child early would pay on this machine (docs/BENCHMARKS.md,
// "The per-unit wake-up, series by series"): N child processes in a chain, each answering a
// request after WORK_US of busy work, one cycle every PERIOD_US (0: back to back, as offline);
// the host posts each node's request, rings its child if it sleeps, and spins for the reply.
// MODE plain: as the bridge does; prewake: posting node k also rings node k+1's child, which
// once rung looks for its request for up to 100 us, yielding the core between looks, before it
// sleeps again. Prints the median per-node time over 3,000 cycles. Run it real-time as JACK's
// thread is for the live case (the children inherit it):
//
//     cc -O2 scripts/bench-chain-wake.c -o /tmp/bench-chain-wake
//     /tmp/bench-chain-wake plain 5 0 2; /tmp/bench-chain-wake prewake 5 0 2
//     chrt -f 50 /tmp/bench-chain-wake prewake 5 1333 2
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
typedef struct { uint32_t request, reply, sleeping, ring, stop; char pad[44]; } shared_t;
static uint64_t now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (uint64_t)t.tv_sec * 1000000000u + t.tv_nsec; }
static long futex(uint32_t *w, int op, uint32_t v) { return syscall(SYS_futex, w, op, v, NULL, NULL, 0); }
static int cmp(const void *a, const void *b) { uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b; return x < y ? -1 : x > y; }
static void ring(shared_t *c) { __atomic_add_fetch(&c->ring, 1, __ATOMIC_SEQ_CST); if (__atomic_load_n(&c->sleeping, __ATOMIC_SEQ_CST)) futex(&c->ring, FUTEX_WAKE, 1); }
int main(int argc, char **argv) {
    int prewake = !strcmp(argv[1], "prewake"); int n = atoi(argv[2]); int period = atoi(argv[3]); int work = atoi(argv[4]);
    int cycles = 3000;
    shared_t *s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    memset(s, 0, 4096);
    for (int k = 0; k < n; k++) if (fork() == 0) {
        shared_t *c = &s[k]; uint32_t last = 0;
        while (!__atomic_load_n(&c->stop, __ATOMIC_SEQ_CST)) {
            uint64_t until = now() + 100000;
            int served = 0;
            while (now() < until) {
                uint32_t r = __atomic_load_n(&c->request, __ATOMIC_SEQ_CST);
                if (r != last) { last = r; uint64_t e = now() + work * 1000ull; while (now() < e) {} __atomic_store_n(&c->reply, r, __ATOMIC_SEQ_CST); served = 1; break; }
                if (!prewake) break;
                sched_yield();
            }
            if (served && !prewake) continue;
            uint32_t rg = __atomic_load_n(&c->ring, __ATOMIC_SEQ_CST);
            __atomic_store_n(&c->sleeping, 1, __ATOMIC_SEQ_CST);
            if (__atomic_load_n(&c->request, __ATOMIC_SEQ_CST) == last && !__atomic_load_n(&c->stop, __ATOMIC_SEQ_CST)) futex(&c->ring, FUTEX_WAIT, rg);
            __atomic_store_n(&c->sleeping, 0, __ATOMIC_SEQ_CST);
        }
        _exit(0);
    }
    uint64_t *t = malloc(cycles * sizeof *t);
    usleep(100000);
    for (int i = 0; i < cycles; i++) {
        uint64_t next = now() + (uint64_t)period * 1000, start = now();
        for (int k = 0; k < n; k++) {
            __atomic_store_n(&s[k].request, i + 1, __ATOMIC_SEQ_CST); ring(&s[k]);
            if (prewake) ring(&s[(k + 1) % n]);
            while (__atomic_load_n(&s[k].reply, __ATOMIC_SEQ_CST) != (uint32_t)(i + 1)) {}
        }
        t[i] = now() - start;
        while (now() < next) {}
    }
    for (int k = 0; k < n; k++) { __atomic_store_n(&s[k].stop, 1, __ATOMIC_SEQ_CST); ring(&s[k]); }
    while (wait(NULL) > 0) {}
    qsort(t, cycles, sizeof *t, cmp);
    printf("%s n=%d period=%d work=%d: per node median %.1f us (10%% %.1f, 90%% %.1f)\n", argv[1], n, period, work, t[cycles / 2] / 1e3 / n, t[cycles / 10] / 1e3 / n, t[cycles * 9 / 10] / 1e3 / n);
    return 0;
}
