/* plot_chart: writes one chart's .dat and its filled .gp script. */
#include "plot_chart.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "out_error.h"
#include "plot_escape.h"
#include "plot_template.h"

/* The gnuplot expression of a comma-separated family list: each family a
 * whitelisted string, joined by ',' ("'A'.','.'B'"); the terminals take
 * the last comma as the size's, pango and SVG the rest as a list. */
static void font_expr(char *out, size_t size, const char *families)
{
    const char *p = families ? families : "Sans";
    size_t len = 0;
    out[0] = '\0';
    while (len + 8 < size) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char name[128], quoted[140];
        snprintf(name, sizeof(name), "%.*s", (int)(n < 127 ? n : 127), p);
        plot_gp_string(quoted, sizeof(quoted), name);
        len += (size_t)snprintf(out + len, size - len, "%s%s",
                                len ? ".','." : "", quoted);
        if (!comma || len >= size)
            break;
        p = comma + 1;
    }
}

/* Writes the script DIR/NAME.gp from the template and the definitions. */
static int write_script(const struct plot_ctx *c, const struct plot_chart *ch,
                        const struct plot_out *out, const char *path)
{
    char font[300], width[16], height[16], err[256];
    FILE *f;
    int rc;
    font_expr(font, sizeof(font), c->font);
    snprintf(width, sizeof(width), "%d", out->width);
    snprintf(height, sizeof(height), "%d", out->height);
    const struct plot_subst subst[] = {
        {"NAME", ch->name}, {"FORMAT", c->format},
        {"FONT", font},     {"WIDTH", width},
        {"HEIGHT", height}, {"VARS", out->vars.data ? out->vars.data : ""},
    };
    if (!(f = fopen(path, "w"))) {
        out_error_log(path, errno);
        return 1;
    }
    rc = plot_template_fill(f, ch->name, subst,
                            sizeof(subst) / sizeof(subst[0]), err, sizeof(err));
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, sizeof(err), "%s", strerror(errno));
        rc = -1;
    }
    if (rc) {
        log_error("%s: %s", path, err);
        return 1;
    }
    return 0;
}

int plot_chart_write(const struct plot_ctx *c, const struct plot_chart *ch)
{
    struct plot_out out = {.width = 1000, .height = 600};
    char path[4096];
    FILE *dat;
    int rc = 0;
    buf_init(&out.vars, (size_t)16 << 20);
    snprintf(path, sizeof(path), "%s/%s.dat", c->dir, ch->name);
    if (!(dat = fopen(path, "w"))) {
        out_error_log(path, errno);
        buf_free(&out.vars);
        return 1;
    }
    if (ch->write(c, dat, &out) != 0 || ferror(dat))
        rc = 1;
    if (fclose(dat) != 0)
        rc = 1;
    if (rc)
        out_error_log(path, errno);
    if (rc == 0) {
        snprintf(path, sizeof(path), "%s/%s.gp", c->dir, ch->name);
        rc = write_script(c, ch, &out, path);
    }
    buf_free(&out.vars);
    return rc;
}
