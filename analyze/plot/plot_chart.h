/* plot_chart: one chart = a .dat file written from plot_data plus a .gp
 * script filled from its template in plots/. Chart writers put strings
 * from traces only into the .dat (plot_dat_string); what they hand to the
 * script (plot_out.vars) is built from numbers and the analyzer's own
 * words by the plot_var_* helpers.
 *
 * Data file convention: blocks separated by two blank lines; index 0
 * holds strings the script needs (panel titles, tic labels); blocks 1..nb
 * start with a quoted legend title row. Blocks are only written when they
 * have data, so gnuplot never meets an empty one. */
#ifndef TT_PLOT_CHART_H
#define TT_PLOT_CHART_H

#include <stdbool.h>
#include <stdio.h>

#include "buf.h"
#include "plot_data.h"

struct cap_set; /* analyze/capacity/capacity.h */

struct plot_ctx {
    const struct plot_data *d;
    const char *dir;    /* output directory */
    const char *format; /* "png" or "svg": what the script draws by default */
    const char *font;   /* font family for the terminals (the analyzer's) */
    const char *period; /* trend: "week" or "day" */
    const struct cap_set *cap; /* capacity: the judged sweep, else NULL */
};

/* What a chart writer produces besides its .dat. */
struct plot_out {
    struct buf vars; /* gnuplot definitions put at @@VARS@@ */
    int width, height;
};

struct plot_chart {
    const char *name;  /* file stem and template name: "ttft-cdf" */
    const char *title; /* heading in the HTML report */
    /* Writes the data to dat and the definitions to out. Returns 0, or -1
     * when dat could not be written. */
    int (*write)(const struct plot_ctx *c, FILE *dat, struct plot_out *out);
};

extern const struct plot_chart plot_chart_ttft_cdf, plot_chart_tpot,
    plot_chart_latency_tokens, plot_chart_itl, plot_chart_timeline,
    plot_chart_throughput, plot_chart_compare, plot_chart_trend,
    plot_chart_capacity, plot_chart_turns;

/* Writes DIR/NAME.dat and DIR/NAME.gp. Returns 0, or 1 after an error
 * message naming the file. */
int plot_chart_write(const struct plot_ctx *c, const struct plot_chart *ch);

/* ---- gnuplot definitions (plot_vars.c) --------------------------------- */

/* Appends "name = v". */
void plot_var_int(struct buf *b, const char *name, long long v);
/* Appends "name = x" ("NaN" when x is not finite). */
void plot_var_num(struct buf *b, const char *name, double x);
/* Appends "name = 'text'" through the plot_gp_string whitelist. */
void plot_var_str(struct buf *b, const char *name, const char *text);
/* Appends "array name[n] = [v...]" (a one-element array when n is 0). */
void plot_var_array(struct buf *b, const char *name, const int *v, size_t n);

/* ---- block bookkeeping (plot_vars.c) ------------------------------------ */

/* Data blocks 1..n with their line type, dash type and point type, and
 * panels listing consecutive blocks (pfirst/pcount in the script). */
struct plot_blocks {
    int *lt, *dt, *pt;
    size_t n, cap;
    int *pfirst, *pcount;
    size_t n_panels, cap_panels;
    bool failed; /* out of memory somewhere */
};

/* Starts a new panel; later blocks belong to it. */
void plot_blocks_panel(struct plot_blocks *bl);
/* Adds a block to the current panel; returns its number (1-based). */
int plot_blocks_add(struct plot_blocks *bl, int lt, int dt, int pt);
/* Appends nb, npanels and the arrays blt, bdt, bpt, pfirst, pcount. */
void plot_blocks_vars(const struct plot_blocks *bl, struct buf *b);
void plot_blocks_free(struct plot_blocks *bl);

/* The line type of model i (its colour: 1-8, repeating) and its dash type
 * (solid for the first 8 models, then dashed variants). */
int plot_model_lt(size_t i);
int plot_model_dt(size_t i);

/* Starts the next block of a .dat file: two blank lines unless it is the
 * first, then the quoted title row when title is not NULL. *index counts
 * the blocks written. */
void plot_dat_block(FILE *dat, int *index, const char *title);

/* Writes x with enough digits for a chart ("NaN" when not finite). */
void plot_dat_num(FILE *dat, double x);

#endif
