/* plot_vars: gnuplot definitions and .dat block helpers for chart writers. */
#include <math.h>
#include <stdlib.h>

#include "plot_chart.h"
#include "plot_escape.h"

void plot_var_int(struct buf *b, const char *name, long long v)
{
    buf_printf(b, "%s = %lld\n", name, v);
}

void plot_var_num(struct buf *b, const char *name, double x)
{
    if (isfinite(x))
        buf_printf(b, "%s = %.10g\n", name, x);
    else
        buf_printf(b, "%s = NaN\n", name);
}

void plot_var_str(struct buf *b, const char *name, const char *text)
{
    char q[512];
    plot_gp_string(q, sizeof(q), text);
    buf_printf(b, "%s = %s\n", name, q);
}

void plot_var_array(struct buf *b, const char *name, const int *v, size_t n)
{
    if (n == 0) {
        buf_printf(b, "array %s[1] = [0]\n", name);
        return;
    }
    buf_printf(b, "array %s[%zu] = [", name, n);
    for (size_t i = 0; i < n; i++)
        buf_printf(b, "%s%d", i ? (i % 20 ? "," : ", \\\n    ") : "", v[i]);
    buf_puts(b, "]\n");
}

/* Resizes an int array to cap entries; false (unchanged) when out of
 * memory. */
static bool resize(int **a, size_t cap)
{
    int *p = realloc(*a, cap * sizeof(*p));
    if (!p)
        return false;
    *a = p;
    return true;
}

void plot_blocks_panel(struct plot_blocks *bl)
{
    size_t cap = bl->cap_panels ? bl->cap_panels * 2 : 8;
    if (bl->n_panels == bl->cap_panels) {
        if (!resize(&bl->pfirst, cap) || !resize(&bl->pcount, cap)) {
            bl->failed = true;
            return;
        }
        bl->cap_panels = cap;
    }
    bl->pfirst[bl->n_panels] = (int)bl->n + 1;
    bl->pcount[bl->n_panels] = 0;
    bl->n_panels++;
}

int plot_blocks_add(struct plot_blocks *bl, int lt, int dt, int pt)
{
    size_t cap = bl->cap ? bl->cap * 2 : 16;
    if (bl->n == bl->cap) {
        if (!resize(&bl->lt, cap) || !resize(&bl->dt, cap) ||
            !resize(&bl->pt, cap)) {
            bl->failed = true;
            return (int)bl->n;
        }
        bl->cap = cap;
    }
    bl->lt[bl->n] = lt;
    bl->dt[bl->n] = dt;
    bl->pt[bl->n] = pt;
    bl->n++;
    if (bl->n_panels)
        bl->pcount[bl->n_panels - 1]++;
    return (int)bl->n;
}

void plot_blocks_vars(const struct plot_blocks *bl, struct buf *b)
{
    plot_var_int(b, "nb", (long long)bl->n);
    plot_var_int(b, "npanels", (long long)bl->n_panels);
    plot_var_array(b, "blt", bl->lt, bl->n);
    plot_var_array(b, "bdt", bl->dt, bl->n);
    plot_var_array(b, "bpt", bl->pt, bl->n);
    plot_var_array(b, "pfirst", bl->pfirst, bl->n_panels);
    plot_var_array(b, "pcount", bl->pcount, bl->n_panels);
}

void plot_blocks_free(struct plot_blocks *bl)
{
    free(bl->lt);
    free(bl->dt);
    free(bl->pt);
    free(bl->pfirst);
    free(bl->pcount);
}

int plot_model_lt(size_t i)
{
    return (int)(i % 8) + 1;
}

int plot_model_dt(size_t i)
{
    return (int)((i / 8) % 5) + 1;
}

void plot_dat_block(FILE *dat, int *index, const char *title)
{
    if (*index > 0)
        fputs("\n\n", dat);
    (*index)++;
    if (title) {
        plot_dat_string(dat, title);
        fputc('\n', dat);
    }
}

void plot_dat_num(FILE *dat, double x)
{
    if (isfinite(x))
        fprintf(dat, "%.7g", x);
    else
        fputs("NaN", dat);
}
