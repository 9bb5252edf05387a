/* keep_awake_test: the CPU quota search over fake cgroup trees (v2 at the
 * process's cgroup or a parent, v1's cpu controller, none), and the
 * keep-awake modes: pinned to a CPU with a second thread while it spins,
 * the caller's CPU set and a single thread back after stop, auto off on a
 * busy machine, off by itself under a quota with the reason. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "cpu_quota.h"
#include "keep_awake.h"

static char root[] = "/tmp/tt_keep_awake.XXXXXX";

/* Writes text to root/rel, making its folders. */
static void put(const char *rel, const char *text)
{
    char path[1024], *p;
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        mkdir(path, 0700);
        *p = '/';
    }
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static const struct {
    const char *proc; /* /proc/self/cgroup */
    const char *rel;  /* a file to write ("" none) */
    const char *text; /* its contents */
    int limited;
    long long quota, period;
    const char *file; /* the file named, relative to root */
} cases[] = {
    /* v2: unlimited at every level */
    {"0::/a/b\n", "v2none/a/b/cpu.max", "max 100000\n", 0, 0, 0, ""},
    /* v2: the quota on the process's own cgroup */
    {"0::/pod/c1\n", "pod/c1/cpu.max", "50000 100000\n", 1, 50000, 100000,
     "pod/c1/cpu.max"},
    /* v2: on a parent (a pod's limit), the child says max */
    {"0::/kp/ctr\n", "kp/cpu.max", "200000 100000\n", 1, 200000, 100000,
     "kp/cpu.max"},
    {"0::/kp/ctr\n", "kp/ctr/cpu.max", "max 100000\n", 1, 200000, 100000,
     "kp/cpu.max"},
    /* v2 in a cgroup namespace: the root of the mount */
    {"0::/\n", "cpu.max", "25000 50000\n", 1, 25000, 50000, "cpu.max"},
    /* v1: cpu,cpuacct, -1 means none */
    {"4:memory:/x\n3:cpu,cpuacct:/j/k\n", "cpu,cpuacct/j/k/cpu.cfs_quota_us",
     "-1\n", 0, 0, 0, ""},
    {"4:memory:/x\n3:cpu,cpuacct:/j/k\n", "cpu,cpuacct/j/cpu.cfs_quota_us",
     "150000\n", 1, 150000, 100000, "cpu,cpuacct/j/cpu.cfs_quota_us"},
    /* nothing readable: no quota */
    {"0::/nowhere\n", "", "", 0, 0, 0, ""},
    {"garbage without colons", "", "", 0, 0, 0, ""},
    {"", "", "", 0, 0, 0, ""},
};

static void quota_cases(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct cpu_quota q;
        char want[1024];
        /* the root's own cpu.max only for the namespace case */
        if (i == 4)
            put("cpu.max", "25000 50000\n");
        else
            put("cpu.max", "max 100000\n");
        if (cases[i].rel[0])
            put(cases[i].rel, cases[i].text);
        cpu_quota_find(cases[i].proc, root, &q);
        CHECK_MSG(q.limited == (cases[i].limited != 0), "case %zu", i);
        if (!cases[i].limited)
            continue;
        CHECK_MSG(q.quota_us == cases[i].quota, "case %zu: %lld", i,
                  (long long)q.quota_us);
        CHECK_MSG(q.period_us == cases[i].period, "case %zu: %lld", i,
                  (long long)q.period_us);
        snprintf(want, sizeof want, "%s/%s", root, cases[i].file);
        CHECK_MSG(strcmp(q.file, want) == 0, "case %zu: %s", i, q.file);
    }
}

/* Threads of this process now. */
static int threads(void)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* The number of threads once it is want, or after 2 s what it is then:
 * pthread_join returns when the thread has cleared its tid, which is
 * before the kernel removes it from /proc/self/task, so a count taken at
 * once after keep_awake_stop can still see it. */
static int threads_settled(int want)
{
    struct timespec ms = {0, 1000000};
    int n = threads();
    for (int i = 0; i < 2000 && n != want; i++) {
        nanosleep(&ms, NULL);
        n = threads();
    }
    return n;
}

static int allowed(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return -1;
    return CPU_COUNT(&set);
}

static void modes(void)
{
    struct keep_awake k;
    char line[1024], stat[1100], quiet[1100], busy[1100];
    struct keep_awake_env env = {"0::/\n", root, stat, quiet, false};
    struct keep_awake_env loaded = {"0::/\n", root, stat, busy, false};
    int before = allowed(), t0 = threads();

    put("cpu.max", "max 100000\n");
    snprintf(stat, sizeof stat, "%s/stat", root);
    snprintf(quiet, sizeof quiet, "%s/pressure.quiet", root);
    snprintf(busy, sizeof busy, "%s/pressure.busy", root);
    put("stat", "cpu  10 0 10 1000 0 0 0 0 0 0\ncpu0 5 0 5 500 0 0 0 0 0 0\n"
                "cpu1 5 0 5 500 0 0 0 0 0 0\nprocs_running 1\n");
    put("pressure.quiet", "some avg10=0.00 avg60=0.00 avg300=0.00 total=5\n"
                          "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
    put("pressure.busy", "some avg10=40.00 avg60=9.00 avg300=9.00 total=9\n");
    keep_awake_start(&k, KEEP_AWAKE_SPIN, -1, &env);
    CHECK_MSG(k.mode == KEEP_AWAKE_SPIN, "%s", k.why);
    CHECK(k.cpu >= 0);
    CHECK(allowed() == 1);
    CHECK(threads_settled(t0 + 1) == t0 + 1);
    CHECK(!keep_awake_polls(&k));
    CHECK(before < 2 || keep_awake_other_cpu(&k) != k.cpu);
    CHECK(strstr(keep_awake_describe(&k, line, sizeof line), "spin on CPU"));
    keep_awake_stop(&k);
    CHECK(threads_settled(t0) == t0);
    CHECK(allowed() == before);
    keep_awake_stop(&k); /* idempotent */

    keep_awake_start(&k, KEEP_AWAKE_POLL, -1, &env);
    CHECK(k.mode == KEEP_AWAKE_POLL && keep_awake_polls(&k));
    CHECK(allowed() == 1 && threads_settled(t0) == t0);
    keep_awake_stop(&k);
    CHECK(allowed() == before);

    /* a CPU outside the set: off, with the reason */
    keep_awake_start(&k, KEEP_AWAKE_SPIN, 4095, &env);
    CHECK(k.mode == KEEP_AWAKE_OFF && strstr(k.why, "4095"));
    CHECK(threads_settled(t0) == t0 && allowed() == before);

    /* auto: spin on a quiet machine, with its monitor; off (not pinned,
     * the monitor watching) under CPU pressure, saying so; an explicit
     * spin pins anyway */
    keep_awake_start(&k, KEEP_AWAKE_AUTO, -1, &env);
    CHECK(k.asked == KEEP_AWAKE_AUTO && k.mode == KEEP_AWAKE_SPIN);
    CHECK_MSG(strstr(k.chose, "quiet: CPU pressure 0.0 %") != NULL, "%s",
              k.chose);
    CHECK(threads_settled(t0 + 2) == t0 + 2);
    keep_awake_stop(&k);
    CHECK(threads_settled(t0) == t0 && allowed() == before);
    keep_awake_start(&k, KEEP_AWAKE_AUTO, -1, &loaded);
    CHECK(k.mode == KEEP_AWAKE_OFF && k.cpu == -1 && allowed() == before);
    CHECK(keep_awake_now(&k) == KEEP_AWAKE_OFF);
    CHECK_MSG(strstr(k.why, "CPU pressure 40.0 %") != NULL, "%s", k.why);
    keep_awake_stop(&k);
    CHECK(threads_settled(t0) == t0);
    keep_awake_start(&k, KEEP_AWAKE_SPIN, -1, &loaded);
    CHECK(k.mode == KEEP_AWAKE_SPIN);
    keep_awake_stop(&k);

    /* under a quota: off, and why names it */
    put("cpu.max", "50000 100000\n");
    keep_awake_start(&k, KEEP_AWAKE_SPIN, -1, &env);
    CHECK(k.mode == KEEP_AWAKE_OFF && k.quota.limited);
    CHECK_MSG(strstr(k.why, "CPU quota 50000 us per 100000 us") != NULL, "%s",
              k.why);
    CHECK(threads_settled(t0) == t0 && allowed() == before);
    CHECK(strncmp(keep_awake_describe(&k, line, sizeof line), "off: CPU quota",
                  14) == 0);
    keep_awake_stop(&k);

    /* asked off: no look at the quota, nothing started */
    keep_awake_start(&k, KEEP_AWAKE_OFF, -1, &env);
    CHECK(k.mode == KEEP_AWAKE_OFF && !k.quota.limited && k.why[0] == '\0');
    keep_awake_stop(&k);

    {
        enum keep_awake_mode m;
        CHECK(keep_awake_parse_mode("poll", &m) == 0 && m == KEEP_AWAKE_POLL);
        CHECK(keep_awake_parse_mode("spin", &m) == 0 && m == KEEP_AWAKE_SPIN);
        CHECK(keep_awake_parse_mode("off", &m) == 0 && m == KEEP_AWAKE_OFF);
        CHECK(keep_awake_parse_mode("auto", &m) == 0 && m == KEEP_AWAKE_AUTO);
        CHECK(strcmp(keep_awake_mode_name(KEEP_AWAKE_AUTO), "auto") == 0);
        CHECK(keep_awake_parse_mode("Spin", &m) == -1);
        CHECK(keep_awake_parse_mode("", &m) == -1);
    }
}

int main(void)
{
    char cmd[1100];
    CHECK(mkdtemp(root) != NULL);
    quota_cases();
    modes();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
