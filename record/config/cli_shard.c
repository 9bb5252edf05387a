/* cli_shard: --shard, --start-at, --run-id, --procs and the scheduler
 * variables behind them. */
#include "cli_shard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "duration.h"
#include "opt.h"
#include "rng.h"

/* Parses decimal digits [s, end) (end NULL: to the NUL) into *out, at
 * most max. Returns 0 or -1. */
static int parse_u32(const char *s, const char *end, uint32_t max,
                     uint32_t *out)
{
    uint64_t v = 0;
    const char *p = s;
    if (!end)
        end = s + strlen(s);
    if (p == end)
        return -1;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > max)
            return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int cli_shard_parse(const char *v, struct cli_shard *sh, char *err,
                    size_t errlen)
{
    const char *slash = strchr(v, '/');
    uint32_t i, n;
    sh->given = true;
    if (strcmp(v, "none") == 0) {
        sh->index = 0;
        sh->count = 1;
        sh->from = NULL;
        return 0;
    }
    if (!slash || parse_u32(v, slash, CLI_SHARD_MAX, &i) ||
        parse_u32(slash + 1, NULL, CLI_SHARD_MAX, &n) || n < 1 || i >= n)
        return opt_error(err, errlen,
                         "--shard: '%.32s' is not I/N with 0 <= I < N <= %d "
                         "(0/4: the first of four), or none",
                         v, CLI_SHARD_MAX);
    sh->index = i;
    sh->count = n;
    sh->from = n > 1 ? "--shard" : NULL;
    return 0;
}

/* Parses exactly n digits at *p into *out and moves *p past them. */
static int digits(const char **p, int n, int *out)
{
    int v = 0;
    for (int k = 0; k < n; k++) {
        char c = (*p)[k];
        if (c < '0' || c > '9')
            return -1;
        v = v * 10 + (c - '0');
    }
    *p += n;
    *out = v;
    return 0;
}

/* --start-at's bounds: 2000-01-01T00:00:00Z, and 1e6 s from now. */
#define START_AT_MIN_NS 946684800000000000LL
#define START_AT_MAX_AHEAD_S 1000000LL

/* "2026-12-01T17:00:00[.fff]Z" (or +00:00) as CLOCK_REALTIME ns. Returns
 * 0, -1 (not that form) or -2 (no such day or time). */
static int parse_iso_utc(const char *s, int64_t *out)
{
    struct tm tm;
    const char *p = s;
    int y, mo, d, h, mi, sec;
    int64_t frac = 0, scale = 100000000;
    time_t t;
    memset(&tm, 0, sizeof tm);
    if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) || *p++ != '-' ||
        digits(&p, 2, &d) || (*p != 'T' && *p != ' '))
        return -1;
    p++;
    if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi) || *p++ != ':' ||
        digits(&p, 2, &sec))
        return -1;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return -1;
        for (; *p >= '0' && *p <= '9'; p++) {
            if (scale == 0)
                return -1; /* more than 9 digits */
            frac += (int64_t)(*p - '0') * scale;
            scale /= 10;
        }
    }
    if (strcmp(p, "Z") != 0 && strcmp(p, "+00:00") != 0)
        return -1;
    if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
        sec > 60)
        return -1;
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = sec;
    t = timegm(&tm);
    if (t == (time_t)-1)
        return -1;
    /* a day the month does not have (2026-02-30), a leap second: timegm
     * moves them on; refused instead */
    {
        struct tm back;
        if (!gmtime_r(&t, &back) || back.tm_year != tm.tm_year ||
            back.tm_mon != tm.tm_mon || back.tm_mday != d ||
            back.tm_hour != h || back.tm_min != mi || back.tm_sec != sec)
            return -2;
    }
    *out = (int64_t)t * 1000000000LL + frac;
    return 0;
}

int cli_start_at_parse(const char *v, struct cli_shard *sh, char *err,
                       size_t errlen)
{
    double s;
    int64_t at;
    int rc;
    if (v[0] == '+') {
        if (duration_parse(v + 1, DURATION_S, DURATION_S, &s) || s < 0 ||
            s > (double)START_AT_MAX_AHEAD_S)
            return opt_error(err, errlen,
                             "--start-at: '+%.32s' is not a duration from now "
                             "(+10s, +500ms, +2m)",
                             v + 1);
        sh->start_at_ns = clock_real_ns() + (int64_t)(s * 1e9);
        sh->start_at_relative = true;
        sh->start_at_rel_s = s;
        return 0;
    }
    rc = parse_iso_utc(v, &at);
    if (rc == -2)
        return opt_error(err, errlen,
                         "--start-at: '%.40s' names no such day or time (a day "
                         "past the month's end, a second of 60)",
                         v);
    if (rc)
        return opt_error(err, errlen,
                         "--start-at: '%.40s' is not a UTC time like "
                         "2026-12-01T17:00:00Z (up to 9 fraction digits) or "
                         "+DURATION from now",
                         v);
    /* 0 means "no --start-at" everywhere: an instant that long past is a
     * mistake anyway */
    if (at < START_AT_MIN_NS)
        return opt_error(err, errlen,
                         "--start-at: '%.40s' is before 2000-01-01T00:00:00Z: "
                         "give the instant the shards start at",
                         v);
    if (at - clock_real_ns() > START_AT_MAX_AHEAD_S * 1000000000LL)
        return opt_error(
            err, errlen,
            "--start-at: '%.40s' is %.1f days from now; at most %lld "
            "s (%.1f days) ahead, as +DURATION",
            v, (double)(at - clock_real_ns()) / 86400e9,
            (long long)START_AT_MAX_AHEAD_S,
            (double)START_AT_MAX_AHEAD_S / 86400);
    sh->start_at_ns = at;
    sh->start_at_relative = false;
    return 0;
}

int cli_run_id_check(const char *v, const char *what, char *err, size_t errlen)
{
    size_t n = strlen(v);
    if (n == 0 || n > CLI_RUN_ID_MAX ||
        strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                  "0123456789._-") != n)
        return opt_error(err, errlen,
                         "%s: a run id is 1 to %d letters, digits, '.', '_' or "
                         "'-'",
                         what, CLI_RUN_ID_MAX);
    return 0;
}

/* Reads I/N from the variables index_var and count_var when index_var is
 * set. Returns 1 when found, 0 when index_var is unset, -1 on bad
 * values (err says which). */
static int from_env(struct cli_shard *sh, const char *index_var,
                    const char *count_var, const char *from, char *err,
                    size_t errlen)
{
    const char *iv = getenv(index_var), *nv = getenv(count_var);
    uint32_t i, n;
    if (!iv || !iv[0])
        return 0;
    if (!nv || !nv[0])
        return opt_error(err, errlen,
                         "$%s is set but $%s is not: set %s to the number of "
                         "shards (%s), or pass --shard I/N or --shard none",
                         index_var, count_var, count_var,
                         strcmp(count_var, "TT_SHARDS") == 0
                             ? "the Job's completions"
                             : "srun sets it with --ntasks");
    if (parse_u32(iv, NULL, CLI_SHARD_MAX, &i) ||
        parse_u32(nv, NULL, CLI_SHARD_MAX, &n) || n < 1 || i >= n)
        return opt_error(err, errlen,
                         "$%s=%.16s and $%s=%.16s are not a shard I of N "
                         "(0 <= I < N <= %d)",
                         index_var, iv, count_var, nv, CLI_SHARD_MAX);
    sh->index = i;
    sh->count = n;
    sh->from = n > 1 ? from : NULL;
    return 1;
}

int cli_shard_resolve(struct cli_shard *sh, uint64_t seed, char *err,
                      size_t errlen)
{
    const char *v;
    int rc = 0;
    if (sh->count == 0)
        sh->count = 1;
    v = getenv("TT_SHARD_FROM"); /* set by a --procs parent */
    if (sh->given && sh->count > 1 && v && strcmp(v, "--procs") == 0)
        sh->from = "--procs";
    if (!sh->given) {
        rc = from_env(sh, "JOB_COMPLETION_INDEX", "TT_SHARDS",
                      "JOB_COMPLETION_INDEX/TT_SHARDS", err, errlen);
        if (rc == 0)
            rc = from_env(sh, "SLURM_PROCID", "SLURM_NTASKS",
                          "SLURM_PROCID/SLURM_NTASKS", err, errlen);
        if (rc < 0)
            return -1;
    }
    if (sh->run_id) {
        sh->run_id_from = "--run-id";
        return 0;
    }
    v = getenv("TT_RUN_ID");
    if (v && v[0]) {
        if (cli_run_id_check(v, "$TT_RUN_ID", err, errlen))
            return -1;
        sh->run_id = v;
        sh->run_id_from = "TT_RUN_ID";
        return 0;
    }
    v = getenv("SLURM_JOB_ID");
    if (sh->from && strncmp(sh->from, "SLURM", 5) == 0 && v && v[0]) {
        const char *step = getenv("SLURM_STEP_ID");
        snprintf(sh->run_id_buf, sizeof sh->run_id_buf, "slurm-%.24s.%.16s", v,
                 step && step[0] ? step : "0");
        if (cli_run_id_check(sh->run_id_buf, "$SLURM_JOB_ID", err, errlen))
            return -1;
        sh->run_id_from = "SLURM_JOB_ID";
        return 0;
    }
    if (!sh->start_at_ns) {
        /* no instant to share: shards started apart must not read as
         * one run, so the id is this process's alone */
        snprintf(sh->run_id_buf, sizeof sh->run_id_buf, "own-%016llx",
                 (unsigned long long)rng_mix(seed ^ (uint64_t)getpid(),
                                             (uint64_t)clock_real_ns()));
        sh->run_id_from = "own";
        return 0;
    }
    cli_shard_derive_run_id(seed, sh->start_at_ns, sh->run_id_buf,
                            sizeof sh->run_id_buf);
    sh->run_id_from = "seed+start";
    return 0;
}

void cli_shard_derive_run_id(uint64_t seed, int64_t start_at_ns, char *out,
                             size_t size)
{
    /* the same on every shard given the same seed and instant */
    snprintf(out, size, "%016llx",
             (unsigned long long)rng_mix(seed ^ 0x7368617264ULL,
                                         (uint64_t)start_at_ns));
}

const char *cli_shard_run_id(const struct cli_shard *sh)
{
    return sh->run_id ? sh->run_id : sh->run_id_buf;
}

uint64_t cli_shard_share(const struct cli_shard *sh, uint64_t c)
{
    uint64_t n = sh->count ? sh->count : 1;
    return c / n + (sh->index < c % n ? 1 : 0);
}

uint64_t cli_shard_first(const struct cli_shard *sh, uint64_t lanes)
{
    uint64_t n = sh->count > 1 ? sh->count : 1, i = n > 1 ? sh->index : 0;
    return lanes && i >= lanes ? UINT64_MAX : i;
}

uint64_t cli_shard_next(const struct cli_shard *sh, uint64_t lanes, uint64_t k)
{
    uint64_t n = sh->count > 1 ? sh->count : 1, i = n > 1 ? sh->index : 0;
    uint64_t j, base, next;
    if (n == 1)
        return k + 1;
    if (!lanes)
        return k + n;
    if (i >= lanes)
        return UINT64_MAX;
    j = k % lanes;
    base = k - j;
    /* the next lane after j that is this shard's, else its first lane of
     * the next round */
    next = j + 1 + (i + n - (j + 1) % n) % n;
    return next < lanes ? base + next : base + lanes + i;
}

uint64_t cli_shard_part(const struct cli_shard *sh, uint64_t lanes, uint64_t n)
{
    uint64_t m = sh->count > 1 ? sh->count : 1, i = m > 1 ? sh->index : 0;
    uint64_t own, rem;
    if (m == 1 || n == UINT64_MAX)
        return n;
    if (!lanes)
        return n > i ? (n - i + m - 1) / m : 0;
    if (i >= lanes)
        return 0;
    own = (lanes - i + m - 1) / m; /* this shard's lanes */
    rem = n % lanes;
    return n / lanes * own + (rem > i ? (rem - i + m - 1) / m : 0);
}

void cli_format_instant(int64_t t_ns, char *out, size_t size)
{
    time_t secs = (time_t)(t_ns / 1000000000LL);
    struct tm tm;
    char day[32];
    if (!gmtime_r(&secs, &tm) ||
        strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm) == 0) {
        snprintf(out, size, "invalid-time");
        return;
    }
    snprintf(out, size, "%s.%09lldZ", day, (long long)(t_ns % 1000000000LL));
}
