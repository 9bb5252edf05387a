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
 *
 * Inside a CPU quota (cpu_quota.h) spin and poll would spend the quota and
 * get the process throttled: they turn themselves off and say why. The
 * ownership and thread rule: start and stop from the same thread. */
#ifndef TT_KEEP_AWAKE_H
#define TT_KEEP_AWAKE_H

#include <pthread.h>
#include <stdbool.h>

#include "cpu_quota.h"

enum keep_awake_mode {
    KEEP_AWAKE_SPIN = 0, /* the default */
    KEEP_AWAKE_POLL,
    KEEP_AWAKE_OFF,
};

struct keep_awake {
    enum keep_awake_mode asked; /* what the command line asked for */
    enum keep_awake_mode mode;  /* what runs (off when it could not) */
    int cpu;                    /* the pinned CPU, -1 none */
    char why[800];              /* why mode is off though asked, "" */
    struct cpu_quota quota;
    /* private */
    bool pinned, spinning;
    volatile int stop; /* read by the spinner with __atomic loads */
    pthread_t spinner;
    unsigned char old_mask[128]; /* the caller's affinity before pinning */
};

/* "spin", "poll", "off". */
const char *keep_awake_mode_name(enum keep_awake_mode m);

/* Parses a mode name. Returns 0, or -1 for an unknown one. */
int keep_awake_parse_mode(const char *s, enum keep_awake_mode *out);

/* Starts mode on the calling thread: cpu >= 0 pins to that CPU (it must
 * be in the thread's allowed set), -1 picks the CPU the thread runs on.
 * proc_cgroup and cgroup_root name where to look for a quota (NULL: this
 * process's, cpu_quota_find). Never fails: when something cannot be done
 * (a quota, the CPU not allowed, no thread) mode ends up off and why says
 * so. */
void keep_awake_start(struct keep_awake *k, enum keep_awake_mode mode, int cpu,
                      const char *proc_cgroup, const char *cgroup_root);

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
