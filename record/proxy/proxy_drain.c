/* proxy_drain: a fixed ring of chunk end positions in the output. */
#include "proxy_drain.h"

#include <stdlib.h>
#include <string.h>

void proxy_drain_init(struct proxy_drain *r)
{
    memset(r, 0, sizeof *r);
}

bool proxy_drain_full(const struct proxy_drain *r)
{
    return r->n == PROXY_DRAIN_MAX_MARKS;
}

int proxy_drain_push(struct proxy_drain *r, size_t queued, int64_t recv_ns)
{
    struct proxy_drain_mark *k;
    if (!r->m) {
        r->m = malloc(PROXY_DRAIN_MAX_MARKS * sizeof *r->m);
        if (!r->m)
            return -1;
    }
    if (proxy_drain_full(r))
        return -1;
    k = &r->m[(r->head + r->n) & (PROXY_DRAIN_MAX_MARKS - 1)];
    k->end = r->drained + queued;
    k->recv_ns = recv_ns;
    k->chunk = r->next_chunk++;
    r->n++;
    return 0;
}

void proxy_drain_drained(struct proxy_drain *r, size_t n)
{
    r->drained += n;
}

bool proxy_drain_pop(struct proxy_drain *r, struct proxy_drain_mark *out)
{
    if (r->n == 0 || r->m[r->head].end > r->drained)
        return false;
    *out = r->m[r->head];
    r->head = (r->head + 1) & (PROXY_DRAIN_MAX_MARKS - 1);
    r->n--;
    return true;
}

void proxy_drain_free(struct proxy_drain *r)
{
    free(r->m);
    proxy_drain_init(r);
}
