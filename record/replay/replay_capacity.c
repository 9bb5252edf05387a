/* replay_capacity: decode slots, first come first served, and the batch
 * cost of TPOT. */
#include "replay_capacity.h"

#include <errno.h>
#include <stdlib.h>

int replay_capacity_init(struct replay_capacity *c, size_t n)
{
    c->n = 0;
    c->free_ns = NULL;
    if (n == 0)
        return 0;
    c->free_ns = calloc(n, sizeof *c->free_ns);
    if (!c->free_ns)
        return ENOMEM;
    c->n = n;
    return 0;
}

void replay_capacity_free(struct replay_capacity *c)
{
    if (!c)
        return;
    free(c->free_ns);
    c->free_ns = NULL;
    c->n = 0;
}

void replay_capacity_admit(struct replay_capacity *c, int64_t arrival_ns,
                           int64_t prefill_ns, int64_t tokens, int64_t tpot_ns,
                           int64_t batch_tpot_ns, struct replay_admit *out)
{
    size_t i, best = 0, others = 0;
    int64_t start;
    out->queue_ns = 0;
    out->tpot_ns = tpot_ns;
    out->decoding = 1;
    if (c->n == 0)
        return;
    /* the slot that frees first; arrivals come in order, so taking it
     * keeps the queue first come, first served */
    for (i = 1; i < c->n; i++)
        if (c->free_ns[i] < c->free_ns[best])
            best = i;
    start = c->free_ns[best] > arrival_ns ? c->free_ns[best] : arrival_ns;
    for (i = 0; i < c->n; i++)
        if (i != best && c->free_ns[i] > start)
            others++;
    out->queue_ns = start - arrival_ns;
    out->tpot_ns = tpot_ns + batch_tpot_ns * (int64_t)others;
    out->decoding = others + 1;
    c->free_ns[best] =
        start + prefill_ns + (tokens > 1 ? (tokens - 1) * out->tpot_ns : 0);
}
