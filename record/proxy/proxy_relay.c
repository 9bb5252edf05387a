/* proxy_relay: a fixed ring of chunk end positions in the output. */
#include "proxy_relay.h"

#include <stdlib.h>
#include <string.h>

void proxy_relay_init(struct proxy_relay *r)
{
    memset(r, 0, sizeof *r);
}

bool proxy_relay_full(const struct proxy_relay *r)
{
    return r->n == PROXY_RELAY_MAX_MARKS;
}

int proxy_relay_push(struct proxy_relay *r, size_t queued, int64_t recv_ns)
{
    struct proxy_relay_mark *k;
    if (!r->m) {
        r->m = malloc(PROXY_RELAY_MAX_MARKS * sizeof *r->m);
        if (!r->m)
            return -1;
    }
    if (proxy_relay_full(r))
        return -1;
    k = &r->m[(r->head + r->n) & (PROXY_RELAY_MAX_MARKS - 1)];
    k->end = r->drained + queued;
    k->recv_ns = recv_ns;
    k->chunk = r->next_chunk++;
    r->n++;
    return 0;
}

void proxy_relay_drained(struct proxy_relay *r, size_t n)
{
    r->drained += n;
}

bool proxy_relay_pop(struct proxy_relay *r, struct proxy_relay_mark *out)
{
    if (r->n == 0 || r->m[r->head].end > r->drained)
        return false;
    *out = r->m[r->head];
    r->head = (r->head + 1) & (PROXY_RELAY_MAX_MARKS - 1);
    r->n--;
    return true;
}

void proxy_relay_free(struct proxy_relay *r)
{
    free(r->m);
    proxy_relay_init(r);
}
