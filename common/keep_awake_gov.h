/* keep_awake_gov: auto's decisions, from what is measured during the run
 * (keep_awake_sample.h), and the monitor thread that applies them.
 *
 * The harm a spinning, pinned loop can do: a task that wants the loop's
 * CPU makes the loop wait there (it cannot move to a free CPU), and a
 * spinner outside the neighbour's cgroup, or on a vCPU the hypervisor
 * takes back (steal), takes time the neighbour or the host would have.
 * So, while spinning, every KA_FAST_NS it stops when, over that window,
 *   - the loop waited KA_LOOP_WAIT_NS or more runnable for its CPU, or
 *   - other tasks ran on the loop's CPU KA_FOREIGN_NS or more (what the
 *     spinner waited, less what the loop itself ran), or
 *   - the spinner has not run for KA_FOREIGN_NS of the window beyond the
 *     loop's own time (its beat: a wait reaches schedstat only once the
 *     waiter runs, and an idle-priority spinner beside a CPU-bound task
 *     runs a few times a second);
 * and every KA_SLOW_NS when, over that window, the loop waited 1 % or
 * other tasks took 5 % of its CPU, or the hypervisor stole 5 % of it.
 * While off it starts again, every KA_SLOW_NS once its hold is over,
 * only when the window was quiet: CPU pressure (some task waited for a
 * CPU) under 2 %, steal under 2 %, and the loop's CPU busy under 5 %
 * beyond this process's own time, and only with the threads' schedstat
 * readable (without it, auto never spins). Each stop doubles the hold (1 s to
 * 64 s), so a neighbour that comes and goes costs a few changes, not a
 * flapping loop. At the start (no window yet) it spins when the CPU
 * pressure of the last 10 s (avg10) is under 5 % and fewer tasks are
 * runnable than CPUs are allowed; the first window corrects a wrong guess
 * within KA_FAST_NS. */
#ifndef TT_KEEP_AWAKE_GOV_H
#define TT_KEEP_AWAKE_GOV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keep_awake.h"
#include "keep_awake_sample.h"

#define KA_FAST_NS ((int64_t)10000000)        /* 10 ms */
#define KA_SLOW_NS ((int64_t)500000000)       /* 500 ms */
#define KA_LOOP_WAIT_NS ((int64_t)500000)     /* 0.5 ms per fast window */
#define KA_FOREIGN_NS ((int64_t)2000000)      /* 2 ms per fast window */
#define KA_HOLD_MIN_NS ((int64_t)1000000000)  /* 1 s */
#define KA_HOLD_MAX_NS ((int64_t)64000000000) /* 64 s */

/* The start: whether to spin, from one look (now) with n_cpus allowed.
 * why gets the numbers either way. */
bool ka_gov_first(const struct ka_sample *now, int n_cpus, char *why,
                  size_t size);

/* While spinning, over the window a -> b (only the threads' times):
 * whether it hurts; why says how. */
bool ka_gov_fast_hurts(const struct ka_sample *a, const struct ka_sample *b,
                       int cpu, char *why, size_t size);

/* While spinning, over the slow window a -> b (full samples): whether it
 * hurts; why says how. */
bool ka_gov_slow_hurts(const struct ka_sample *a, const struct ka_sample *b,
                       int cpu, long ticks_per_s, char *why, size_t size);

/* While off, over the slow window a -> b (full samples): whether it was
 * quiet enough to spin again; why says what was measured either way. */
bool ka_gov_slow_quiet(const struct ka_sample *a, const struct ka_sample *b,
                       int cpu, long ticks_per_s, char *why, size_t size);

/* Starts auto's monitor thread on k (spinner running, k->want the first
 * decision), on a CPU other than k->home_cpu when there is one. Returns
 * 0, or -1 (auto then stays as it started, and k->chose says so). */
int ka_monitor_start(struct keep_awake *k);

#endif
