/* week_test: the UTC calendar of trend periods (analyze/trend/week.c):
 * hand-checked ISO weeks around year ends, then every day from 1901 to
 * 2137 against the C library's strftime %G-W%V and %F. */
#include "week.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"

struct iso_case {
    int64_t y;
    unsigned m, d;
    const char
        *want; /* "%G-W%V-%u", checked with `date -u -d DAY +%G-W%V-%u` */
};

static const struct iso_case iso_cases[] = {
    {1970, 1, 1, "1970-W01-4"},   {2026, 1, 1, "2026-W01-4"},
    {2026, 11, 23, "2026-W48-1"}, {2026, 11, 29, "2026-W48-7"},
    {2026, 11, 30, "2026-W49-1"}, {2026, 12, 31, "2026-W53-4"},
    {2027, 1, 1, "2026-W53-5"},   {2027, 1, 3, "2026-W53-7"},
    {2027, 1, 4, "2027-W01-1"},   {2020, 12, 31, "2020-W53-4"},
    {2021, 1, 3, "2020-W53-7"},   {2024, 12, 30, "2025-W01-1"},
    {2000, 2, 29, "2000-W09-2"},  {1969, 12, 31, "1970-W01-3"},
    {1600, 1, 1, "1599-W52-6"},
};

static void check_table(void)
{
    char got[40];
    for (size_t i = 0; i < sizeof(iso_cases) / sizeof(iso_cases[0]); i++) {
        const struct iso_case *c = &iso_cases[i];
        int64_t days = week_days_from_civil(c->y, c->m, c->d), y;
        unsigned w, wd;
        week_iso_from_days(days, &y, &w, &wd);
        snprintf(got, sizeof(got), "%04" PRId64 "-W%02u-%u", y, w, wd);
        CHECK_MSG(strcmp(got, c->want) == 0,
                  "%04" PRId64 "-%02u-%02u: got %s want %s", c->y, c->m, c->d,
                  got, c->want);
    }
    CHECK(week_days_from_civil(1970, 1, 1) == 0);
    CHECK(week_days_from_civil(2000, 3, 1) == 11017);
    CHECK(week_days_from_civil(1969, 12, 31) == -1);
}

/* Compares every day with glibc's own (independent) implementation. */
static void check_against_libc(void)
{
    int64_t first = week_days_from_civil(1901, 1, 1);
    int64_t last = week_days_from_civil(2137, 12, 31);
    char got[40], want[40];
    int bad = 0;
    for (int64_t days = first; days <= last && bad < 5; days++) {
        time_t t = (time_t)(days * 86400 + 43210);
        struct tm tm;
        int64_t y;
        unsigned a, b;
        gmtime_r(&t, &tm);
        strftime(want, sizeof(want), "%G-W%V %Y-%m-%d %u", &tm);
        week_iso_from_days(days, &y, &a, &b);
        int n = snprintf(got, sizeof(got), "%04" PRId64 "-W%02u ", y, a);
        week_civil_from_days(days, &y, &a, &b);
        snprintf(got + n, sizeof(got) - (size_t)n, "%04" PRId64 "-%02u-%02u %u",
                 y, a, b, (unsigned)(tm.tm_wday == 0 ? 7 : tm.tm_wday));
        if (strcmp(got, want) != 0 || week_days_from_civil(y, a, b) != days) {
            CHECK_MSG(0, "day %" PRId64 ": got %s want %s", days, got, want);
            bad++;
        }
    }
}

static void check_periods(void)
{
    char out[32];
    const int64_t s = 1000000000LL;
    /* 2026-11-29T23:59:59Z (Sunday) and one second later (Monday). */
    int64_t sunday = week_days_from_civil(2026, 11, 29) * 86400 * s + 86399 * s;
    CHECK(strcmp(week_format_period(sunday, true, out, sizeof(out)),
                 "2026-W48") == 0);
    CHECK(strcmp(week_format_period(sunday, false, out, sizeof(out)),
                 "2026-11-29") == 0);
    CHECK(strcmp(week_format_period(sunday + s, true, out, sizeof(out)),
                 "2026-W49") == 0);
    CHECK(strcmp(week_format_period(sunday + s, false, out, sizeof(out)),
                 "2026-11-30") == 0);
    /* Just before the epoch rounds down to 1969-12-31. */
    CHECK(strcmp(week_format_period(-1, false, out, sizeof(out)),
                 "1969-12-31") == 0);
    CHECK(strcmp(week_format_period(0, false, out, sizeof(out)),
                 "1970-01-01") == 0);
    CHECK(week_days_from_real_ns(-1) == -1);
    CHECK(week_days_from_real_ns(86400 * s - 1) == 0);
}

int main(void)
{
    check_table();
    check_against_libc();
    check_periods();
    return CHECK_DONE();
}
