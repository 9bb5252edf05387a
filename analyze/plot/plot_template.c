/* plot_template: looks up embedded gnuplot templates and fills them. */
#include "plot_template.h"

#include <string.h>

/* The embedded template called name; NULL when there is none. */
static const struct plot_template_src *plot_template_find(const char *name)
{
    for (size_t i = 0; i < plot_template_count; i++)
        if (strcmp(plot_template_srcs[i].name, name) == 0)
            return &plot_template_srcs[i];
    return NULL;
}

/* The value of key (key_len bytes) in subst; NULL when absent. */
static const char *subst_value(const struct plot_subst *subst, size_t n,
                               const char *key, size_t key_len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(subst[i].key) == key_len &&
            memcmp(subst[i].key, key, key_len) == 0)
            return subst[i].value;
    return NULL;
}

/* Fills one template; depth guards against includes that loop. */
static int fill(FILE *out, const char *name, const struct plot_subst *subst,
                size_t n_subst, char *err, size_t err_size, int depth)
{
    const struct plot_template_src *t = plot_template_find(name);
    const char *p, *end;
    if (!t) {
        snprintf(err, err_size, "no gnuplot template named '%s'", name);
        return -1;
    }
    if (depth > 4) {
        snprintf(err, err_size, "template '%s': includes nest too deep", name);
        return -1;
    }
    p = t->text;
    end = t->text + t->len;
    while (p < end) {
        const char *open = strstr(p, "@@"), *key, *close;
        size_t key_len;
        if (!open || open >= end) {
            if (fwrite(p, 1, (size_t)(end - p), out) != (size_t)(end - p))
                goto write_error;
            break;
        }
        if (fwrite(p, 1, (size_t)(open - p), out) != (size_t)(open - p))
            goto write_error;
        key = open + 2;
        close = strstr(key, "@@");
        if (!close || memchr(key, '\n', (size_t)(close - key))) {
            snprintf(err, err_size, "template '%s': unclosed @@", name);
            return -1;
        }
        key_len = (size_t)(close - key);
        if (key_len > 8 && memcmp(key, "INCLUDE:", 8) == 0) {
            char inc[64];
            if (key_len - 8 >= sizeof(inc)) {
                snprintf(err, err_size, "template '%s': include name too long",
                         name);
                return -1;
            }
            memcpy(inc, key + 8, key_len - 8);
            inc[key_len - 8] = '\0';
            if (fill(out, inc, subst, n_subst, err, err_size, depth + 1))
                return -1;
        } else {
            const char *v = subst_value(subst, n_subst, key, key_len);
            if (!v) {
                snprintf(err, err_size, "template '%s': no value for @@%.*s@@",
                         name, (int)key_len, key);
                return -1;
            }
            if (fputs(v, out) == EOF)
                goto write_error;
        }
        p = close + 2;
    }
    return 0;
write_error:
    snprintf(err, err_size, "cannot write the gnuplot script");
    return -1;
}

int plot_template_fill(FILE *out, const char *name,
                       const struct plot_subst *subst, size_t n_subst,
                       char *err, size_t err_size)
{
    return fill(out, name, subst, n_subst, err, err_size, 0);
}
