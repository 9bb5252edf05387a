/* cpu_quota: finds a cgroup CPU quota (cpu.max, cpu.cfs_quota_us) over
 * the process. */
#include "cpu_quota.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CGROUP_ROOT "/sys/fs/cgroup"
#define PROC_CGROUP_MAX 8192

/* Reads up to size-1 bytes of path into buf, NUL-terminated. Returns the
 * length, or -1 when it cannot be read. */
static long read_small(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n;
    if (!f)
        return -1;
    n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return (long)n;
}

/* Parses a decimal integer at s (leading spaces skipped); returns 0 and
 * *v, or -1. *end is left after it. */
static int parse_i64(const char *s, int64_t *v, const char **end)
{
    char *e;
    long long x;
    errno = 0;
    x = strtoll(s, &e, 10);
    if (errno || e == s)
        return -1;
    *v = x;
    *end = e;
    return 0;
}

/* cgroup v2: dir/cpu.max is "max PERIOD" (none) or "QUOTA PERIOD". */
static bool v2_quota(const char *dir, struct cpu_quota *out)
{
    char path[640], text[128];
    const char *p;
    int64_t q, per;
    snprintf(path, sizeof path, "%s/cpu.max", dir);
    if (read_small(path, text, sizeof text) <= 0 ||
        strncmp(text, "max", 3) == 0)
        return false;
    if (parse_i64(text, &q, &p) || parse_i64(p, &per, &p) || q <= 0)
        return false;
    out->limited = true;
    out->quota_us = q;
    out->period_us = per;
    snprintf(out->file, sizeof out->file, "%s", path);
    return true;
}

/* cgroup v1: dir/cpu.cfs_quota_us is -1 (none) or the quota, with
 * cpu.cfs_period_us beside it. */
static bool v1_quota(const char *dir, struct cpu_quota *out)
{
    char path[640], text[64];
    const char *p;
    int64_t q, per = 100000;
    snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir);
    if (read_small(path, text, sizeof text) <= 0 || parse_i64(text, &q, &p) ||
        q <= 0)
        return false;
    out->limited = true;
    out->quota_us = q;
    snprintf(out->file, sizeof out->file, "%s", path);
    snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
    if (read_small(path, text, sizeof text) > 0 && parse_i64(text, &per, &p))
        per = 100000;
    out->period_us = per;
    return true;
}

/* Walks from mount/cg up to mount itself, asking each directory with
 * check. Returns true at the first quota found. */
static bool walk_up(const char *mount, const char *cg,
                    bool (*check)(const char *, struct cpu_quota *),
                    struct cpu_quota *out)
{
    char dir[600];
    size_t len;
    int n = snprintf(dir, sizeof dir, "%s%s", mount, cg[0] == '/' ? cg : "/");
    if (n < 0 || (size_t)n >= sizeof dir)
        return false;
    len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') /* "ROOT/" for the cgroup "/" */
        dir[--len] = '\0';
    for (;;) {
        char *slash;
        if (check(dir, out))
            return true;
        if (strlen(dir) <= strlen(mount))
            return false;
        slash = strrchr(dir, '/');
        if (!slash)
            return false;
        *slash = '\0';
        if (strlen(dir) < strlen(mount))
            return false;
    }
}

/* Whether the comma-separated controller list ctl names "cpu". */
static bool names_cpu(const char *ctl, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && ctl[j] != ',')
            j++;
        if (j - i == 3 && memcmp(ctl + i, "cpu", 3) == 0)
            return true;
        i = j + 1;
    }
    return false;
}

void cpu_quota_find(const char *proc_cgroup, const char *root,
                    struct cpu_quota *out)
{
    char *own = NULL;
    const char *line;
    memset(out, 0, sizeof *out);
    if (!root)
        root = CGROUP_ROOT;
    if (!proc_cgroup) {
        own = malloc(PROC_CGROUP_MAX);
        if (!own || read_small("/proc/self/cgroup", own, PROC_CGROUP_MAX) < 0) {
            free(own);
            return;
        }
        proc_cgroup = own;
    }
    /* lines "ID:CONTROLLERS:PATH"; v2's is "0::PATH" */
    for (line = proc_cgroup; line && *line && !out->limited;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        const char *c1 = memchr(line, ':', len);
        const char *c2 =
            c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line)) : NULL;
        char cg[512], mount[600];
        if (c2 && (size_t)(line + len - (c2 + 1)) < sizeof cg) {
            size_t cglen = (size_t)(line + len - (c2 + 1));
            memcpy(cg, c2 + 1, cglen);
            cg[cglen] = '\0';
            if (c2 == c1 + 1) { /* v2: the unified tree, or its hybrid mount */
                snprintf(mount, sizeof mount, "%s", root);
                if (!walk_up(mount, cg, v2_quota, out)) {
                    snprintf(mount, sizeof mount, "%s/unified", root);
                    walk_up(mount, cg, v2_quota, out);
                }
            } else if (names_cpu(c1 + 1, (size_t)(c2 - c1 - 1))) {
                snprintf(mount, sizeof mount, "%s/%.*s", root,
                         (int)(c2 - c1 - 1), c1 + 1);
                if (!walk_up(mount, cg, v1_quota, out)) {
                    snprintf(mount, sizeof mount, "%s/cpu", root);
                    walk_up(mount, cg, v1_quota, out);
                }
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    free(own);
}
