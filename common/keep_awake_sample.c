/* keep_awake_sample: schedstat, /proc/stat and CPU pressure, parsed. */
#define _GNU_SOURCE /* pread */
#include "keep_awake_sample.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

/* /proc/stat on a machine of a few hundred CPUs fits; a bigger one is
 * read up to this (the CPU looked at may then be missing: no stat). */
#define STAT_MAX 65536

int ka_parse_schedstat(const char *text, struct ka_thread_stat *out)
{
    long long run, wait;
    if (sscanf(text, "%lld %lld", &run, &wait) != 2 || run < 0 || wait < 0)
        return -1;
    out->run_ns = run;
    out->wait_ns = wait;
    return 0;
}

/* Reads "user nice system idle iowait irq softirq steal" after a cpu
 * label into busy/steal/all. Returns 0 or -1. */
static int cpu_fields(const char *p, uint64_t *busy, uint64_t *steal,
                      uint64_t *all)
{
    unsigned long long v[8] = {0};
    int n = sscanf(p, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
    if (n < 4)
        return -1;
    *busy = v[0] + v[1] + v[2] + v[5] + v[6];
    *steal = v[7];
    *all = *busy + v[3] + v[4] + v[7];
    return 0;
}

int ka_parse_stat(const char *text, int cpu, struct ka_sample *out)
{
    struct ka_sample s = *out;
    bool total = false, one = false;
    const char *p = text;
    char label[24];
    uint64_t busy;
    snprintf(label, sizeof label, "cpu%d ", cpu);
    s.procs_running = -1;
    while (p && *p) {
        if (strncmp(p, "cpu ", 4) == 0)
            total = cpu_fields(p + 4, &busy, &s.steal, &s.all) == 0;
        else if (cpu >= 0 && strncmp(p, label, strlen(label)) == 0)
            one = cpu_fields(p + strlen(label), &s.cpu_busy, &s.cpu_steal,
                             &s.cpu_all) == 0;
        else if (strncmp(p, "procs_running ", 14) == 0)
            s.procs_running = (int)strtol(p + 14, NULL, 10);
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!total || (cpu >= 0 && !one))
        return -1;
    s.has_stat = true;
    *out = s;
    return 0;
}

int ka_parse_pressure(const char *text, struct ka_sample *out)
{
    const char *some = strstr(text, "some ");
    const char *avg, *tot;
    if (!some)
        return -1;
    avg = strstr(some, "avg10=");
    tot = strstr(some, "total=");
    if (!avg || !tot)
        return -1;
    out->psi_some_avg10 = strtod(avg + 6, NULL);
    out->psi_some_us = strtoull(tot + 6, NULL, 10);
    out->has_psi = true;
    return 0;
}

static int open_ro(const char *path)
{
    return open(path, O_RDONLY | O_CLOEXEC);
}

void ka_sampler_open(struct ka_sampler *s, int loop_tid, int spinner_tid,
                     const char *stat, const char *pressure)
{
    char path[64];
    s->loop_fd = s->spinner_fd = -1;
    if (loop_tid > 0) {
        snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", loop_tid);
        s->loop_fd = open_ro(path);
    }
    if (spinner_tid > 0) {
        snprintf(path, sizeof path, "/proc/self/task/%d/schedstat",
                 spinner_tid);
        s->spinner_fd = open_ro(path);
    }
    s->stat_fd = open_ro(stat ? stat : "/proc/stat");
    s->psi_fd = open_ro(pressure ? pressure : "/proc/pressure/cpu");
    s->ticks_per_s = sysconf(_SC_CLK_TCK);
    if (s->ticks_per_s <= 0)
        s->ticks_per_s = 100;
}

/* The whole file at fd into buf (NUL-terminated). Returns its length, or
 * -1. */
static ssize_t slurp(int fd, char *buf, size_t size)
{
    size_t len = 0;
    ssize_t n;
    if (fd < 0)
        return -1;
    while (len + 1 < size &&
           (n = pread(fd, buf + len, size - 1 - len, (off_t)len)) > 0)
        len += (size_t)n;
    buf[len] = '\0';
    return len ? (ssize_t)len : -1;
}

static void thread_stat(int fd, struct ka_thread_stat *out)
{
    char buf[128];
    out->run_ns = out->wait_ns = -1;
    if (slurp(fd, buf, sizeof buf) > 0)
        ka_parse_schedstat(buf, out);
}

void ka_sampler_read(struct ka_sampler *s, int cpu, bool full,
                     struct ka_sample *out)
{
    struct timespec ts;
    memset(out, 0, sizeof *out);
    out->procs_running = -1;
    out->t_ns = clock_mono_ns();
    thread_stat(s->loop_fd, &out->loop);
    thread_stat(s->spinner_fd, &out->spinner);
    out->proc_cpu_ns = -1;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0)
        out->proc_cpu_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    if (!full)
        return;
    {
        char *buf = malloc(STAT_MAX);
        if (buf && slurp(s->stat_fd, buf, STAT_MAX) > 0)
            ka_parse_stat(buf, cpu, out);
        if (buf && slurp(s->psi_fd, buf, 512) > 0)
            ka_parse_pressure(buf, out);
        free(buf);
    }
}

void ka_sampler_close(struct ka_sampler *s)
{
    int *fds[] = {&s->loop_fd, &s->spinner_fd, &s->stat_fd, &s->psi_fd};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++) {
        if (*fds[i] >= 0)
            close(*fds[i]);
        *fds[i] = -1;
    }
}
