/* compare_waterfall: which part of TTFT changed between two runs. */
#include <math.h>

#include "compare.h"

/* The mean of metric m on a group, NAN without values. */
static double mean_of(const struct group *g, enum metric_id m)
{
    return g->sum[m].n ? g->sum[m].mean : NAN;
}

/* new - base of metric m's mean. */
static double delta(const struct compare_pair *p, enum metric_id m)
{
    return mean_of(p->new_, m) - mean_of(p->base, m);
}

/* A change this small beside the whole is "unchanged": under 1 ms, or
 * under a tenth of the change of TTFT. */
static bool small(double d, double whole)
{
    return fabs(d) < 1.0 || fabs(d) < fabs(whole) / 10;
}

bool compare_waterfall_line(struct buf *b, const struct compare_pair *p)
{
    double ttft, before, after, gw, net, cli, srv;
    /* the parts add up to TTFT per request, so their means do too: the
     * mean over the requests with a waterfall */
    if (!p->base->sum[M_WF_GATEWAY].n || !p->new_->sum[M_WF_GATEWAY].n)
        return false;
    gw = delta(p, M_WF_GATEWAY);
    net = delta(p, M_WF_NETWORK);
    cli = delta(p, M_WF_CLIENT);
    after = delta(p, M_WF_AFTER_HEADERS);
    srv = p->base->sum[M_WF_SERVER].n && p->new_->sum[M_WF_SERVER].n
              ? delta(p, M_WF_SERVER)
              : NAN;
    /* before the headers: client + network + gateway + the server's share
     * there; a header's server time lies there whole */
    before = cli + net + gw + (isnan(srv) ? 0 : srv);
    ttft = before + after;
    buf_printf(b, "TTFT mean %+.1f ms: ", ttft);
    if (small(after, ttft) && !small(before, ttft))
        buf_printf(b, "all before the response headers");
    else if (small(before, ttft) && !small(after, ttft))
        buf_printf(b, "all after the response headers");
    else
        buf_printf(b,
                   "before the response headers %+.1f ms, after them "
                   "%+.1f ms",
                   before, after);
    buf_printf(b,
               " (client %+.1f, network %+.1f, gateway/unaccounted %+.1f, "
               "headers -> first token %+.1f ms); ",
               cli, net, gw, after);
    if (isnan(srv))
        buf_puts(b, "server processing not reported on both sides");
    else if (small(srv, ttft))
        buf_printf(b, "server processing unchanged (%+.1f ms)", srv);
    else
        buf_printf(b, "server processing %+.1f ms", srv);
    return true;
}
