/* keep_awake_gov: auto's rules and the monitor thread that follows them. */
#define _GNU_SOURCE /* CPU_SET, pthread affinity */
#include "keep_awake_gov.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "keep_awake_pin.h"

static double ms(int64_t ns)
{
    return (double)ns / 1e6;
}

static int64_t delta(int64_t a, int64_t b)
{
    return a < 0 || b < 0 || b < a ? 0 : b - a;
}

bool ka_gov_first(const struct ka_sample *now, int n_cpus, char *why,
                  size_t size)
{
    /* the sampling thread itself is one of procs_running */
    int others = now->procs_running > 0 ? now->procs_running - 1 : 0;
    if (now->has_psi && now->psi_some_avg10 >= 5.0) {
        snprintf(why, size,
                 "CPU pressure %.1f %% over the last 10 s (tasks waited for "
                 "a CPU): a pinned loop would wait with them",
                 now->psi_some_avg10);
        return false;
    }
    if (now->procs_running >= 0 && others >= n_cpus) {
        snprintf(why, size,
                 "%d other tasks runnable on %d CPUs: a pinned loop could "
                 "not move away from them",
                 others, n_cpus);
        return false;
    }
    if (now->has_psi)
        snprintf(why, size,
                 "quiet: CPU pressure %.1f %% over the last 10 s, %d other "
                 "tasks runnable on %d CPUs",
                 now->psi_some_avg10, others, n_cpus);
    else
        snprintf(why, size,
                 "quiet: %d other tasks runnable on %d CPUs (no "
                 "/proc/pressure/cpu)",
                 others, n_cpus);
    return true;
}

/* What other tasks ran on the spinner's CPU over a -> b: the spinner's
 * wait less the loop's run (the loop is pinned there), ns. */
static int64_t foreign_ns(const struct ka_sample *a, const struct ka_sample *b)
{
    int64_t w = delta(a->spinner.wait_ns, b->spinner.wait_ns);
    int64_t own = delta(a->loop.run_ns, b->loop.run_ns);
    return w > own ? w - own : 0;
}

/* What other tasks hold on the spinner's CPU now, by the spinner's beat:
 * the part of the window since its last turn, less what the loop ran in
 * the window (it may have been the loop). 0 without a beat. The kernel
 * adds a wait to schedstat only when the waiter runs again, and an idle-
 * priority spinner beside a CPU-bound task runs a few times a second: it
 * would see the neighbour 100-200 ms late. */
static int64_t starved_ns(const struct ka_sample *a, const struct ka_sample *b)
{
    int64_t since, own = delta(a->loop.run_ns, b->loop.run_ns);
    if (b->spinner_beat_ns <= 0 || b->spinner_beat_ns >= b->t_ns)
        return 0;
    since =
        b->t_ns - (b->spinner_beat_ns > a->t_ns ? b->spinner_beat_ns : a->t_ns);
    return since > own ? since - own : 0;
}

bool ka_gov_fast_hurts(const struct ka_sample *a, const struct ka_sample *b,
                       int cpu, char *why, size_t size)
{
    int64_t wait = delta(a->loop.wait_ns, b->loop.wait_ns);
    int64_t other = foreign_ns(a, b);
    int64_t starved = starved_ns(a, b);
    int64_t win = b->t_ns - a->t_ns;
    if (wait >= KA_LOOP_WAIT_NS) {
        snprintf(why, size,
                 "the loop waited %.2f ms for CPU %d in %.1f ms: another "
                 "task took it",
                 ms(wait), cpu, ms(win));
        return true;
    }
    if (other >= KA_FOREIGN_NS) {
        snprintf(why, size,
                 "other tasks ran %.2f ms on CPU %d in %.1f ms: a neighbour "
                 "wants the loop's CPU",
                 ms(other), cpu, ms(win));
        return true;
    }
    if (starved >= KA_FOREIGN_NS) {
        snprintf(why, size,
                 "the spinner has not run for %.2f ms of the last %.1f "
                 "beyond the loop's own time: another task holds CPU %d",
                 ms(starved), ms(win), cpu);
        return true;
    }
    return false;
}

/* ticks (of /proc/stat) in ns */
static int64_t tick_ns(uint64_t t, long ticks_per_s)
{
    return (int64_t)(t * (1000000000ULL / (uint64_t)ticks_per_s));
}

bool ka_gov_slow_hurts(const struct ka_sample *a, const struct ka_sample *b,
                       int cpu, long ticks_per_s, char *why, size_t size)
{
    int64_t win = b->t_ns - a->t_ns;
    int64_t wait = delta(a->loop.wait_ns, b->loop.wait_ns);
    int64_t other = foreign_ns(a, b);
    if (win <= 0)
        return false;
    if (wait * 100 >= win) {
        snprintf(why, size,
                 "the loop waited %.1f ms for CPU %d in %.0f ms: other tasks "
                 "take it",
                 ms(wait), cpu, ms(win));
        return true;
    }
    if (other * 20 >= win) {
        snprintf(why, size,
                 "other tasks ran %.1f ms on CPU %d in %.0f ms: a neighbour "
                 "wants the loop's CPU",
                 ms(other), cpu, ms(win));
        return true;
    }
    if (a->has_stat && b->has_stat && b->cpu_steal >= a->cpu_steal) {
        int64_t st = tick_ns(b->cpu_steal - a->cpu_steal, ticks_per_s);
        if (st * 20 >= win) {
            snprintf(why, size,
                     "the hypervisor stole %.0f ms of CPU %d in %.0f ms: "
                     "spinning there takes the host's time",
                     ms(st), cpu, ms(win));
            return true;
        }
    }
    return false;
}

bool ka_gov_slow_quiet(const struct ka_sample *a, const struct ka_sample *b,
                       int cpu, long ticks_per_s, char *why, size_t size)
{
    int64_t win = b->t_ns - a->t_ns, psi = 0, steal, busy, own;
    uint64_t all;
    if (win <= 0 || !a->has_stat || !b->has_stat) {
        snprintf(why, size, "no /proc/stat to judge by");
        return false;
    }
    if (b->loop.run_ns < 0 || b->spinner.run_ns < 0) {
        snprintf(why, size, "no schedstat: spinning could not be watched");
        return false;
    }
    if (a->has_psi && b->has_psi && b->psi_some_us >= a->psi_some_us)
        psi = (int64_t)(b->psi_some_us - a->psi_some_us) * 1000;
    all = b->all > a->all ? b->all - a->all : 1;
    steal = b->steal >= a->steal ? (int64_t)(b->steal - a->steal) : 0;
    busy = b->cpu_busy >= a->cpu_busy
               ? tick_ns(b->cpu_busy - a->cpu_busy, ticks_per_s)
               : 0;
    own = delta(a->proc_cpu_ns, b->proc_cpu_ns);
    busy = busy > own ? busy - own : 0;
    snprintf(why, size,
             "CPU pressure %.1f %%, steal %.1f %%, CPU %d busy %.1f %% beyond "
             "this process over %.0f ms",
             100.0 * (double)psi / (double)win,
             100.0 * (double)steal / (double)all, cpu,
             100.0 * (double)busy / (double)win, ms(win));
    return psi * 50 < win && (uint64_t)steal * 50 < all && busy * 20 < win;
}

/* Appends a change to k's log (the first KEEP_AWAKE_LOG_MAX kept, all
 * counted) and sets what runs now. */
static void note(struct keep_awake *k, int64_t t, enum keep_awake_mode to,
                 const char *why)
{
    if (k->n_log < KEEP_AWAKE_LOG_MAX) {
        struct keep_awake_change *c = &k->log[k->n_log++];
        c->t_ns = t;
        c->to = to;
        snprintf(c->why, sizeof c->why, "%s", why);
    }
    k->n_changes++;
    __atomic_store_n(&k->now, (int)to, __ATOMIC_RELEASE);
}

/* The monitor's state between windows. */
struct gov {
    struct ka_sampler smp;
    struct ka_sample fast, slow; /* the starts of the two windows */
    int64_t hold_ns, hold_until_ns;
};

/* Stops spinning: the spinner sleeps, the loop gets its CPU set back. */
static void stop_spin(struct keep_awake *k, struct gov *g, int64_t t,
                      const char *why)
{
    ka_set_flag(k, &k->want, 0);
    ka_unpin_tid(k, k->loop_tid);
    note(k, t, KEEP_AWAKE_OFF, why);
    g->hold_ns = g->hold_ns ? g->hold_ns * 2 : KA_HOLD_MIN_NS;
    if (g->hold_ns > KA_HOLD_MAX_NS)
        g->hold_ns = KA_HOLD_MAX_NS;
    g->hold_until_ns = t + g->hold_ns;
}

/* Spins again: the loop pinned to the home CPU, the spinner woken. */
static void start_spin(struct keep_awake *k, int64_t t, const char *why)
{
    if (ka_pin_tid(k->loop_tid, k->home_cpu) != 0)
        return;
    ka_set_flag(k, &k->want, 1);
    note(k, t, KEEP_AWAKE_SPIN, why);
}

static bool flag(const int *f)
{
    return __atomic_load_n(f, __ATOMIC_ACQUIRE) != 0;
}

/* Waits ns on k->cv (woken early by stop, or any flag change). */
static void nap(struct keep_awake *k, int64_t ns)
{
    int64_t until = clock_mono_ns() + ns;
    struct timespec ts = {(time_t)(until / 1000000000),
                          (long)(until % 1000000000)};
    pthread_mutex_lock(&k->mu);
    if (!flag(&k->stop))
        pthread_cond_timedwait(&k->cv, &k->mu, &ts);
    pthread_mutex_unlock(&k->mu);
}

/* Sleeps while there is nothing to serve; true when it slept (the
 * windows start again then). */
static bool wait_busy(struct keep_awake *k)
{
    bool slept = false;
    pthread_mutex_lock(&k->mu);
    while (!flag(&k->busy) && !flag(&k->stop)) {
        pthread_cond_wait(&k->cv, &k->mu);
        slept = true;
    }
    pthread_mutex_unlock(&k->mu);
    return slept;
}

/* One fast window ended at b: stop when it hurt; every KA_SLOW_NS the
 * slow rules, which may also start spinning again. */
static void judge(struct keep_awake *k, struct gov *g, struct ka_sample *b)
{
    char why[240];
    bool spinning = flag(&k->want);
    if (spinning &&
        ka_gov_fast_hurts(&g->fast, b, k->home_cpu, why, sizeof why)) {
        stop_spin(k, g, b->t_ns, why);
        spinning = false;
    }
    g->fast = *b;
    if (b->t_ns - g->slow.t_ns < KA_SLOW_NS)
        return;
    ka_sampler_read(&g->smp, k->home_cpu, true, b);
    if (spinning && ka_gov_slow_hurts(&g->slow, b, k->home_cpu,
                                      g->smp.ticks_per_s, why, sizeof why))
        stop_spin(k, g, b->t_ns, why);
    else if (!spinning && b->t_ns >= g->hold_until_ns &&
             ka_gov_slow_quiet(&g->slow, b, k->home_cpu, g->smp.ticks_per_s,
                               why, sizeof why))
        start_spin(k, b->t_ns, why);
    g->slow = *b;
    g->fast = *b;
}

static void *monitor(void *arg)
{
    struct keep_awake *k = arg;
    struct gov g;
    memset(&g, 0, sizeof g);
    while (!__atomic_load_n(&k->spinner_tid, __ATOMIC_ACQUIRE) &&
           !flag(&k->stop))
        sched_yield(); /* the spinner says its id as it starts */
    ka_sampler_open(&g.smp, k->loop_tid, k->spinner_tid, k->stat_path,
                    k->pressure_path);
    g.hold_until_ns = clock_mono_ns() + (flag(&k->want) ? 0 : KA_HOLD_MIN_NS);
    ka_sampler_read(&g.smp, k->home_cpu, true, &g.slow);
    g.fast = g.slow;
    while (!flag(&k->stop)) {
        struct ka_sample b;
        if (wait_busy(k)) { /* the windows start when the work does */
            ka_sampler_read(&g.smp, k->home_cpu, true, &g.slow);
            g.fast = g.slow;
            continue;
        }
        /* while off only the slow window has anything to judge */
        nap(k, flag(&k->want) ? KA_FAST_NS
                              : g.slow.t_ns + KA_SLOW_NS - clock_mono_ns());
        if (flag(&k->stop))
            break;
        ka_sampler_read(&g.smp, k->home_cpu, false, &b);
        b.spinner_beat_ns = __atomic_load_n(&k->spin_beat_ns, __ATOMIC_ACQUIRE);
        judge(k, &g, &b);
    }
    ka_sampler_close(&g.smp);
    return NULL;
}

int ka_monitor_start(struct keep_awake *k)
{
    pthread_attr_t attr;
    cpu_set_t set;
    int e;
    if (pthread_attr_init(&attr) != 0)
        return -1;
    /* anywhere but the loop's CPU: its own time there would count as a
     * neighbour's */
    CPU_ZERO(&set);
    memcpy(&set, k->old_mask,
           sizeof set < sizeof k->old_mask ? sizeof set : sizeof k->old_mask);
    if (CPU_COUNT(&set) > 1) {
        CPU_CLR(k->home_cpu, &set);
        pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    }
    pthread_attr_setstacksize(&attr, 128 * 1024);
    e = pthread_create(&k->monitor, &attr, monitor, k);
    pthread_attr_destroy(&attr);
    if (e)
        return -1;
    k->has_monitor = true;
    return 0;
}
