/* clock_test: the UTC file-name stamp of the output names (clock_format_stamp)
 * against known instants and against clock_format_utc's own text. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "clock.h"

static const struct {
    long long ns;
    const char *want;
} cases[] = {
    {0, "19700101-000000"},
    {1796163890LL * 1000000000LL + 123456789, "20261201-222450"},
    {951825599LL * 1000000000LL, "20000229-115959"}, /* leap day */
    {4102444799LL * 1000000000LL, "20991231-235959"},
};

/* The stamp that clock_format_utc's RFC 3339 text spells: its digits,
 * with one '-' where the 'T' is. */
static void stamp_from_utc(long long ns, char *out, size_t size)
{
    char utc[40];
    size_t n = 0;
    clock_format_utc(ns, utc, sizeof utc);
    for (size_t i = 0; utc[i] && n + 1 < size; i++)
        if (utc[i] >= '0' && utc[i] <= '9')
            out[n++] = utc[i];
        else if (utc[i] == 'T')
            out[n++] = '-';
    out[n] = '\0';
}

int main(void)
{
    char got[40], want[40];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        clock_format_stamp(cases[i].ns, got, sizeof got);
        CHECK_MSG(strcmp(got, cases[i].want) == 0, "%lld: got %s, want %s",
                  cases[i].ns, got, cases[i].want);
    }
    /* every hour of a year and a bit agrees with clock_format_utc */
    for (long long s = 1767225600LL; s < 1800000000LL; s += 3607) {
        clock_format_stamp(s * 1000000000LL, got, sizeof got);
        stamp_from_utc(s * 1000000000LL, want, sizeof want);
        CHECK_MSG(strcmp(got, want) == 0, "%lld: got %s, want %s", s, got,
                  want);
    }
    /* a short buffer is cut, still terminated */
    clock_format_stamp(0, got, 9);
    CHECK(strcmp(got, "19700101") == 0);
    return CHECK_DONE();
}
