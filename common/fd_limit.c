/* fd_limit: raising the open-file soft limit to the hard one. */
#include "fd_limit.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#define FD_LIMIT_INFINITE_AS 1048576

static uint64_t as_u64(rlim_t v)
{
    return v == RLIM_INFINITY ? UINT64_MAX : (uint64_t)v;
}

int fd_limit_raise(uint64_t *soft, uint64_t *hard, char *err, size_t errlen)
{
    struct rlimit rl;
    int rc = 0;
    *soft = *hard = 0;
    if (err && errlen)
        err[0] = '\0';
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return -1;
    if (rl.rlim_cur != RLIM_INFINITY &&
        (rl.rlim_max == RLIM_INFINITY || rl.rlim_cur < rl.rlim_max)) {
        rlim_t want =
            rl.rlim_max == RLIM_INFINITY ? FD_LIMIT_INFINITE_AS : rl.rlim_max;
        if (want > rl.rlim_cur) {
            struct rlimit up = {want, rl.rlim_max};
            if (setrlimit(RLIMIT_NOFILE, &up) != 0) {
                rc = 1;
                if (err && errlen)
                    snprintf(err, errlen,
                             "cannot raise the open-file limit from %llu to "
                             "%llu: %s",
                             (unsigned long long)rl.rlim_cur,
                             (unsigned long long)want, strerror(errno));
            }
            getrlimit(RLIMIT_NOFILE, &rl);
        }
    }
    *soft = as_u64(rl.rlim_cur);
    *hard = as_u64(rl.rlim_max);
    return rc;
}
