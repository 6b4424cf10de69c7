#define _GNU_SOURCE
#include "au_strict.h"
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <ucontext.h>

const char *au_strict_symbol(uintptr_t address, uintptr_t *offset) {
    Dl_info info;
    if (dladdr((void *)address, &info) == 0 || info.dli_sname == NULL) return NULL;
    *offset = address - (uintptr_t)info.dli_saddr;
    return info.dli_sname;
}

const char *au_strict_module(uintptr_t address, uintptr_t *offset) {
    Dl_info info;
    if (dladdr((void *)address, &info) == 0 || info.dli_fname == NULL) return NULL;
    *offset = address - (uintptr_t)info.dli_fbase;
    return info.dli_fname;
}

#if defined(__x86_64__) && defined(__linux__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define AU_STRICT_SLOTS 256

static au_strict_trap slots[AU_STRICT_SLOTS];
static atomic_uint_fast64_t trap_count = 0;
/* Per thread: several watched threads (a graph's render workers) record independently. */
static _Thread_local bool recording __attribute__((tls_model("initial-exec"))) = false;

/* The one `syscall` instruction the filter lets through from anywhere: the handler makes
 * the trapped call here. The label marks the address after the instruction, which is what
 * the kernel reports as seccomp_data.instruction_pointer. */
extern const char au_strict_passthrough_return[];
__attribute__((noinline)) static long au_strict_passthrough(long number, long a1, long a2, long a3, long a4, long a5, long a6) {
    register long r10 __asm__("r10") = a4;
    register long r8 __asm__("r8") = a5;
    register long r9 __asm__("r9") = a6;
    long result;
    __asm__ volatile(
        "syscall\n"
        ".globl au_strict_passthrough_return\n"
        "au_strict_passthrough_return:\n"
        : "=a"(result)
        : "a"(number), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
        : "rcx", "r11", "memory");
    return result;
}

static void au_strict_on_sigsys(int signal, siginfo_t *info, void *context) {
    (void)signal;
    ucontext_t *uc = context;
    greg_t *regs = uc->uc_mcontext.gregs;
    if (recording) {
        uint64_t index = atomic_fetch_add_explicit(&trap_count, 1, memory_order_relaxed);
        if (index < AU_STRICT_SLOTS) {
            slots[index].number = info->si_syscall;
            slots[index].address = (uintptr_t)info->si_call_addr;
            slots[index].depth = backtrace((void **)slots[index].frames, AU_STRICT_FRAMES);
        }
    }
    regs[REG_RAX] = au_strict_passthrough(info->si_syscall, regs[REG_RDI], regs[REG_RSI], regs[REG_RDX], regs[REG_R10], regs[REG_R8], regs[REG_R9]);
}

int au_strict_install(void) {
    uint64_t passthrough = (uint64_t)(uintptr_t)au_strict_passthrough_return;
    struct sock_filter program[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
        /* The handler's own calls, from the passthrough stub. */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)passthrough, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer) + 4),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(passthrough >> 32), 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_futex, 11, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigreturn, 9, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clock_gettime, 8, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_gettimeofday, 7, 0),
        /* A thread's way out, made with every signal blocked (a call trapped then would
         * kill the process instead of reaching the handler): glibc's cancellation handler
         * (JACK cancels its process thread on close) checks the sender with getpid, and a
         * leaving thread blocks signals, gives back its stack and exits. */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getpid, 6, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_gettid, 5, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigprocmask, 4, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_madvise, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_munmap, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /* futex: FUTEX_WAKE (a release that wakes a waiter), and the private plain wait of
         * glibc's internal locks, which a leaving thread may make with every signal blocked
         * (its descriptor's lock, held by a thread sending it the cancellation). Every other
         * wait traps: shared waits, bitset waits (semaphores, condition variables) and the
         * priority-inheriting lock of Swift's Mutex. A pthread mutex on the render path
         * is counted by the shim as a lock, contended or not. */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 3, 0),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, FUTEX_CMD_MASK),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FUTEX_WAKE, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog filter = {.len = (unsigned short)(sizeof program / sizeof program[0]), .filter = program};
    /* The first backtrace() loads the unwinder (dlopen: system calls, allocations); do it
     * now, not in the handler. */
    void *warm[2];
    backtrace(warm, 2);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = au_strict_on_sigsys;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGSYS, &action, NULL) != 0) return errno;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &filter) != 0) return errno;
    return 0;
}

void au_strict_set_recording(bool on) { recording = on; }

uint64_t au_strict_trap_count(void) { return atomic_load_explicit(&trap_count, memory_order_relaxed); }

int au_strict_read_traps(au_strict_trap *traps, int capacity) {
    uint64_t count = atomic_load_explicit(&trap_count, memory_order_acquire);
    int copied = 0;
    for (uint64_t index = 0; index < count && index < AU_STRICT_SLOTS && copied < capacity; index++) traps[copied++] = slots[index];
    return copied;
}

#else

int au_strict_install(void) { return ENOSYS; }
void au_strict_set_recording(bool on) { (void)on; }
uint64_t au_strict_trap_count(void) { return 0; }
int au_strict_read_traps(au_strict_trap *traps, int capacity) { (void)traps; (void)capacity; return 0; }

#endif
