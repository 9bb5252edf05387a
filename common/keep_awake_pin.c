/* keep_awake_pin: pinning by thread id and the parkable spinner. */
#define _GNU_SOURCE /* CPU_SET, SCHED_IDLE, gettid, pthread affinity */
#include "keep_awake_pin.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"

/* Pause instructions between two looks at the flags: ~1-4 us. */
#define SPIN_PAUSES 64

int ka_gettid(void)
{
    return (int)syscall(SYS_gettid);
}

int ka_pin_tid(int tid, int cpu)
{
    cpu_set_t one;
    if (cpu < 0 || cpu >= CPU_SETSIZE)
        return EINVAL;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(tid, sizeof one, &one) == 0 ? 0 : errno;
}

int ka_unpin_tid(const struct keep_awake *k, int tid)
{
    cpu_set_t old;
    CPU_ZERO(&old);
    memcpy(&old, k->old_mask,
           sizeof old < sizeof k->old_mask ? sizeof old : sizeof k->old_mask);
    return sched_setaffinity(tid, sizeof old, &old) == 0 ? 0 : errno;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static bool flag(const int *f)
{
    return __atomic_load_n(f, __ATOMIC_ACQUIRE) != 0;
}

/* The spinner: lowest priority (a neighbour of the same cgroup keeps its
 * whole share), spinning while wanted and busy, asleep on k->cv
 * otherwise; each turn it notes the time in k->spin_beat_ns (0 asleep).
 * sched_yield between spins lets a tool that serializes threads (valgrind)
 * switch to the loop. */
static void *spin(void *arg)
{
    struct keep_awake *k = arg;
    struct sched_param sp;
    memset(&sp, 0, sizeof sp);
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
    __atomic_store_n(&k->spinner_tid, ka_gettid(), __ATOMIC_RELEASE);
    while (!flag(&k->stop)) {
        if (!flag(&k->want) || !flag(&k->busy)) {
            __atomic_store_n(&k->spin_beat_ns, 0, __ATOMIC_RELEASE);
            pthread_mutex_lock(&k->mu);
            while ((!flag(&k->want) || !flag(&k->busy)) && !flag(&k->stop))
                pthread_cond_wait(&k->cv, &k->mu);
            pthread_mutex_unlock(&k->mu);
            continue;
        }
        __atomic_store_n(&k->spin_beat_ns, clock_mono_ns(), __ATOMIC_RELEASE);
        for (int i = 0; i < SPIN_PAUSES; i++)
            cpu_relax();
        sched_yield();
    }
    return NULL;
}

int ka_spinner_start(struct keep_awake *k)
{
    pthread_attr_t attr;
    cpu_set_t one;
    int e;
    if (pthread_attr_init(&attr) != 0) {
        snprintf(k->why, sizeof k->why, "no thread attributes");
        return -1;
    }
    CPU_ZERO(&one);
    CPU_SET(k->home_cpu, &one);
    pthread_attr_setaffinity_np(&attr, sizeof one, &one);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    e = pthread_create(&k->spinner, &attr, spin, k);
    pthread_attr_destroy(&attr);
    if (e) {
        snprintf(k->why, sizeof k->why, "cannot start the spinner: %s",
                 strerror(e));
        return -1;
    }
    k->has_spinner = true;
    return 0;
}

void ka_set_flag(struct keep_awake *k, int *f, int v)
{
    if (__atomic_load_n(f, __ATOMIC_ACQUIRE) == v)
        return;
    pthread_mutex_lock(&k->mu);
    __atomic_store_n(f, v, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&k->cv);
    pthread_mutex_unlock(&k->mu);
}
