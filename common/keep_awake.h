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
 *   auto: (the default) spin while it measures that it hurts no one,
 *         else off, decided and re-decided during the run by a monitor
 *         thread (keep_awake_gov.h): spinning stops the moment another
 *         task takes the loop's CPU, the loop waits for it, or the
 *         hypervisor steals it, and starts again only after a quiet
 *         spell. Every change is kept (keep_awake_log) for the trace.
 *
 * A program with nothing to serve (the replay server between streams)
 * says so with keep_awake_busy: no spinner and no monitor runs then.
 * Inside a CPU quota (cpu_quota.h) spin and poll would spend the quota and
 * get the process throttled, and under valgrind (one thread at a time) a
 * spinner takes the loop's turns: every mode turns itself off there and
 * says why. The thread rule: start and stop from the same thread. */
#ifndef TT_KEEP_AWAKE_H
#define TT_KEEP_AWAKE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "buf.h"
#include "cpu_quota.h"

enum keep_awake_mode {
    KEEP_AWAKE_AUTO = 0, /* the default: spin while it hurts no one */
    KEEP_AWAKE_SPIN,
    KEEP_AWAKE_POLL,
    KEEP_AWAKE_OFF,
};

/* Where keep_awake_start looks (NULL members: this process's and the
 * system's files; a test points them at fakes). */
struct keep_awake_env {
    const char *proc_cgroup; /* the contents of /proc/self/cgroup */
    const char *cgroup_root; /* /sys/fs/cgroup */
    const char *stat;        /* the path of /proc/stat */
    const char *pressure;    /* the path of /proc/pressure/cpu */
    bool idle;               /* start with nothing to serve (keep_awake_busy) */
};

/* One change auto made during the run. */
struct keep_awake_change {
    int64_t t_ns;            /* CLOCK_MONOTONIC */
    enum keep_awake_mode to; /* spin or off */
    char why[240];
};
#define KEEP_AWAKE_LOG_MAX 16 /* changes kept; n_changes counts them all */

struct keep_awake {
    enum keep_awake_mode asked; /* what the command line asked for */
    enum keep_awake_mode mode;  /* what ran at the start: spin, poll or off
                                   (never auto); auto changes it later only
                                   in now (keep_awake_now) */
    int cpu;                    /* the CPU pinned at the start, -1 none */
    char why[800];              /* why mode is off though asked, "" */
    char chose[400];            /* auto: why it started as it did, with what
                                   it measured; "" otherwise */
    struct cpu_quota quota;
    /* auto's changes after the start, filled by the monitor thread: read
     * them after keep_awake_stop */
    struct keep_awake_change log[KEEP_AWAKE_LOG_MAX];
    unsigned n_log;     /* entries of log */
    uint64_t n_changes; /* every change (log keeps the first ones) */
    /* private */
    const char *stat_path, *pressure_path;
    bool pinned, has_spinner, has_monitor, has_sync;
    int home_cpu; /* the CPU spinning uses (auto comes back to it) */
    int loop_tid; /* the thread that started k */
    int spinner_tid;
    int64_t spin_beat_ns; /* the spinner's last turn while spinning, 0 while
                             it sleeps (atomic; keep_awake_gov.h) */
    int now;              /* the mode running now (atomic) */
    int want; /* spinning wanted (atomic; auto: the monitor's say) */
    int busy; /* something to serve (atomic) */
    int stop; /* the threads end (atomic) */
    pthread_mutex_t mu;
    pthread_cond_t cv; /* want, busy or stop changed */
    pthread_t spinner, monitor;
    unsigned char old_mask[128]; /* the caller's affinity before pinning */
};

/* "auto", "spin", "poll", "off". */
const char *keep_awake_mode_name(enum keep_awake_mode m);

/* Parses a mode name. Returns 0, or -1 for an unknown one. */
int keep_awake_parse_mode(const char *s, enum keep_awake_mode *out);

/* Starts mode on the calling thread: cpu >= 0 pins to that CPU (it must
 * be in the thread's allowed set), -1 picks the CPU the thread runs on.
 * env: where to look for a quota and the load (NULL: the real files; busy
 * from the start). Never fails: when something cannot be done (a quota,
 * the CPU not allowed, no thread) mode ends up off and why says so; auto
 * that measured a busy machine starts off and chose says why. */
void keep_awake_start(struct keep_awake *k, enum keep_awake_mode mode, int cpu,
                      const struct keep_awake_env *env);

/* An allowed CPU (of the set before pinning) other than the loop's: for a
 * helper that must wake the loop from elsewhere. -1 when there is none.
 * Read it on the thread that started k. */
int keep_awake_other_cpu(const struct keep_awake *k);

/* Whether the caller's loop should poll instead of sleeping. */
bool keep_awake_polls(const struct keep_awake *k);

/* There is something to serve (busy) or not: while not, nothing spins
 * and auto's monitor sleeps. Cheap when nothing changes; call it from
 * the thread that started k. */
void keep_awake_busy(struct keep_awake *k, bool busy);

/* The mode running now (auto: spin or off, as the monitor last chose). */
enum keep_awake_mode keep_awake_now(const struct keep_awake *k);

/* Stops the spinner and the monitor (joined: within ~10 ms) and gives
 * the calling thread its old CPU set back. Idempotent; safe on a zeroed
 * struct. */
void keep_awake_stop(struct keep_awake *k);

/* auto's changes as a JSON array into b: [{"t_ms":T,"to":"off","why":
 * "..."}], T the change's time in ms after zero_ns; "[]" when none.
 * Returns BUF_OK or the buffer's error. Call after keep_awake_stop. */
int keep_awake_log_json(const struct keep_awake *k, int64_t zero_ns,
                        struct buf *b);

/* One line for a person: "spin on CPU 1", "off (--no-keep-awake)", "off:
 * CPU quota ..." into out. Returns out. */
char *keep_awake_describe(const struct keep_awake *k, char *out, size_t size);

#endif
