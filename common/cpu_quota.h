/* cpu_quota: is this process inside a CPU quota? A cgroup with cpu.max
 * set (v2: "QUOTA PERIOD"; v1: cpu.cfs_quota_us >= 0), on the process's own
 * cgroup or any parent, as a Kubernetes pod with a CPU limit has. Under a
 * quota every thread's time counts, an idle-priority spinner's too: it
 * would spend the quota and get the recorder itself throttled. */
#ifndef TT_CPU_QUOTA_H
#define TT_CPU_QUOTA_H

#include <stdbool.h>
#include <stdint.h>

struct cpu_quota {
    bool limited;      /* a quota was found */
    int64_t quota_us;  /* CPU time allowed per period */
    int64_t period_us; /* the period */
    char file[640];    /* the file that set it */
};

/* Looks for a CPU quota of the cgroup named in proc_cgroup (the contents
 * of /proc/self/cgroup; NULL reads it) under the cgroup file system at
 * root (NULL: /sys/fs/cgroup), walking from the process's cgroup up to
 * the root of each hierarchy (v2, then the v1 cpu controller). Fills
 * *out: limited false when there is none or nothing is readable (no
 * cgroup file system is no quota). Can't fail. */
void cpu_quota_find(const char *proc_cgroup, const char *root,
                    struct cpu_quota *out);

#endif
