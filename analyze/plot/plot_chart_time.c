/* plot_chart_time: charts over run time: timeline (a bar per request) and
 * throughput (output tokens/s and requests in flight, 1 s bins). Times are
 * seconds since each trace's run start, so several traces overlay. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "plot_chart.h"
#include "plot_escape.h"

/* Most bars in the timeline: every k-th request (by start time) beyond. */
#define TIMELINE_MAX_BARS 2000
/* Most bins in the throughput chart: wider than 1 s beyond. */
#define THROUGHPUT_MAX_BINS 4000

/* Orders pointers into one request array by start time, then trace and
 * id, then position in the array (qsort). */
static int cmp_start(const void *a, const void *b)
{
    const struct plot_req *x = *(const struct plot_req *const *)a;
    const struct plot_req *y = *(const struct plot_req *const *)b;
    if (x->start_s != y->start_s)
        return x->start_s < y->start_s ? -1 : 1;
    if (x->trace != y->trace)
        return x->trace < y->trace ? -1 : 1;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x < y ? -1 : (x > y);
}

/* True when a request is drawn as a bar of its class: a success with its
 * first token, or one the run stopped (interrupted: not a failure; a thin
 * bar to its end when it was stopped before its first token). */
static bool drawn_ok(const struct plot_req *r)
{
    return (r->interrupted || (r->ok && isfinite(r->first_s))) &&
           isfinite(r->end_s);
}

/* Where the thick (streaming) part of r's bar starts. */
static double bar_first_s(const struct plot_req *r)
{
    return isfinite(r->first_s) ? r->first_s : r->end_s;
}

/* timeline.dat: a bar block per class, then one for failed requests;
 * every k-th request by start time when there are many. */
static int write_timeline(const struct plot_ctx *c, FILE *dat,
                          struct plot_out *out)
{
    const struct plot_data *d = c->d;
    struct plot_blocks bl = {0};
    const struct plot_req **order = malloc((d->n_reqs + 1) * sizeof(*order));
    size_t n = 0, stride, shown = 0, failed = 0, failed_all = 0, stopped = 0,
           *y;
    int index = 0;
    char title[600];
    if (!order)
        return -1;
    for (size_t i = 0; i < d->n_reqs; i++)
        if (isfinite(d->reqs[i].start_s) && isfinite(d->reqs[i].end_s))
            order[n++] = &d->reqs[i];
    qsort(order, n, sizeof(*order), cmp_start);
    for (size_t i = 0; i < n; i++) {
        failed_all += !drawn_ok(order[i]);
        stopped += order[i]->interrupted;
    }
    stride = n > TIMELINE_MAX_BARS
                 ? (n + TIMELINE_MAX_BARS - 1) / TIMELINE_MAX_BARS
                 : 1;
    /* Row of each shown request (0: not shown), by position in order. */
    y = calloc(n + 1, sizeof(*y));
    if (!y) {
        free(order);
        return -1;
    }
    for (size_t i = 0; i < n; i += stride) {
        y[i] = ++shown;
        failed += !drawn_ok(order[i]);
    }
    plot_dat_block(dat, &index, NULL);
    fputs("\"request timeline\" 0\n", dat);
    for (size_t k = 0; k < d->classes.n; k++) {
        size_t count = 0;
        for (size_t i = 0; i < n; i += stride)
            count += order[i]->cls == k && drawn_ok(order[i]);
        if (count == 0)
            continue;
        snprintf(title, sizeof(title), "%s (%zu)", d->classes.v[k], count);
        plot_blocks_add(&bl, 11 + (int)(k % 8), 1, 5);
        plot_dat_block(dat, &index, title);
        for (size_t i = 0; i < n; i += stride) {
            const struct plot_req *r = order[i];
            if (r->cls == k && drawn_ok(r))
                fprintf(dat, "%zu %.6f %.6f %.6f\n", y[i], r->start_s,
                        bar_first_s(r), r->end_s);
        }
    }
    if (failed) {
        snprintf(title, sizeof(title), "failed (%zu)", failed);
        plot_dat_block(dat, &index, title);
        for (size_t i = 0; i < n; i += stride) {
            const struct plot_req *r = order[i];
            if (!drawn_ok(r))
                fprintf(dat, "%zu %.6f NaN %.6f\n", y[i], r->start_s, r->end_s);
        }
    }
    {
        char sample[64] = "", fails[64] = "", stops[64] = "";
        if (stride > 1)
            snprintf(sample, sizeof(sample), "1 in %zu of ", stride);
        if (failed_all)
            snprintf(fails, sizeof(fails), " - %zu failed (red x)", failed_all);
        if (stopped) /* as summary counts them: neither ok nor failed */
            snprintf(stops, sizeof(stops), " - %zu interrupted", stopped);
        snprintf(title, sizeof(title),
                 "Request timeline: %s%zu requests%s%s%s - thin: waiting for "
                 "the first token / thick: streaming",
                 sample, n, stride > 1 ? " by start time" : "", fails, stops);
    }
    plot_blocks_vars(&bl, &out->vars);
    plot_var_int(&out->vars, "nfailed", failed ? 1 : 0);
    plot_var_int(&out->vars, "nshown", (long long)shown);
    plot_var_num(&out->vars, "barw",
                 shown ? fmin(10, fmax(1, 360.0 / (double)shown)) : 1);
    /* failed bars: as thick as a streaming bar, so they are seen */
    plot_var_num(&out->vars, "failw",
                 shown ? fmin(10, fmax(1.5, 360.0 / (double)shown)) : 1.5);
    plot_var_str(&out->vars, "timeline_title", title);
    out->height = 700;
    plot_blocks_free(&bl);
    free(order);
    free(y);
    return bl.failed ? -1 : 0;
}

/* Adds the time-weighted share of [from, to) that falls in each bin. */
static void add_inflight(double *bins, size_t nbins, double width, double from,
                         double to)
{
    size_t b0, b1;
    if (!(to > from) || from < 0)
        return;
    b0 = (size_t)(from / width);
    b1 = (size_t)(to / width);
    for (size_t b = b0; b <= b1 && b < nbins; b++) {
        double lo = fmax(from, (double)b * width),
               hi = fmin(to, (double)(b + 1) * width);
        if (hi > lo)
            bins[b] += (hi - lo) / width;
    }
}

/* Writes one series: rows of bin start, tokens/s, in flight; a last row
 * closes the last step at end (the run's end, inside the last bin). */
static void write_series(FILE *dat, const double *tok, const double *infl,
                         size_t nbins, double width, double end)
{
    for (size_t b = 0; b < nbins; b++)
        fprintf(dat, "%.6g %.6g %.6g\n", (double)b * width, tok[b], infl[b]);
    if (nbins)
        fprintf(dat, "%.6g %.6g %.6g\n", end, tok[nbins - 1], infl[nbins - 1]);
}

/* The last bin covers only [start, end) of its width: its rates are over
 * that time, or a run that ends 0.1 s into a bin shows a false drop. */
static void rescale_last_bin(double *tok, double *infl, size_t nbins,
                             double width, double end)
{
    double covered = end - (double)(nbins - 1) * width;
    if (nbins == 0 || !(covered > 0) || covered >= width)
        return;
    tok[nbins - 1] *= width / covered;
    infl[nbins - 1] *= width / covered;
}

/* throughput.dat: a block per model (and one for all models) of bins:
 * start s, output tokens/s, requests in flight. */
static int write_throughput(const struct plot_ctx *c, FILE *dat,
                            struct plot_out *out)
{
    const struct plot_data *d = c->d;
    struct plot_blocks bl = {0};
    double span = 0, end, width = 1, *tok, *infl, *all_tok, *all_infl;
    size_t nbins, seconds, models_drawn = 0;
    bool tokens_seen = false;
    int index = 0;
    char title[200];
    for (size_t i = 0; i < d->n_reqs; i++)
        if (isfinite(d->reqs[i].end_s) && d->reqs[i].end_s > span)
            span = d->reqs[i].end_s;
    seconds = (size_t)ceil(span);
    if (seconds > PLOT_MAX_SECONDS)
        seconds = PLOT_MAX_SECONDS;
    if (seconds > THROUGHPUT_MAX_BINS)
        width = ceil((double)seconds / THROUGHPUT_MAX_BINS);
    nbins = (size_t)ceil((double)seconds / width);
    end = span < (double)nbins * width ? span : (double)nbins * width;
    tok = calloc(4 * (nbins + 1), sizeof(double));
    if (!tok)
        return -1;
    infl = tok + (nbins + 1);
    all_tok = infl + (nbins + 1);
    all_infl = all_tok + (nbins + 1);
    plot_dat_block(dat, &index, NULL);
    fputs("\"throughput\" 0\n", dat);
    for (size_t m = 0; m < d->models.n; m++) {
        size_t reqs = 0;
        for (size_t b = 0; b <= nbins; b++)
            tok[b] = infl[b] = 0;
        for (size_t s = 0; s < seconds; s++)
            tok[(size_t)((double)s / width)] +=
                plot_data_tokens_at(d, m, s) / width;
        for (size_t i = 0; i < d->n_reqs; i++) {
            const struct plot_req *r = &d->reqs[i];
            if (r->model != m)
                continue;
            reqs++;
            add_inflight(infl, nbins, width, r->start_s, r->end_s);
        }
        if (reqs == 0 || nbins == 0)
            continue;
        rescale_last_bin(tok, infl, nbins, width, end);
        for (size_t b = 0; b < nbins; b++) {
            tokens_seen = tokens_seen || tok[b] > 0;
            all_tok[b] += tok[b];
            all_infl[b] += infl[b];
        }
        plot_blocks_add(&bl, plot_model_lt(m), plot_model_dt(m), 7);
        plot_dat_block(dat, &index, d->models.v[m]);
        write_series(dat, tok, infl, nbins, width, end);
        models_drawn++;
    }
    if (models_drawn > 1) {
        plot_blocks_add(&bl, 9, 1, 7);
        plot_dat_block(dat, &index, "all models");
        write_series(dat, all_tok, all_infl, nbins, width, end);
    }
    snprintf(title, sizeof(title),
             "Output tokens/s and requests in flight (%g s bins since the run "
             "start)",
             width);
    plot_blocks_vars(&bl, &out->vars);
    plot_var_num(&out->vars, "xmax", nbins ? (double)nbins * width : 1);
    plot_var_int(&out->vars, "tokens_seen", tokens_seen);
    plot_var_str(&out->vars, "throughput_title", title);
    out->height = 700;
    plot_blocks_free(&bl);
    free(tok);
    return bl.failed ? -1 : 0;
}

const struct plot_chart plot_chart_timeline = {"timeline", "Request timeline",
                                               write_timeline};
const struct plot_chart plot_chart_throughput = {
    "throughput", "Output tokens/s and requests in flight", write_throughput};
