/* fd_limit_test: a lowered soft open-file limit is raised to the hard one
 * and both are read back; a refused raise says why. */
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>

#include "check.h"
#include "fd_limit.h"

int main(void)
{
    struct rlimit rl, low;
    uint64_t soft, hard;
    char err[160];
    CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
    /* lower the soft limit (a shell's `ulimit -Sn 64`), then raise it */
    low = rl;
    low.rlim_cur =
        rl.rlim_max == RLIM_INFINITY || rl.rlim_max > 64 ? 64 : rl.rlim_max;
    CHECK(setrlimit(RLIMIT_NOFILE, &low) == 0);
    CHECK(fd_limit_raise(&soft, &hard, err, sizeof err) == 0);
    CHECK_MSG(err[0] == '\0', "unexpected message: %s", err);
    CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
    CHECK_MSG(soft == (uint64_t)rl.rlim_cur && soft > 64,
              "soft %llu, limit now %llu", (unsigned long long)soft,
              (unsigned long long)rl.rlim_cur);
    CHECK(rl.rlim_max == RLIM_INFINITY
              ? hard == UINT64_MAX
              : hard == (uint64_t)rl.rlim_max && soft == hard);
    /* already at the hard limit: nothing to do, still 0 */
    CHECK(fd_limit_raise(&soft, &hard, NULL, 0) == 0);
    return CHECK_DONE();
}
