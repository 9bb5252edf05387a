/* keep_awake_sample: what keep-awake's governor measures, read from the
 * kernel during the run: per thread (the event loop, the spinner) the
 * time it ran and the time it waited runnable for a CPU
 * (/proc/self/task/TID/schedstat, nanoseconds); per CPU the busy and
 * steal time and the runnable tasks (/proc/stat, clock ticks); the time
 * some task waited for a CPU (/proc/pressure/cpu "some", microseconds);
 * and this process's CPU time. Facts only: keep_awake_gov.c decides. */
#ifndef TT_KEEP_AWAKE_SAMPLE_H
#define TT_KEEP_AWAKE_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

/* One thread's schedstat: -1 / -1 when unreadable. */
struct ka_thread_stat {
    int64_t run_ns;  /* time on a CPU */
    int64_t wait_ns; /* time runnable on a run queue, not running */
};

/* One look at the machine. */
struct ka_sample {
    int64_t t_ns;        /* CLOCK_MONOTONIC when taken */
    int64_t proc_cpu_ns; /* this process's CPU time (all threads) */
    struct ka_thread_stat loop, spinner;
    /* the spinner's last turn (CLOCK_MONOTONIC), 0: asleep or unknown. Not
     * the kernel's: the spinner writes it each turn, the monitor copies
     * it; a schedstat wait shows only once the waiter runs again */
    int64_t spinner_beat_ns;
    /* /proc/stat (has_stat false: not read or unreadable) */
    bool has_stat;
    uint64_t cpu_busy, cpu_steal, cpu_all; /* the CPU looked at, ticks */
    uint64_t steal, all;                   /* every CPU, ticks */
    int procs_running;                     /* runnable tasks now, -1 */
    /* /proc/pressure/cpu (has_psi false: absent) */
    bool has_psi;
    uint64_t psi_some_us;  /* total */
    double psi_some_avg10; /* percent over the last 10 s */
};

/* Open files the sampler keeps (pread from 0 regenerates a /proc file). */
struct ka_sampler {
    int loop_fd, spinner_fd, stat_fd, psi_fd; /* -1: none */
    long ticks_per_s;
};

/* Opens the files: the two threads' schedstat (tid <= 0: none), stat and
 * pressure at their paths (NULL: /proc/stat, /proc/pressure/cpu). A file
 * that cannot be opened is left out of every sample. Can't fail. */
void ka_sampler_open(struct ka_sampler *s, int loop_tid, int spinner_tid,
                     const char *stat, const char *pressure);

/* The threads' and the process's times into out; with full, /proc/stat
 * (for CPU cpu) and the pressure file too. */
void ka_sampler_read(struct ka_sampler *s, int cpu, bool full,
                     struct ka_sample *out);

/* Closes the files; idempotent after ka_sampler_open. */
void ka_sampler_close(struct ka_sampler *s);

/* The parsers, for the tests: a schedstat line; /proc/stat's text for
 * CPU cpu; a pressure file's "some" line. Each returns 0, or -1 when the
 * text does not hold what it should (out unchanged then). */
int ka_parse_schedstat(const char *text, struct ka_thread_stat *out);
int ka_parse_stat(const char *text, int cpu, struct ka_sample *out);
int ka_parse_pressure(const char *text, struct ka_sample *out);

#endif
