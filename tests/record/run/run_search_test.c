/* run_search_test: the adaptive search's probe sequences against servers
 * whose limit is known: a probe passes when its load is at most the
 * limit. Each row: mode, start, limit, probes allowed, the loads it must
 * probe. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "run_search.h"

struct row {
    enum sweep_mode mode;
    double start, limit;
    unsigned stages;
    const char *want; /* the probed loads, comma-separated */
};

static const struct row rows[] = {
    /* double 1, 2, 4, 8 (breaks), bisect 6 (breaks), 5 (breaks): 4..5 */
    {SWEEP_CONCURRENCY, 1, 4, 10, "1,2,4,8,6,5"},
    {SWEEP_CONCURRENCY, 1, 5, 10, "1,2,4,8,6,5"},
    {SWEEP_CONCURRENCY, 1, 7, 10, "1,2,4,8,6,7"},
    /* the start breaks: halve until one passes, then bisect */
    {SWEEP_CONCURRENCY, 16, 3, 10, "16,8,4,2,3"},
    /* nothing passes: down to 1 and stop */
    {SWEEP_CONCURRENCY, 4, 0, 10, "4,2,1"},
    /* the budget stops it */
    {SWEEP_CONCURRENCY, 1, 1000, 4, "1,2,4,8"},
    /* rate: within 10% of the heaviest pass */
    {SWEEP_RATE, 1, 3, 10, "1,2,4,3,3.5,3.25"},
    {SWEEP_RATE, 10, 12.5, 10, "10,20,15,12.5,13.75"},
};

int main(void)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct row *w = &rows[i];
        struct cli_search cfg = {w->mode, w->start, 100, 0.99, w->stages, 0.1};
        struct run_search s;
        char got[256] = "";
        double load = w->start, next;
        size_t len = 0;
        run_search_init(&s, &cfg);
        for (int guard = 0; guard < 100; guard++) {
            len += (size_t)snprintf(got + len, sizeof got - len, "%s%g",
                                    len ? "," : "", load);
            if (!run_search_next(&s, load, load <= w->limit, &next))
                break;
            load = next;
        }
        CHECK_MSG(strcmp(got, w->want) == 0, "row %zu: probed %s, want %s", i,
                  got, w->want);
    }
    return CHECK_DONE();
}
