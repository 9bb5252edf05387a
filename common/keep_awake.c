/* keep_awake: an idle-priority spinner (or a polling loop) pinned beside
 * the event loop, so its CPU never halts; off inside a CPU quota; auto
 * governed by what it measures (keep_awake_gov.h). */
#define _GNU_SOURCE /* CPU_SET, sched_getcpu, pthread affinity */
#include "keep_awake.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json_escape.h"
#include "keep_awake_gov.h"
#include "keep_awake_pin.h"

static const char *const names[] = {"auto", "spin", "poll", "off"};
#define N_NAMES (sizeof names / sizeof names[0])

const char *keep_awake_mode_name(enum keep_awake_mode m)
{
    return (unsigned)m < N_NAMES ? names[m] : "?";
}

int keep_awake_parse_mode(const char *s, enum keep_awake_mode *out)
{
    for (size_t i = 0; i < N_NAMES; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (enum keep_awake_mode)i;
            return 0;
        }
    return -1;
}

/* Whether the process runs under valgrind, which runs one thread at a
 * time: a spinner would take the loop's turns (and timing means nothing
 * there). Valgrind starts every program with its own libraries in
 * LD_PRELOAD (vgpreload_core-*.so), which says so without its headers. */
static bool under_valgrind(void)
{
    const char *pre = getenv("LD_PRELOAD");
    return pre && strstr(pre, "vgpreload") != NULL;
}

/* Pins the calling thread to k->cpu (chosen when -1), keeping its old
 * set. Returns 0, or -1 with why filled. */
static int pin(struct keep_awake *k, int cpu)
{
    cpu_set_t old, one;
    CPU_ZERO(&old);
    if (sched_getaffinity(0, sizeof old, &old) != 0) {
        snprintf(k->why, sizeof k->why, "cannot read the CPU set: %s",
                 strerror(errno));
        return -1;
    }
    if (cpu < 0)
        cpu = sched_getcpu();
    if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &old)) {
        snprintf(k->why, sizeof k->why, "CPU %d is not in the allowed set",
                 cpu);
        return -1;
    }
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) {
        snprintf(k->why, sizeof k->why, "cannot pin to CPU %d: %s", cpu,
                 strerror(errno));
        return -1;
    }
    memcpy(k->old_mask, &old,
           sizeof old < sizeof k->old_mask ? sizeof old : sizeof k->old_mask);
    k->pinned = true;
    k->cpu = cpu;
    return 0;
}

/* auto's first look: whether to spin (k->chose says why either way). */
static bool auto_spins(struct keep_awake *k)
{
    struct ka_sampler smp;
    struct ka_sample now;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        CPU_SET(0, &set);
    ka_sampler_open(&smp, k->loop_tid, 0, k->stat_path, k->pressure_path);
    ka_sampler_read(&smp, -1, true, &now);
    ka_sampler_close(&smp);
    if (now.loop.run_ns < 0) { /* the monitor would be blind */
        snprintf(k->chose, sizeof k->chose,
                 "no /proc/self/task/%d/schedstat (a kernel without "
                 "schedstats): a neighbour taking the loop's CPU could not "
                 "be seen",
                 k->loop_tid);
        return false;
    }
    return ka_gov_first(&now, CPU_COUNT(&set), k->chose, sizeof k->chose);
}

/* Spin or auto, past the quota: pins, starts the spinner (and auto's
 * monitor). Returns 0, or -1 with why filled (nothing left running). */
static int start_threads(struct keep_awake *k, int cpu, bool spin_now)
{
    cpu_set_t old;
    if (pin(k, cpu) != 0)
        return -1;
    k->home_cpu = k->cpu;
    if (pthread_mutex_init(&k->mu, NULL) != 0)
        return -1;
    {
        /* the monitor's timed waits count on the monotonic clock */
        pthread_condattr_t ca;
        int e = pthread_condattr_init(&ca);
        if (!e) {
            pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
            e = pthread_cond_init(&k->cv, &ca);
            pthread_condattr_destroy(&ca);
        }
        if (e) {
            pthread_mutex_destroy(&k->mu);
            return -1;
        }
    }
    k->has_sync = true;
    k->want = 1;
    if (ka_spinner_start(k) != 0)
        return -1;
    if (k->asked != KEEP_AWAKE_AUTO)
        return 0;
    if (!spin_now) { /* not pinned while off */
        ka_set_flag(k, &k->want, 0);
        memcpy(&old, k->old_mask,
               sizeof old < sizeof k->old_mask ? sizeof old
                                               : sizeof k->old_mask);
        sched_setaffinity(0, sizeof old, &old);
    }
    if (ka_monitor_start(k) != 0) {
        size_t n = strlen(k->chose);
        snprintf(k->chose + n, sizeof k->chose - n,
                 " (no monitor thread: not re-decided during the run)");
    }
    return 0;
}

void keep_awake_start(struct keep_awake *k, enum keep_awake_mode mode, int cpu,
                      const struct keep_awake_env *env)
{
    static const struct keep_awake_env real;
    bool spin_now = true;
    if (!env)
        env = &real;
    memset(k, 0, sizeof *k);
    k->asked = k->mode = mode;
    k->cpu = k->home_cpu = -1;
    k->loop_tid = ka_gettid();
    k->stat_path = env->stat;
    k->pressure_path = env->pressure;
    k->busy = !env->idle;
    if (mode == KEEP_AWAKE_OFF)
        goto off;
    if (under_valgrind()) {
        snprintf(k->why, sizeof k->why,
                 "running under valgrind, which runs one thread at a time");
        goto off;
    }
    cpu_quota_find(env->proc_cgroup, env->cgroup_root, &k->quota);
    if (k->quota.limited) {
        snprintf(k->why, sizeof k->why,
                 "CPU quota %lld us per %lld us (%s): a spinner would spend "
                 "it and get the process throttled",
                 (long long)k->quota.quota_us, (long long)k->quota.period_us,
                 k->quota.file);
        goto off;
    }
    if (mode == KEEP_AWAKE_POLL) {
        if (pin(k, cpu) != 0)
            goto off;
        k->now = KEEP_AWAKE_POLL;
        return;
    }
    if (mode == KEEP_AWAKE_AUTO)
        spin_now = auto_spins(k);
    if (start_threads(k, cpu, spin_now) != 0) {
        keep_awake_stop(k);
        goto off;
    }
    k->mode = spin_now ? KEEP_AWAKE_SPIN : KEEP_AWAKE_OFF;
    k->now = (int)k->mode;
    if (!spin_now) {
        snprintf(k->why, sizeof k->why, "%s", k->chose);
        k->cpu = -1;
    }
    return;
off:
    k->mode = KEEP_AWAKE_OFF;
    k->now = KEEP_AWAKE_OFF;
    k->cpu = -1;
}

int keep_awake_other_cpu(const struct keep_awake *k)
{
    cpu_set_t set;
    int avoid = k->home_cpu >= 0 ? k->home_cpu : sched_getcpu();
    CPU_ZERO(&set);
    if (k->pinned)
        memcpy(&set, k->old_mask,
               sizeof set < sizeof k->old_mask ? sizeof set
                                               : sizeof k->old_mask);
    else if (sched_getaffinity(0, sizeof set, &set) != 0)
        return -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (c != avoid && CPU_ISSET(c, &set))
            return c;
    return -1;
}

bool keep_awake_polls(const struct keep_awake *k)
{
    return k->mode == KEEP_AWAKE_POLL;
}

void keep_awake_busy(struct keep_awake *k, bool busy)
{
    if (k->has_sync)
        ka_set_flag(k, &k->busy, busy ? 1 : 0);
    else
        k->busy = busy;
}

enum keep_awake_mode keep_awake_now(const struct keep_awake *k)
{
    return (enum keep_awake_mode)__atomic_load_n(&k->now, __ATOMIC_ACQUIRE);
}

void keep_awake_stop(struct keep_awake *k)
{
    if (k->has_sync)
        ka_set_flag(k, &k->stop, 1);
    if (k->has_monitor) {
        pthread_join(k->monitor, NULL);
        k->has_monitor = false;
    }
    if (k->has_spinner) {
        pthread_join(k->spinner, NULL);
        k->has_spinner = false;
    }
    if (k->has_sync) {
        pthread_cond_destroy(&k->cv);
        pthread_mutex_destroy(&k->mu);
        k->has_sync = false;
    }
    if (k->pinned) {
        ka_unpin_tid(k, 0);
        k->pinned = false;
    }
}

char *keep_awake_describe(const struct keep_awake *k, char *out, size_t size)
{
    const char *a = k->asked == KEEP_AWAKE_AUTO ? "auto: " : "";
    if (k->mode != KEEP_AWAKE_OFF)
        snprintf(out, size, "%s%s on CPU %d%s%s", a,
                 keep_awake_mode_name(k->mode), k->cpu, k->chose[0] ? ", " : "",
                 k->chose);
    else if (k->asked == KEEP_AWAKE_OFF)
        snprintf(out, size, "off (as asked)");
    else
        snprintf(out, size, "%soff: %s", a, k->why);
    return out;
}

int keep_awake_log_json(const struct keep_awake *k, int64_t zero_ns,
                        struct buf *b)
{
    buf_puts(b, "[");
    for (unsigned i = 0; i < k->n_log; i++) {
        const struct keep_awake_change *c = &k->log[i];
        buf_printf(b, "%s{\"t_ms\":%.3f,\"to\":\"%s\",\"why\":\"", i ? "," : "",
                   (double)(c->t_ns - zero_ns) / 1e6,
                   keep_awake_mode_name(c->to));
        json_escape_cstr(b, c->why);
        buf_puts(b, "\"}");
    }
    return buf_puts(b, "]");
}
