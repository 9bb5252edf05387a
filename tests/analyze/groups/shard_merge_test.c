/* shard_merge_test: shards found among traces by their header options:
 * runs apart by run id, missing and duplicate indexes, the hosts, and the
 * wall span's clock uncertainty (0 on one host, the two largest
 * maxerrors on several, unknown with an unsynchronized clock),
 * table-driven; the run_match comparison (the field named, old traces
 * without it equal), a cut shard and the start skew. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "shard_merge.h"

struct fake {
    const char *run_id, *shard, *host, *sync, *maxerr_us;
    int64_t start_s, end_s; /* real seconds of its measured span */
};

static const struct fake fakes[] = {
    /* run A: 0/3 twice (two hosts), 2/3 on a third: 1 missing */
    {"A", "0/3", "h1", "synchronized", "2000", 0, 10},
    {"A", "0/3", "h2", "synchronized", "5000", 0, 10},
    {"A", "2/3", "h3", "synchronized", "1000", 5, 12},
    /* run B: complete, one host */
    {"B", "1/2", "h1", "unsynchronized", "16000000", 100, 104},
    {"B", "0/2", "h1", "unsynchronized", "16000000", 100, 103},
    /* run C: two hosts, one unsynchronized */
    {"C", "0/2", "h1", "synchronized", "100", 0, 1},
    {"C", "1/2", "h9", "unsynchronized", "16000000", 0, 1},
    /* not a shard */
    {NULL, NULL, "h1", "synchronized", "1", 0, 1},
};
#define N_FAKES (sizeof fakes / sizeof fakes[0])

int main(void)
{
    struct group_set set;
    struct group_by by;
    struct slo slo;
    struct shard_set s;
    struct trace_info *infos = calloc(N_FAKES, sizeof(*infos));
    struct trace_kv *opts = calloc(N_FAKES * 5, sizeof(*opts));
    memset(&by, 0, sizeof by);
    memset(&slo, 0, sizeof slo);
    group_set_init(&set, &by, &slo);
    set.traces = calloc(N_FAKES, sizeof(*set.traces));
    for (size_t i = 0; i < N_FAKES; i++) {
        struct trace_info *t = &infos[i];
        struct trace_kv *o = &opts[5 * i]; /* 4, and room for a fifth */
        size_t n = 0;
        t->index = (unsigned)i;
        t->host = (char *)fakes[i].host;
        t->trace_id = (char *)"00000000";
        t->has_footer = true; /* each ended whole */
        t->mono_zero_ns = 0;
        t->real_zero_ns = 1000000000000000000LL;
        t->measured_start_ns = fakes[i].start_s * 1000000000LL;
        t->measured_end_ns = fakes[i].end_s * 1000000000LL;
        if (fakes[i].run_id) {
            o[n++] = (struct trace_kv){"run_id", fakes[i].run_id};
            o[n++] = (struct trace_kv){"shard", fakes[i].shard};
        }
        o[n++] = (struct trace_kv){"clock_sync", fakes[i].sync};
        o[n++] = (struct trace_kv){"clock_maxerror_us", fakes[i].maxerr_us};
        t->options = o;
        t->n_options = n;
        set.traces[i] = t;
    }
    set.n_traces = N_FAKES;
    CHECK(shard_set_build(&set, &s) == 0);
    CHECK(s.n_runs == 3 && s.n_rows == N_FAKES - 1);
    if (s.n_runs == 3) {
        const struct shard_run *a = &s.runs[0], *b = &s.runs[1],
                               *c = &s.runs[2];
        CHECK(strcmp(a->run_id, "A") == 0 && a->count == 3 && a->n == 3);
        CHECK(a->n_missing == 1 && a->missing[0] == 1);
        CHECK(a->n_duplicate == 1 && s.rows[a->first + 1].duplicate);
        CHECK(a->n_hosts == 3);
        CHECK(fabs(a->wall_uncertainty_ms - 7.0) < 1e-9); /* 5 + 2 ms */
        CHECK(fabs(a->wall_s - 12.0) < 1e-9);             /* 0..12 s */
        CHECK(strcmp(b->run_id, "B") == 0 && b->n_missing == 0 &&
              b->n_duplicate == 0 && b->n_hosts == 1);
        CHECK(b->wall_uncertainty_ms == 0); /* one clock */
        CHECK(s.rows[b->first].index == 0 && s.rows[b->first + 1].index == 1);
        CHECK(c->n_hosts == 2 && isnan(c->wall_uncertainty_ms));
        CHECK(strstr(c->why, "h9") && strstr(c->why, "unsynchronized"));
    }
    /* no run_match anywhere (older recorders): one run each, and the
     * runs of the table are whole or not by their indexes alone */
    CHECK(shard_set_refuse(&s, false) == 0);
    CHECK(s.n_runs == 3 && !shard_run_complete(&s.runs[0]) &&
          shard_run_complete(&s.runs[1]));
    /* a footer-less shard is cut; a --duration end is whole */
    infos[3].has_footer = true;
    infos[3].interrupted = true;
    infos[3].footer_reason = (char *)"duration";
    infos[4].has_footer = false;
    /* shard 1/2 of run B woke 250 ms late for the same instant */
    opts[5 * 3 + 4] = (struct trace_kv){"start_late_us", "250000"};
    infos[3].n_options = 5;
    shard_set_free(&s);
    CHECK(shard_set_build(&set, &s) == 0);
    if (s.n_runs == 3) {
        const struct shard_run *b = &s.runs[1];
        CHECK(b->n_cut == 1 && s.rows[b->first].cut &&
              !s.rows[b->first + 1].cut);
        CHECK(!shard_run_complete(b) && !shard_set_complete(&s));
        CHECK(fabs(b->start_skew_ms - 250.0) < 1e-6);
        CHECK(isnan(s.runs[0].start_skew_ms) == false);
    }
    shard_set_warn(&s);
    shard_set_free(&s);
    {
        struct run_match_diff d;
        CHECK(!run_match_differs(NULL, NULL, &d));
        CHECK(!run_match_differs("seed=7 n=10", "seed=7 n=10", &d));
        CHECK(run_match_differs("seed=7 n=10", "seed=8 n=10", &d) &&
              strcmp(d.field, "seed") == 0 && strcmp(d.a, "7") == 0 &&
              strcmp(d.b, "8") == 0);
        CHECK(run_match_differs("seed=7 n=10", "seed=7 n=10 shards=3", &d) &&
              strcmp(d.field, "shards") == 0 && strcmp(d.a, "(absent)") == 0 &&
              strcmp(d.b, "3") == 0);
        CHECK(run_match_differs("seed=7 seeds=1", "seeds=1 seed=7x", &d) &&
              strcmp(d.field, "seed") == 0 && strcmp(d.b, "7x") == 0);
        CHECK(run_match_differs("seed=7", NULL, &d) &&
              strcmp(d.field, "run_match") == 0);
    }
    free(set.traces);
    set.traces = NULL;
    set.n_traces = 0;
    group_set_free(&set);
    free(opts);
    free(infos);
    return CHECK_DONE();
}
