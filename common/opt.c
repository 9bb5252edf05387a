/* opt: reads argv against a typed flag table (the forms are in opt.h). */
#include "opt.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "suggest.h"

#define OPT_MAX_SPECS 128

int opt_error(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return OPT_ERROR;
}

/* The k-th spec over all of p's tables (NULL past the last), and the
 * struct its offsets point into. */
static const struct opt_spec *spec_at(const struct opt_parser *p, size_t k,
                                      void **base)
{
    for (size_t t = 0; t < p->n_tables; t++) {
        if (k < p->tables[t].n_specs) {
            *base = p->tables[t].base;
            return &p->tables[t].specs[k];
        }
        k -= p->tables[t].n_specs;
    }
    return NULL;
}

static bool enabled(const struct opt_parser *p, const struct opt_spec *s)
{
    return s->mask == 0 || (s->mask & p->allowed) != 0;
}

static bool takes_value(const struct opt_spec *s)
{
    return s->kind != OPT_BOOL && s->kind != OPT_SET && s->kind != OPT_STOP;
}

/* True when s, a valued flag, reads next (NULL: argv ended) as its value:
 * always, unless its value may be left out and next is none or a flag. */
static bool value_follows(const struct opt_spec *s, const char *next)
{
    if (!s->value_optional)
        return true;
    return next && (next[0] != '-' || next[1] == '\0');
}

/* The flag's name in errors: "-x" when it has a short alias, else
 * "--name", into out. */
static const char *opt_label(const struct opt_spec *spec, char *out,
                             size_t outlen)
{
    if (spec->short_name)
        snprintf(out, outlen, "-%c", spec->short_name);
    else
        snprintf(out, outlen, "--%s", spec->name);
    return out;
}

const struct opt_spec *opt_find(const struct opt_spec *specs, size_t n,
                                const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(specs[i].name, name) == 0)
            return &specs[i];
    return NULL;
}

/* The enabled spec named by the len bytes at name (and its *base);
 * *negated when they are a boolean's --no-X (or X of a boolean named
 * no-X). NULL: none. */
static const struct opt_spec *find_long(const struct opt_parser *p,
                                        const char *name, size_t len,
                                        bool *negated, void **base)
{
    const struct opt_spec *s;
    *negated = false;
    for (size_t i = 0; (s = spec_at(p, i, base)) != NULL; i++)
        if (enabled(p, s) && strlen(s->name) == len &&
            strncmp(s->name, name, len) == 0)
            return s;
    for (size_t i = 0; (s = spec_at(p, i, base)) != NULL; i++) {
        size_t sl = strlen(s->name);
        if (!enabled(p, s) || s->kind != OPT_BOOL)
            continue;
        if (strncmp(s->name, "no-", 3) == 0
                ? sl == len + 3 && strncmp(s->name + 3, name, len) == 0
                : len == sl + 3 && strncmp(name, "no-", 3) == 0 &&
                      strncmp(name + 3, s->name, sl) == 0) {
            *negated = true;
            return s;
        }
    }
    return NULL;
}

static const struct opt_spec *find_short(const struct opt_parser *p, char c,
                                         void **base)
{
    const struct opt_spec *s;
    for (size_t i = 0; (s = spec_at(p, i, base)) != NULL; i++)
        if (s->short_name == c && enabled(p, s))
            return s;
    return NULL;
}

/* "unknown option 'WORD'", with the closest enabled long flag when WORD
 * (a long one) looks like a typo of it. */
static int unknown(const struct opt_parser *p, const char *word, int len,
                   char *err, size_t errlen)
{
    char names[OPT_MAX_SPECS][48], w[SUGGEST_MAX_LEN + 1];
    const char *cands[OPT_MAX_SPECS], *near = NULL;
    const struct opt_spec *s;
    void *base;
    size_t n = 0;
    if (word[1] == '-' && len >= 3) {
        for (size_t i = 0; (s = spec_at(p, i, &base)) && n < OPT_MAX_SPECS; i++)
            if (enabled(p, s)) {
                snprintf(names[n], sizeof names[n], "--%s", s->name);
                cands[n] = names[n];
                n++;
            }
        snprintf(w, sizeof w, "%.*s", len, word);
        near = suggest_closest(w, cands, n);
    }
    if (near)
        return opt_error(err, errlen,
                         "unknown option '%.*s' (did you mean %s?)", len, word,
                         near);
    return opt_error(err, errlen, "unknown option '%.*s'", len, word);
}

static const char *shown(const struct opt_parser *p, const char *v)
{
    return p->shown ? p->shown(v) : v;
}

/* "LABEL: 'V' is not WANT". */
static int not_want(const struct opt_parser *p, const struct opt_spec *s,
                    const char *v, const char *want, char *err, size_t errlen)
{
    char label[64];
    return opt_error(err, errlen, "%s: '%s' is not %s",
                     opt_label(s, label, sizeof label), shown(p, v),
                     want ? want : "a valid value");
}

/* ENUM/STRING without a want: "a, b or c" into out. */
static const char *word_list(const char *const *names, char *out, size_t outlen)
{
    size_t n = 0, used = 0;
    while (names[n])
        n++;
    out[0] = '\0';
    for (size_t i = 0; i < n && used < outlen; i++) {
        int k = snprintf(out + used, outlen - used, "%s%s",
                         i == 0       ? ""
                         : i == n - 1 ? " or "
                                      : ", ",
                         names[i]);
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return out;
}

/* The index of v in names, or -1. */
static int word_index(const char *const *names, const char *v)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], v) == 0)
            return i;
    return -1;
}

static int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (*s == '-' || *s == '\0')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (*end != '\0' || errno || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_double(const struct opt_spec *s, const char *v, double *out)
{
    char *end;
    double d;
    if (s->kind == OPT_DURATION) {
        if (duration_parse(v, DURATION_S, DURATION_S, &d))
            return -1;
    } else {
        errno = 0;
        d = strtod(v, &end);
        if (end == v || *end || errno || !isfinite(d))
            return -1;
    }
    if (d < s->lo || (s->lo_open && d <= s->lo) || d > s->hi)
        return -1;
    *out = d;
    return 0;
}

/* A LIST value appended (or its error). */
static int add_to_list(const struct opt_spec *s, char *base, const char *v,
                       char *err, size_t errlen)
{
    char label[64];
    const char **items = (const char **)(void *)(base + s->at);
    size_t *count = (size_t *)(void *)(base + s->count);
    if (*count >= s->cap)
        return opt_error(err, errlen, "%s: at most %zu %s",
                         opt_label(s, label, sizeof label), s->cap,
                         s->noun ? s->noun : "values");
    items[(*count)++] = v;
    return OPT_OK;
}

/* Stores the valued flag s = v into base. */
static int store(const struct opt_parser *p, const struct opt_spec *s,
                 char *base, const char *v, char *err, size_t errlen)
{
    char *field = base + s->at, label[64], words[256];
    int k;
    if ((s->kind == OPT_STRING || s->kind == OPT_LIST) && s->empty && !*v)
        return opt_error(err, errlen, "%s: empty %s",
                         opt_label(s, label, sizeof label), s->empty);
    switch (s->kind) {
    case OPT_STRING:
        if (s->names && word_index(s->names, v) < 0)
            return not_want(p, s, v,
                            s->want ? s->want
                                    : word_list(s->names, words, sizeof words),
                            err, errlen);
        *(const char **)(void *)field = v;
        return OPT_OK;
    case OPT_U64: {
        uint64_t u;
        if (parse_u64(v, s->min, s->max, &u))
            return not_want(p, s, v, s->want, err, errlen);
        if (s->size == 4) {
            uint32_t u32 = (uint32_t)u; /* max fits: the table says so */
            memcpy(field, &u32, sizeof u32);
        } else if (s->size == 0 || s->size == 8)
            memcpy(field, &u, sizeof u);
        else
            return opt_error(err, errlen, "--%s: no field of %zu bytes",
                             s->name, s->size);
        return OPT_OK;
    }
    case OPT_DOUBLE:
    case OPT_DURATION:
        if (parse_double(s, v, (double *)(void *)field))
            return not_want(p, s, v, s->want, err, errlen);
        return OPT_OK;
    case OPT_ENUM:
        k = word_index(s->names, v);
        if (k < 0)
            return not_want(p, s, v,
                            s->want ? s->want
                                    : word_list(s->names, words, sizeof words),
                            err, errlen);
        if (s->is_bool)
            *(bool *)(void *)field = k != 0;
        else
            *(int *)(void *)field = k;
        return OPT_OK;
    case OPT_LIST:
        return add_to_list(s, base, v, err, errlen);
    case OPT_CUSTOM:
        err[0] = '\0';
        if (s->parse(v, base, s, err, errlen) == 0)
            return OPT_OK;
        return err[0] ? OPT_ERROR : not_want(p, s, v, s->want, err, errlen);
    case OPT_BOOL:
    case OPT_SET:
    case OPT_STOP:
        break;
    }
    return OPT_OK;
}

/* Applies s (seen as --no-X when negated) with value v (NULL: none).
 * Returns OPT_OK, OPT_ERROR or a STOP value. */
static int apply(const struct opt_parser *p, const struct opt_spec *s, void *at,
                 bool negated, const char *v, char *err, size_t errlen)
{
    char *base = at;
    if (s->given)
        *(bool *)(void *)(base + s->given - 1) = true;
    switch (s->kind) {
    case OPT_BOOL:
        *(bool *)(void *)(base + s->at) = !negated;
        return OPT_OK;
    case OPT_SET:
        *(int *)(void *)(base + s->at) = s->value;
        return OPT_OK;
    case OPT_STOP:
        return s->value;
    default:
        if (!v) /* value_optional, left out */
            return OPT_OK;
        return store(p, s, base, v, err, errlen);
    }
}

/* A run of short flags ("-q", "-qf", "-n5", "-n 5") at argv[*i]. */
static int read_short(const struct opt_parser *p, int argc, char **argv, int *i,
                      char *err, size_t errlen)
{
    const char *arg = argv[*i];
    for (size_t k = 1; arg[k]; k++) {
        void *base;
        const struct opt_spec *s = find_short(p, arg[k], &base);
        const char word[3] = {'-', arg[k], '\0'};
        int rc;
        if (!s)
            return unknown(p, word, 2, err, errlen);
        if (!takes_value(s)) {
            rc = apply(p, s, base, false, NULL, err, errlen);
            if (rc != OPT_OK)
                return rc;
            continue;
        }
        if (arg[k + 1])
            return apply(p, s, base, false, arg + k + 1, err, errlen);
        if (!value_follows(s, *i + 1 < argc ? argv[*i + 1] : NULL))
            return apply(p, s, base, false, NULL, err, errlen);
        if (*i + 1 >= argc)
            return opt_error(err, errlen, "--%s needs a value", s->name);
        return apply(p, s, base, false, argv[++*i], err, errlen);
    }
    return OPT_OK;
}

/* One "--name[=value]" at argv[*i] (and its value at argv[*i + 1]). */
static int read_long(const struct opt_parser *p, int argc, char **argv, int *i,
                     char *err, size_t errlen)
{
    const char *arg = argv[*i], *name = arg + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    bool negated;
    void *base;
    const struct opt_spec *s = find_long(p, name, len, &negated, &base);
    if (!s)
        return unknown(p, arg, (int)len + 2, err, errlen);
    if (!takes_value(s)) {
        if (eq)
            return opt_error(err, errlen, "--%.*s takes no value", (int)len,
                             name);
        return apply(p, s, base, negated, NULL, err, errlen);
    }
    if (eq)
        return apply(p, s, base, false, eq + 1, err, errlen);
    if (!value_follows(s, *i + 1 < argc ? argv[*i + 1] : NULL))
        return apply(p, s, base, false, NULL, err, errlen);
    if (*i + 1 >= argc)
        return opt_error(err, errlen, "--%s needs a value", s->name);
    return apply(p, s, base, false, argv[++*i], err, errlen);
}

/* A word that is no flag: kept in p->pos, or an error without it. */
static int positional(const struct opt_parser *p, const char *word, char *err,
                      size_t errlen)
{
    if (!p->pos)
        return opt_error(err, errlen, "unexpected argument '%s'",
                         shown(p, word));
    p->pos[(*p->n_pos)++] = word;
    return OPT_OK;
}

int opt_parse(const struct opt_parser *p, int argc, char **argv, char *err,
              size_t errlen)
{
    err[0] = '\0';
    if (p->n_pos)
        *p->n_pos = 0;
    for (int i = p->first; i < argc; i++) {
        const char *arg = argv[i];
        int rc;
        if (arg[0] != '-' || arg[1] == '\0')
            rc = positional(p, arg, err, errlen);
        else if (strcmp(arg, "--") == 0) {
            if (!p->pos)
                return positional(p, arg, err, errlen);
            while (++i < argc)
                positional(p, argv[i], err, errlen);
            return OPT_OK;
        } else if (arg[1] == '-')
            rc = read_long(p, argc, argv, &i, err, errlen);
        else
            rc = read_short(p, argc, argv, &i, err, errlen);
        if (rc != OPT_OK)
            return rc;
    }
    return OPT_OK;
}
