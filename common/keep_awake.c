/* keep_awake: an idle-priority spinner (or a polling loop) pinned beside
 * the event loop, so its CPU never halts; off inside a CPU quota. */
#define _GNU_SOURCE /* CPU_SET, sched_getcpu, SCHED_IDLE, pthread affinity */
#include "keep_awake.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Pause instructions between two looks at the stop flag: ~1-4 us. */
#define SPIN_PAUSES 64

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

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* The spinner: lowest priority (a CPU-bound neighbour keeps its whole
 * share), then spins until told to stop. sched_yield between spins lets
 * a tool that serializes threads (valgrind) switch to the loop. */
static void *spin(void *arg)
{
    struct keep_awake *k = arg;
    struct sched_param sp;
    memset(&sp, 0, sizeof sp);
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
    while (!__atomic_load_n(&k->stop, __ATOMIC_ACQUIRE)) {
        for (int i = 0; i < SPIN_PAUSES; i++)
            cpu_relax();
        sched_yield();
    }
    return NULL;
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

/* auto: whether other work keeps the CPUs busy: the 1-minute load average
 * at or above the CPUs online (why says so). An unreadable load is not
 * busy. */
static bool machine_busy(struct keep_awake *k, const char *loadavg)
{
    FILE *f = fopen(loadavg ? loadavg : "/proc/loadavg", "r");
    double load = 0;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int got;
    if (!f)
        return false;
    got = fscanf(f, "%lf", &load);
    fclose(f);
    if (got != 1 || ncpu < 1 || load < (double)ncpu)
        return false;
    snprintf(k->why, sizeof k->why,
             "the machine is busy (load %.1f on %ld CPUs): other work keeps "
             "the CPUs out of idle, and a pinned loop could not move away "
             "from it (--keep-awake spin pins anyway)",
             load, ncpu);
    return true;
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

/* Starts the spinner thread on k->cpu. Returns 0 or -1 with why. */
static int start_spinner(struct keep_awake *k)
{
    pthread_attr_t attr;
    cpu_set_t one;
    int e;
    if (pthread_attr_init(&attr) != 0) {
        snprintf(k->why, sizeof k->why, "no thread attributes");
        return -1;
    }
    CPU_ZERO(&one);
    CPU_SET(k->cpu, &one);
    pthread_attr_setaffinity_np(&attr, sizeof one, &one);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    __atomic_store_n(&k->stop, 0, __ATOMIC_RELEASE);
    e = pthread_create(&k->spinner, &attr, spin, k);
    pthread_attr_destroy(&attr);
    if (e) {
        snprintf(k->why, sizeof k->why, "cannot start the spinner: %s",
                 strerror(e));
        return -1;
    }
    k->spinning = true;
    return 0;
}

void keep_awake_start(struct keep_awake *k, enum keep_awake_mode mode, int cpu,
                      const struct keep_awake_env *env)
{
    static const struct keep_awake_env real;
    if (!env)
        env = &real;
    memset(k, 0, sizeof *k);
    k->asked = k->mode = mode;
    k->cpu = -1;
    if (mode == KEEP_AWAKE_OFF)
        return;
    if (under_valgrind()) {
        snprintf(k->why, sizeof k->why,
                 "running under valgrind, which runs one thread at a time");
        k->mode = KEEP_AWAKE_OFF;
        return;
    }
    cpu_quota_find(env->proc_cgroup, env->cgroup_root, &k->quota);
    if (k->quota.limited) {
        snprintf(k->why, sizeof k->why,
                 "CPU quota %lld us per %lld us (%s): a spinner would spend "
                 "it and get the process throttled",
                 (long long)k->quota.quota_us, (long long)k->quota.period_us,
                 k->quota.file);
        k->mode = KEEP_AWAKE_OFF;
        return;
    }
    if (mode == KEEP_AWAKE_AUTO) {
        if (machine_busy(k, env->loadavg)) {
            k->mode = KEEP_AWAKE_OFF;
            return;
        }
        k->mode = mode = KEEP_AWAKE_SPIN;
    }
    if (pin(k, cpu) != 0 ||
        (mode == KEEP_AWAKE_SPIN && start_spinner(k) != 0)) {
        keep_awake_stop(k);
        k->mode = KEEP_AWAKE_OFF;
        k->cpu = -1;
    }
}

int keep_awake_other_cpu(const struct keep_awake *k)
{
    cpu_set_t set;
    int avoid = k->pinned ? k->cpu : sched_getcpu();
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

void keep_awake_stop(struct keep_awake *k)
{
    if (k->spinning) {
        __atomic_store_n(&k->stop, 1, __ATOMIC_RELEASE);
        pthread_join(k->spinner, NULL);
        k->spinning = false;
    }
    if (k->pinned) {
        cpu_set_t old;
        CPU_ZERO(&old);
        memcpy(&old, k->old_mask,
               sizeof old < sizeof k->old_mask ? sizeof old
                                               : sizeof k->old_mask);
        sched_setaffinity(0, sizeof old, &old);
        k->pinned = false;
    }
}

char *keep_awake_describe(const struct keep_awake *k, char *out, size_t size)
{
    if (k->mode != KEEP_AWAKE_OFF)
        snprintf(out, size, "%s on CPU %d", keep_awake_mode_name(k->mode),
                 k->cpu);
    else if (k->asked == KEEP_AWAKE_OFF)
        snprintf(out, size, "off (as asked)");
    else
        snprintf(out, size, "off: %s", k->why);
    return out;
}
