/* duration_test: the one duration grammar of the four programs, as a
 * table: text, the unit of a bare number, the unit wanted, and the value or
 * a refusal. */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "duration.h"

#define NONE DURATION_NONE
#define NS DURATION_NS
#define US DURATION_US
#define MS DURATION_MS
#define S DURATION_S
#define MIN DURATION_M
#define H DURATION_H

static const struct {
    const char *text;
    enum duration_unit bare, out;
    int rc;      /* 0 or -1 */
    double want; /* when rc is 0 */
} cases[] = {
    /* every unit, into every flag's unit */
    {"500us", S, S, 0, 0.0005},
    {"120ms", S, S, 0, 0.12},
    {"2s", S, S, 0, 2},
    {"1.5m", S, S, 0, 90},
    {"2h", S, S, 0, 7200},
    {"100ns", S, S, 0, 1e-7},
    {"1m", NONE, MS, 0, 60000},
    {"250us", NONE, MS, 0, 0.25},
    {"1.5s", NONE, MS, 0, 1500},
    {"7ns", NONE, MS, 0, 7e-6},
    {"80ms", NONE, NS, 0, 80e6},
    {"1h", NONE, NS, 0, 3.6e12},
    {"0.5us", NONE, NS, 0, 500},
    /* a unit-scaled value is the double nearest the exact one */
    {"300ms", S, S, 0, 0.3},
    {"100ms", S, S, 0, 0.1},
    {"1ms", NONE, S, 0, 0.001},
    /* bare numbers: the flag's unit, or refused (0 is 0 anywhere) */
    {"1.5", S, S, 0, 1.5},
    {"600", S, S, 0, 600},
    {"120", S, MS, 0, 120000},
    {"200", NONE, NS, -1, 0},
    {"1", NONE, MS, -1, 0},
    {"0", NONE, NS, 0, 0},
    {"0.0", NONE, MS, 0, 0},
    {"0ms", NONE, MS, 0, 0},
    /* number spellings */
    {".5s", NONE, MS, 0, 500},
    {"1.s", NONE, MS, 0, 1000},
    {"1e3ms", NONE, S, 0, 1},
    {"2E-3s", NONE, MS, 0, 2},
    {"007ms", NONE, MS, 0, 7},
    /* refused: signs, spaces, other units and spellings */
    {"-5ms", NONE, MS, -1, 0},
    {"+1ms", NONE, MS, -1, 0},
    {"-1", S, S, -1, 0},
    {" 1ms", NONE, MS, -1, 0},
    {"1ms ", NONE, MS, -1, 0},
    {"1 ms", NONE, MS, -1, 0},
    {"1MS", NONE, MS, -1, 0},
    {"1sec", NONE, MS, -1, 0},
    {"1min", NONE, MS, -1, 0},
    {"5x", S, S, -1, 0},
    {"200xs", NONE, NS, -1, 0},
    {"ms", NONE, MS, -1, 0},
    {"", S, S, -1, 0},
    {".", S, S, -1, 0},
    {".ms", NONE, MS, -1, 0},
    {"1e", S, S, -1, 0},
    {"1ems", NONE, MS, -1, 0},
    {"0x10s", NONE, MS, -1, 0},
    {"nan", S, S, -1, 0},
    {"inf", S, S, -1, 0},
    {"infs", NONE, S, -1, 0},
    {"1e999s", NONE, S, -1, 0},
    {"1,5s", NONE, S, -1, 0},
    {"soon", S, S, -1, 0},
};

int main(void)
{
    double v;

    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        int rc;
        v = -42;
        rc = duration_parse(cases[i].text, cases[i].bare, cases[i].out, &v);
        CHECK_MSG(rc == cases[i].rc, "'%s': rc %d, want %d", cases[i].text, rc,
                  cases[i].rc);
        if (rc == 0 && cases[i].rc == 0)
            CHECK_MSG(v == cases[i].want, "'%s': %.17g, want %.17g",
                      cases[i].text, v, cases[i].want);
        if (rc != 0)
            CHECK_MSG(v == -42, "'%s': *out written on failure", cases[i].text);
    }
    /* NULL, and units that are not units */
    CHECK(duration_parse(NULL, S, S, &v) == -1);
    CHECK(duration_parse("1s", S, NONE, &v) == -1);
    CHECK(duration_parse("1s", (enum duration_unit)99, S, &v) == -1);
    CHECK(duration_parse("1s", S, (enum duration_unit)99, &v) == -1);
    return CHECK_DONE();
}
