/* plot_chart_cap: the capacity chart (plots/capacity.gp) from a judged
 * sweep (analyze/capacity): goodput and p99 latency against offered
 * load, the knee marked. */
#include <math.h>
#include <stdio.h>

#include "capacity.h"
#include "plot_chart.h"
#include "plot_escape.h"

/* The stages of s whose validity is valid and whose load is known: with
 * dat, their rows (load, goodput/s, achieved/s, TTFT p99, TPOT p99).
 * Returns how many. */
static size_t stage_rows(FILE *dat, const struct cap_set *s, bool valid)
{
    size_t n = 0;
    for (size_t i = 0; s && i < s->n_stages; i++) {
        const struct cap_stage *st = &s->stages[i];
        if (st->valid != valid || isnan(st->load))
            continue;
        if (dat) {
            double v[5] = {st->load, st->goodput_rps, st->achieved_rps,
                           st->ttft.p99, st->tpot.p99};
            for (int j = 0; j < 5; j++) {
                if (j)
                    fputc(' ', dat);
                plot_dat_num(dat, v[j]);
            }
            fputc('\n', dat);
        }
        n++;
    }
    return n;
}

static int write_capacity(const struct plot_ctx *c, FILE *dat,
                          struct plot_out *out)
{
    const struct cap_set *s = c->cap;
    const struct cap_stage *k = s && s->knee >= 0 ? &s->stages[s->knee] : NULL;
    size_t nv = stage_rows(NULL, s, true), ni = stage_rows(NULL, s, false);
    double xmax = 1;
    int index = 0;
    plot_dat_block(dat, &index, NULL);
    plot_dat_string(dat, k ? k->name : "none");
    fputc('\n', dat);
    /* a block only when it has rows: gnuplot must not meet an empty one */
    if (nv) {
        plot_dat_block(dat, &index, NULL);
        stage_rows(dat, s, true);
    }
    if (ni) {
        plot_dat_block(dat, &index, NULL);
        stage_rows(dat, s, false);
    }
    for (size_t i = 0; s && i < s->n_stages; i++)
        if (!isnan(s->stages[i].load) && s->stages[i].load > xmax)
            xmax = s->stages[i].load;
    plot_var_int(&out->vars, "nvalid", nv ? 1 : 0);
    plot_var_int(&out->vars, "ninvalid", ni ? 1 : 0);
    plot_var_int(&out->vars, "ivalid", 1);
    /* an existing block even when unused: gnuplot reads it anyway */
    plot_var_int(&out->vars, "iinvalid", ni && nv ? 2 : 1);
    plot_var_num(&out->vars, "xmax", xmax * 1.1);
    plot_var_int(&out->vars, "has_knee", k != NULL);
    plot_var_num(&out->vars, "knee_load", k ? k->load : NAN);
    plot_var_int(&out->vars, "has_slo_ttft", s && !isnan(s->opt.slo.ttft_ms));
    plot_var_num(&out->vars, "slo_ttft", s ? s->opt.slo.ttft_ms : NAN);
    plot_var_int(&out->vars, "has_slo_tpot", s && !isnan(s->opt.slo.tpot_ms));
    plot_var_num(&out->vars, "slo_tpot", s ? s->opt.slo.tpot_ms : NAN);
    plot_var_str(&out->vars, "xlabel_text",
                 k && k->mode[0] == 'r' ? "offered load (requests/s)"
                 : k                    ? "offered load (concurrency)"
                                        : "offered load");
    out->height = 800;
    return ferror(dat) ? -1 : 0;
}

const struct plot_chart plot_chart_capacity = {
    "capacity", "Capacity: goodput and p99 against offered load",
    write_capacity};
