/* run_outcome: the run's counts. */
#include "run_outcome.h"

#include <stdio.h>
#include <string.h>

void run_outcome_attempt(struct run_outcome *o, uint64_t chunks, uint64_t bytes)
{
    o->requests++;
    o->chunks += chunks;
    o->bytes += bytes;
}

/* Counts a failure of kind. */
static void count_kind(struct run_outcome *o, const char *kind)
{
    size_t i;
    for (i = 0; i < o->n_kinds; i++) {
        if (strcmp(o->kinds[i].kind, kind) == 0) {
            o->kinds[i].count++;
            return;
        }
    }
    if (o->n_kinds == RUN_MAX_KINDS)
        return;
    snprintf(o->kinds[o->n_kinds].kind, sizeof o->kinds[0].kind, "%s", kind);
    o->kinds[o->n_kinds++].count = 1;
}

void run_outcome_request(struct run_outcome *o, const char *kind, bool warmup,
                         bool retry_exhausted)
{
    if (warmup)
        o->warmup++;
    if (!kind[0]) {
        o->ok++;
        return;
    }
    if (retry_exhausted)
        o->retry_exhausted++;
    o->failed++;
    count_kind(o, kind);
}
