/* cli_shard_test: --shard and --start-at values, the concurrency shares
 * (they sum to the whole), and the scheduler variables, table-driven. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli_shard.h"

static const struct {
    const char *v;
    int ok;
    uint32_t i, n;
} shards[] = {
    {"0/2", 1, 0, 2}, {"3/4", 1, 3, 4}, {"0/1", 1, 0, 1},  {"none", 1, 0, 1},
    {"2/2", 0, 0, 0}, {"1/0", 0, 0, 0}, {"-1/2", 0, 0, 0}, {"1/", 0, 0, 0},
    {"/2", 0, 0, 0},  {"1", 0, 0, 0},   {"1/2x", 0, 0, 0}, {"0/4097", 0, 0, 0},
};

static const struct {
    const char *v;
    int ok;
    int64_t ns; /* for absolute times */
} starts[] = {
    {"2026-12-01T17:00:00Z", 1, 1796144400000000000LL},
    {"2026-12-01T17:00:00.5Z", 1, 1796144400500000000LL},
    {"2026-12-01T17:00:00.123456789Z", 1, 1796144400123456789LL},
    {"2026-12-01T17:00:00+00:00", 1, 1796144400000000000LL},
    {"2026-12-01T17:00:00", 0, 0},
    {"2026-12-01T17:00:00.1234567891Z", 0, 0},
    {"2026-13-01T17:00:00Z", 0, 0},
    {"2026-12-01 17:00Z", 0, 0},
    {"tomorrow", 0, 0},
    /* no such day, a leap second, the epoch (0 is "none"), a year ahead */
    {"2026-02-30T00:00:00Z", 0, 0},
    {"2026-04-31T00:00:00Z", 0, 0},
    {"2027-02-29T00:00:00Z", 0, 0},
    {"2024-02-29T12:00:00Z", 1, 1709208000000000000LL},
    {"2026-12-01T17:00:60Z", 0, 0},
    {"1970-01-01T00:00:00Z", 0, 0},
    {"1999-12-31T23:59:59Z", 0, 0},
    {"2099-01-01T00:00:00Z", 0, 0},
    {"+2000000s", 0, 0},
    {"+10s", 1, -1},
    {"+x", 0, 0},
};

int main(void)
{
    char err[256];
    for (size_t k = 0; k < sizeof shards / sizeof shards[0]; k++) {
        struct cli_shard sh;
        int rc;
        memset(&sh, 0, sizeof sh);
        rc = cli_shard_parse(shards[k].v, &sh, err, sizeof err);
        CHECK_MSG((rc == 0) == shards[k].ok, "%s", shards[k].v);
        if (rc == 0 && shards[k].ok)
            CHECK_MSG(sh.index == shards[k].i && sh.count == shards[k].n,
                      "%s: %u/%u", shards[k].v, sh.index, sh.count);
        if (rc)
            CHECK(strstr(err, "--shard") != NULL);
    }
    for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++) {
        struct cli_shard sh;
        int rc;
        memset(&sh, 0, sizeof sh);
        rc = cli_start_at_parse(starts[k].v, &sh, err, sizeof err);
        CHECK_MSG((rc == 0) == starts[k].ok, "%s", starts[k].v);
        if (rc == 0 && starts[k].ns > 0)
            CHECK_MSG(sh.start_at_ns == starts[k].ns, "%s: %lld", starts[k].v,
                      (long long)sh.start_at_ns);
        if (rc == 0 && starts[k].ns < 0)
            CHECK(sh.start_at_relative && sh.start_at_ns > 0);
    }
    /* shares of c over n shards sum to c and differ by at most one */
    for (uint64_t c = 1; c < 40; c++)
        for (uint32_t n = 1; n <= c && n < 9; n++) {
            uint64_t sum = 0, lo = c, hi = 0;
            for (uint32_t i = 0; i < n; i++) {
                struct cli_shard sh = {.index = i, .count = n};
                uint64_t s = cli_shard_share(&sh, c);
                sum += s;
                lo = s < lo ? s : lo;
                hi = s > hi ? s : hi;
            }
            CHECK_MSG(sum == c && hi - lo <= 1, "c %llu n %u",
                      (unsigned long long)c, n);
        }
    /* the variables: Kubernetes first, then Slurm; the run id derived
     * from seed and start is the same for the same pair */
    {
        struct cli_shard a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        unsetenv("TT_RUN_ID");
        setenv("JOB_COMPLETION_INDEX", "1", 1);
        setenv("TT_SHARDS", "3", 1);
        setenv("SLURM_PROCID", "0", 1);
        setenv("SLURM_NTASKS", "2", 1);
        a.start_at_ns = b.start_at_ns = 5;
        CHECK(cli_shard_resolve(&a, 7, err, sizeof err) == 0);
        CHECK(a.index == 1 && a.count == 3 &&
              strcmp(a.from, "JOB_COMPLETION_INDEX/TT_SHARDS") == 0);
        unsetenv("JOB_COMPLETION_INDEX");
        CHECK(cli_shard_resolve(&b, 7, err, sizeof err) == 0);
        CHECK(b.index == 0 && b.count == 2 &&
              strcmp(b.from, "SLURM_PROCID/SLURM_NTASKS") == 0);
        unsetenv("SLURM_PROCID");
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        a.start_at_ns = b.start_at_ns = 5;
        CHECK(cli_shard_resolve(&a, 7, err, sizeof err) == 0);
        CHECK(cli_shard_resolve(&b, 7, err, sizeof err) == 0);
        CHECK(strcmp(cli_shard_run_id(&a), cli_shard_run_id(&b)) == 0);
        b.start_at_ns = 6;
        CHECK(cli_shard_resolve(&b, 7, err, sizeof err) == 0);
        CHECK(strcmp(cli_shard_run_id(&a), cli_shard_run_id(&b)) != 0);
        setenv("JOB_COMPLETION_INDEX", "1", 1);
        unsetenv("TT_SHARDS");
        memset(&a, 0, sizeof a);
        CHECK(cli_shard_resolve(&a, 7, err, sizeof err) == -1);
        CHECK(strstr(err, "TT_SHARDS") != NULL);
        setenv("TT_SHARDS", "1x", 1);
        CHECK(cli_shard_resolve(&a, 7, err, sizeof err) == -1);
        unsetenv("JOB_COMPLETION_INDEX");
        unsetenv("TT_SHARDS");
        /* without --start-at the run id is the process's own: two
         * processes of the same seed do not share it */
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        a.count = b.count = 2;
        a.given = b.given = true;
        CHECK(cli_shard_resolve(&a, 7, err, sizeof err) == 0);
        CHECK(cli_shard_resolve(&b, 7, err, sizeof err) == 0);
        CHECK(strcmp(a.run_id_from, "own") == 0);
        CHECK(strcmp(cli_shard_run_id(&a), cli_shard_run_id(&b)) != 0);
        /* Slurm's missing count is not a Kubernetes Job's */
        setenv("SLURM_PROCID", "0", 1);
        unsetenv("SLURM_NTASKS");
        memset(&a, 0, sizeof a);
        CHECK(cli_shard_resolve(&a, 7, err, sizeof err) == -1);
        CHECK(strstr(err, "SLURM_NTASKS") && !strstr(err, "Job"));
        unsetenv("SLURM_PROCID");
    }
    /* the lanes: every slot is one shard's; a shard's slots are in
     * proportion to its share of c; first/next/part agree */
    for (uint64_t c = 0; c < 14; c++)
        for (uint32_t n = 1; n < 6; n++) {
            uint64_t total = 97, owner[97], got = 0;
            if (c && c < n)
                continue;
            for (uint64_t k = 0; k < total; k++)
                owner[k] = UINT64_MAX;
            for (uint32_t i = 0; i < n; i++) {
                struct cli_shard sh = {.index = i, .count = n};
                uint64_t kept = 0;
                for (uint64_t k = cli_shard_first(&sh, c); k < total;
                     k = cli_shard_next(&sh, c, k)) {
                    CHECK_MSG(owner[k] == UINT64_MAX, "c %llu n %u k %llu",
                              (unsigned long long)c, n, (unsigned long long)k);
                    owner[k] = i;
                    kept++;
                }
                CHECK_MSG(kept == cli_shard_part(&sh, c, total),
                          "c %llu n %u i %u: %llu vs part %llu",
                          (unsigned long long)c, n, i, (unsigned long long)kept,
                          (unsigned long long)cli_shard_part(&sh, c, total));
                if (c) /* lanes j = k % c with j % n == i */
                    for (uint64_t k = 0; k < total; k++)
                        CHECK((owner[k] == i) == ((k % c) % n == i));
                else
                    for (uint64_t k = 0; k < total; k++)
                        CHECK((owner[k] == i) == (k % n == i));
                got += kept;
            }
            CHECK_MSG(got == total, "c %llu n %u", (unsigned long long)c, n);
        }
    {
        /* -c 3 over 2 shards: 2/3 and 1/3 of the requests */
        struct cli_shard s0 = {.index = 0, .count = 2},
                         s1 = {.index = 1, .count = 2};
        CHECK(cli_shard_part(&s0, 3, 30) == 20 &&
              cli_shard_part(&s1, 3, 30) == 10);
        CHECK(cli_shard_part(&s0, 4, 30) == 15); /* c % N == 0: k % N */
    }
    return CHECK_DONE();
}
