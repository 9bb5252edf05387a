/* plot_chart_turn: the sessions chart (docs/workloads.md): each turn of
 * each session as a point, TTFT against its input tokens, per model, with
 * the turns the server served (partly) from its prompt cache marked apart
 * from the uncached ones; a second panel, the TTFT p50 per turn index. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "plot_chart.h"

#define TURN_MAX_POINTS 20000
#define TURN_MAX_INDEX 4096

/* True when r is a session turn with a TTFT and an input size. */
static bool turn_point(const struct plot_req *r, size_t model)
{
    return r->model == model && r->ok && r->turn && isfinite(r->ttft_ms) &&
           isfinite(r->in_tokens);
}

/* Writes one block of model m's points: cached (cached > 0) or not. */
static void points(const struct plot_data *d, FILE *dat, size_t m, bool cached,
                   size_t stride)
{
    size_t seen = 0;
    for (size_t i = 0; i < d->n_reqs; i++) {
        const struct plot_req *r = &d->reqs[i];
        bool c = isfinite(r->cached_tokens) && r->cached_tokens > 0;
        if (!turn_point(r, m) || c != cached || seen++ % stride != 0)
            continue;
        fprintf(dat, "%.6g ", r->in_tokens);
        plot_dat_num(dat, r->ttft_ms);
        fputc('\n', dat);
    }
}

/* Counts model m's points, cached and not. */
static void count(const struct plot_data *d, size_t m, size_t *cached,
                  size_t *plain)
{
    *cached = *plain = 0;
    for (size_t i = 0; i < d->n_reqs; i++) {
        const struct plot_req *r = &d->reqs[i];
        if (!turn_point(r, m))
            continue;
        if (isfinite(r->cached_tokens) && r->cached_tokens > 0)
            (*cached)++;
        else
            (*plain)++;
    }
}

/* The TTFT p50 of model m's turn t (type 7); NAN without one. */
static double turn_p50(const struct plot_data *d, size_t m, uint32_t t,
                       double *v)
{
    size_t n = 0;
    for (size_t i = 0; i < d->n_reqs; i++)
        if (turn_point(&d->reqs[i], m) && d->reqs[i].turn == t)
            v[n++] = d->reqs[i].ttft_ms;
    qsort(v, n, sizeof *v, quantile_cmp_double);
    return quantile_sorted(v, n, 50);
}

static int write_turns(const struct plot_ctx *c, FILE *dat,
                       struct plot_out *out)
{
    const struct plot_data *d = c->d;
    struct plot_blocks bl = {0};
    int index = 0;
    size_t total = 0, stride;
    uint32_t max_turn = 0;
    char title[600];
    double *v = malloc((d->n_reqs ? d->n_reqs : 1) * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < d->n_reqs; i++)
        if (d->reqs[i].turn > max_turn && d->reqs[i].turn <= TURN_MAX_INDEX)
            max_turn = d->reqs[i].turn;
    plot_dat_block(dat, &index, NULL);
    fputs("\"TTFT against input tokens\" 0\n", dat);
    for (size_t m = 0; m < d->models.n; m++) {
        size_t a, b;
        count(d, m, &a, &b);
        total += a + b;
    }
    stride = (total + TURN_MAX_POINTS - 1) / TURN_MAX_POINTS;
    if (stride == 0)
        stride = 1;
    /* panel 1: the points, cached (filled) and uncached (open) */
    plot_blocks_panel(&bl);
    for (size_t m = 0; m < d->models.n; m++) {
        size_t a, b;
        count(d, m, &a, &b);
        for (int cached = 1; cached >= 0; cached--) {
            if ((cached ? a : b) == 0)
                continue;
            snprintf(title, sizeof title, "%s, %s (n=%zu)", d->models.v[m],
                     cached ? "cached prefix" : "uncached", cached ? a : b);
            plot_blocks_add(&bl, plot_model_lt(m), plot_model_dt(m),
                            cached ? 7 : 6);
            plot_dat_block(dat, &index, title);
            points(d, dat, m, cached, stride);
        }
    }
    /* panel 2: TTFT p50 per turn index */
    plot_blocks_panel(&bl);
    for (size_t m = 0; m < d->models.n && max_turn; m++) {
        size_t a, b;
        count(d, m, &a, &b);
        if (a + b == 0)
            continue;
        snprintf(title, sizeof title, "%s: TTFT p50", d->models.v[m]);
        plot_blocks_add(&bl, plot_model_lt(m), plot_model_dt(m), 7);
        plot_dat_block(dat, &index, title);
        for (uint32_t t = 1; t <= max_turn; t++) {
            double p = turn_p50(d, m, t, v);
            if (!isfinite(p))
                continue;
            fprintf(dat, "%u ", t);
            plot_dat_num(dat, p);
            fputc('\n', dat);
        }
    }
    free(v);
    plot_blocks_vars(&bl, &out->vars);
    plot_var_int(&out->vars, "maxturn", (long long)max_turn);
    out->width = 1200;
    out->height = 560;
    plot_blocks_free(&bl);
    return ferror(dat) ? -1 : 0;
}

const struct plot_chart plot_chart_turns = {
    "turns", "Sessions: TTFT against input tokens, cached and uncached turns",
    write_turns};
