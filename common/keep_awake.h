/* keep_awake: keeps the CPU an event loop runs on out of idle while it
 * measures. A CPU woken from halt by another CPU's interrupt (a vCPU
 * above all) takes tens of microseconds to milliseconds to run the
 * waiting thread, and every timestamp of a burst carries that delay.
 *
 *   spin: the calling thread (the loop) and a helper thread are pinned
 *         to one CPU; the helper spins at SCHED_IDLE, the lowest
 *         priority, so it runs only when nothing else wants that CPU
 *         (no one loses time to it) but the CPU never halts.
 *   poll: the calling thread is pinned and its loop never sleeps (the
 *         caller polls: keep_awake_polls); it competes at normal priority.
 *   off:  nothing.
 *   auto: (the default) spin, unless the machine is busy: a 1-minute load
 *         average at or above the CPUs online means other work keeps the
 *         CPUs out of idle already, and a pinned loop could not move away
 *         from a CPU that work takes (it would wait for its share there
 *         while another CPU is free).
 *
 * Inside a CPU quota (cpu_quota.h) spin and poll would spend the quota and
 * get the process throttled, and under valgrind (one thread at a time) a
 * spinner takes the loop's turns: every mode turns itself off there and
 * says why. The thread rule: start and stop from the same thread. */
#ifndef TT_KEEP_AWAKE_H
#define TT_KEEP_AWAKE_H

#include <pthread.h>
#include <stdbool.h>

#include "cpu_quota.h"

enum keep_awake_mode {
    KEEP_AWAKE_AUTO = 0, /* the default: spin unless the machine is busy */
    KEEP_AWAKE_SPIN,
    KEEP_AWAKE_POLL,
    KEEP_AWAKE_OFF,
};

/* Where keep_awake_start looks (NULL members: this process's and the
 * system's files; a test points them at fakes). */
struct keep_awake_env {
    const char *proc_cgroup; /* the contents of /proc/self/cgroup */
    const char *cgroup_root; /* /sys/fs/cgroup */
    const char *loadavg;     /* the path of /proc/loadavg */
};

struct keep_awake {
    enum keep_awake_mode asked; /* what the command line asked for */
    enum keep_awake_mode mode;  /* what runs: spin, poll or off (never auto) */
    int cpu;                    /* the pinned CPU, -1 none */
    char why[800];              /* why mode is off though asked, "" */
    struct cpu_quota quota;
    /* private */
    bool pinned, spinning;
    volatile int stop; /* read by the spinner with __atomic loads */
    pthread_t spinner;
    unsigned char old_mask[128]; /* the caller's affinity before pinning */
};

/* "auto", "spin", "poll", "off". */
const char *keep_awake_mode_name(enum keep_awake_mode m);

/* Parses a mode name. Returns 0, or -1 for an unknown one. */
int keep_awake_parse_mode(const char *s, enum keep_awake_mode *out);

/* Starts mode on the calling thread: cpu >= 0 pins to that CPU (it must
 * be in the thread's allowed set), -1 picks the CPU the thread runs on.
 * env: where to look for a quota and the load (NULL: the real files).
 * Never fails: when something cannot be done (a quota, a busy machine
 * with auto, the CPU not allowed, no thread) mode ends up off and why
 * says so. */
void keep_awake_start(struct keep_awake *k, enum keep_awake_mode mode, int cpu,
                      const struct keep_awake_env *env);

/* An allowed CPU (of the set before pinning) other than the loop's: for a
 * helper that must wake the loop from elsewhere. -1 when there is none.
 * Read it on the thread that started k. */
int keep_awake_other_cpu(const struct keep_awake *k);

/* Whether the caller's loop should poll instead of sleeping. */
bool keep_awake_polls(const struct keep_awake *k);

/* Stops the spinner (joined: it checks its flag every microsecond or so)
 * and gives the calling thread its old CPU set back. Idempotent; safe on
 * a zeroed struct. */
void keep_awake_stop(struct keep_awake *k);

/* One line for a person: "spin on CPU 1", "off (--no-keep-awake)", "off:
 * CPU quota ..." into out. Returns out. */
char *keep_awake_describe(const struct keep_awake *k, char *out, size_t size);

#endif
