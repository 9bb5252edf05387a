/* run_outcome: the run's counts. */
#include "run_outcome.h"

#include <stdio.h>
#include <string.h>

#include "error_kinds.h"
#include "printable.h"

void run_outcome_attempt(struct run_outcome *o, uint64_t chunks, uint64_t bytes)
{
    o->requests++;
    o->chunks += chunks;
    o->bytes += bytes;
}

void run_outcome_sse_mislabelled(struct run_outcome *o,
                                 const char *content_type)
{
    if (o->sse_mislabelled++ == 0)
        printable_copy(o->sse_mislabelled_type, sizeof o->sse_mislabelled_type,
                       content_type ? content_type : "");
}

/* Counts a failure of kind; keeps msg when the kind has none yet. */
static void count_kind(struct run_outcome *o, const char *kind, const char *msg)
{
    struct run_kind_count *k = NULL;
    size_t i;
    for (i = 0; i < o->n_kinds && !k; i++)
        if (strcmp(o->kinds[i].kind, kind) == 0)
            k = &o->kinds[i];
    if (!k) {
        if (o->n_kinds == RUN_MAX_KINDS)
            return;
        k = &o->kinds[o->n_kinds++];
        snprintf(k->kind, sizeof k->kind, "%s", kind);
        k->count = 0;
        k->first[0] = '\0';
    }
    k->count++;
    if (!k->first[0] && msg)
        snprintf(k->first, sizeof k->first, "%s", msg);
}

void run_outcome_request(struct run_outcome *o, const char *kind,
                         const char *msg, bool warmup, bool retry_exhausted)
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
    if (strcmp(kind, ERROR_KIND_INTERRUPTED) == 0) {
        o->stopped++; /* the client's doing: apart from the kinds */
        return;
    }
    count_kind(o, kind, msg);
}
