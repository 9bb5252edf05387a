/* prom_text: the Prometheus text exposition format, one line at a time. */
#include "prom_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}

static bool name_start(char c, bool metric)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (metric && c == ':');
}

static bool name_char(char c, bool metric)
{
    return name_start(c, metric) || (c >= '0' && c <= '9');
}

/* Skips spaces and tabs from p[*i]. */
static void skip_space(const char *p, size_t n, size_t *i)
{
    while (*i < n && is_space(p[*i]))
        (*i)++;
}

/* A name at p[*i]: its length (0: none), *i moved past it. */
static size_t take_name(const char *p, size_t n, size_t *i, bool metric)
{
    size_t start = *i;
    if (*i >= n || !name_start(p[*i], metric))
        return 0;
    while (*i < n && name_char(p[*i], metric))
        (*i)++;
    return *i - start;
}

static int fail(struct prom_line *out, int err, size_t col)
{
    out->err_col = col;
    return err;
}

/* The next whitespace-free token at p[*i]: its start and length. */
static size_t take_token(const char *p, size_t n, size_t *i, size_t *start)
{
    skip_space(p, n, i);
    *start = *i;
    while (*i < n && !is_space(p[*i]))
        (*i)++;
    return *i - *start;
}

/* Parses a float token the way Prometheus does: decimal forms, NaN and
 * [+-]Inf (any case). Returns false when it is not one. */
static bool parse_value(const char *p, size_t n, double *out)
{
    char buf[64];
    char *end;
    size_t k = 0;
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    if (buf[0] == '+' || buf[0] == '-')
        k = 1;
    if (strcasecmp(buf + k, "inf") == 0 ||
        strcasecmp(buf + k, "infinity") == 0) {
        *out = buf[0] == '-' ? -INFINITY : INFINITY;
        return true;
    }
    if (strcasecmp(buf + k, "nan") == 0) {
        *out = NAN;
        return true;
    }
    /* strtod alone would take hex, "nan(...)" and "1e" prefixes */
    for (size_t j = k; j < n; j++) {
        char c = buf[j];
        if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' ||
              c == '+' || c == '-'))
            return false;
    }
    *out = strtod(buf, &end);
    return end == buf + n;
}

/* An integer timestamp token (milliseconds). */
static bool parse_timestamp(const char *p, size_t n, int64_t *out)
{
    char buf[32];
    char *end;
    long long v;
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    for (size_t j = buf[0] == '-' ? 1 : 0; j < n; j++)
        if (buf[j] < '0' || buf[j] > '9')
            return false;
    v = strtoll(buf, &end, 10);
    if (end != buf + n)
        return false;
    *out = (int64_t)v;
    return true;
}

/* The label set after '{' at p[*i] (past the brace), up to and past '}'. */
static int parse_labels(const char *p, size_t n, size_t *i,
                        struct prom_line *out)
{
    size_t used = 0;
    for (;;) {
        struct prom_label *lb;
        size_t nlen, nstart;
        skip_space(p, n, i);
        if (*i < n && p[*i] == '}') {
            (*i)++;
            return PROM_OK;
        }
        nstart = *i;
        nlen = take_name(p, n, i, false);
        if (nlen == 0)
            return fail(out, PROM_E_NAME, *i);
        if (out->n_labels == PROM_MAX_LABELS)
            return fail(out, PROM_E_LABELS, nstart);
        lb = &out->labels[out->n_labels++];
        lb->name = p + nstart;
        lb->name_len = nlen;
        skip_space(p, n, i);
        if (*i >= n || p[*i] != '=')
            return fail(out, PROM_E_LABELS, *i);
        (*i)++;
        skip_space(p, n, i);
        if (*i >= n || p[*i] != '"')
            return fail(out, PROM_E_LABELS, *i);
        (*i)++;
        lb->value = out->unescaped + used;
        for (;;) {
            char c;
            if (*i >= n)
                return fail(out, PROM_E_LABELS, *i);
            c = p[(*i)++];
            if (c == '"')
                break;
            if (c == '\\') {
                if (*i >= n)
                    return fail(out, PROM_E_LABELS, *i);
                c = p[(*i)++];
                if (c == 'n')
                    c = '\n';
                else if (c != '\\' && c != '"')
                    return fail(out, PROM_E_LABELS, *i - 1);
            }
            /* the line is at most PROM_LINE_MAX, so this never overflows;
             * kept as a guard */
            if (used + 1 >= sizeof out->unescaped)
                return fail(out, PROM_E_LONG, *i);
            out->unescaped[used++] = c;
        }
        lb->value_len = (size_t)(out->unescaped + used - lb->value);
        out->unescaped[used++] = '\0';
        skip_space(p, n, i);
        if (*i < n && p[*i] == ',') {
            (*i)++;
            continue;
        }
        if (*i < n && p[*i] == '}') {
            (*i)++;
            return PROM_OK;
        }
        return fail(out, PROM_E_LABELS, *i);
    }
}

int prom_type_from_name(const char *text, size_t len)
{
    static const char *const names[] = {"untyped", "counter", "gauge",
                                        "histogram", "summary"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strlen(names[k]) == len && memcmp(text, names[k], len) == 0)
            return (int)k;
    return -1;
}

/* "# HELP name text", "# TYPE name type", or any other comment. */
static int parse_comment(const char *p, size_t n, size_t i,
                         struct prom_line *out)
{
    size_t start, klen = take_token(p, n, &i, &start), nstart, nlen;
    bool help = klen == 4 && memcmp(p + start, "HELP", 4) == 0;
    bool type = klen == 4 && memcmp(p + start, "TYPE", 4) == 0;
    out->kind = PROM_COMMENT;
    if (!help && !type)
        return PROM_OK;
    skip_space(p, n, &i);
    nstart = i;
    nlen = take_name(p, n, &i, true);
    if (nlen == 0 || (i < n && !is_space(p[i])))
        return fail(out, PROM_E_NAME, nstart);
    out->name = p + nstart;
    out->name_len = nlen;
    if (help) {
        if (i < n)
            i++; /* the one space before the text */
        out->kind = PROM_HELP;
        out->help = p + i;
        out->help_len = n - i;
        return PROM_OK;
    }
    {
        size_t tstart, tlen = take_token(p, n, &i, &tstart);
        int t = prom_type_from_name(p + tstart, tlen);
        if (t < 0)
            return fail(out, PROM_E_TYPE, tstart);
        skip_space(p, n, &i);
        if (i < n)
            return fail(out, PROM_E_TRAILING, i);
        out->kind = PROM_TYPE;
        out->type = (enum prom_type)t;
    }
    return PROM_OK;
}

int prom_parse_line(const char *line, size_t len, struct prom_line *out)
{
    size_t i = 0, start, tlen;
    out->kind = PROM_BLANK;
    out->name = NULL;
    out->name_len = 0;
    out->n_labels = 0;
    out->value = 0;
    out->has_timestamp = false;
    out->timestamp_ms = 0;
    out->type = PROM_UNTYPED;
    out->help = NULL;
    out->help_len = 0;
    out->err_col = 0;
    if (len > PROM_LINE_MAX)
        return fail(out, PROM_E_LONG, PROM_LINE_MAX);
    if (len > 0 && line[len - 1] == '\r')
        len--;
    skip_space(line, len, &i);
    if (i == len)
        return PROM_OK;
    if (line[i] == '#')
        return parse_comment(line, len, i + 1, out);
    start = i;
    out->name_len = take_name(line, len, &i, true);
    if (out->name_len == 0)
        return fail(out, PROM_E_NAME, start);
    out->name = line + start;
    out->kind = PROM_SAMPLE;
    skip_space(line, len, &i);
    if (i < len && line[i] == '{') {
        int rc;
        i++;
        rc = parse_labels(line, len, &i, out);
        if (rc)
            return rc;
    }
    tlen = take_token(line, len, &i, &start);
    if (!parse_value(line + start, tlen, &out->value))
        return fail(out, PROM_E_VALUE, start);
    tlen = take_token(line, len, &i, &start);
    if (tlen == 0)
        return PROM_OK;
    if (line[start] == '#') /* an OpenMetrics exemplar: not ours */
        return PROM_OK;
    if (!parse_timestamp(line + start, tlen, &out->timestamp_ms))
        return fail(out, PROM_E_TIMESTAMP, start);
    out->has_timestamp = true;
    tlen = take_token(line, len, &i, &start);
    if (tlen != 0 && line[start] != '#')
        return fail(out, PROM_E_TRAILING, start);
    return PROM_OK;
}

bool prom_next_line(const char *text, size_t len, size_t *pos,
                    const char **line, size_t *line_len)
{
    const char *nl;
    if (*pos >= len)
        return false;
    *line = text + *pos;
    nl = memchr(*line, '\n', len - *pos);
    *line_len = nl ? (size_t)(nl - *line) : len - *pos;
    *pos += *line_len + (nl ? 1 : 0);
    return true;
}

size_t prom_family_len(const char *name, size_t len)
{
    static const char *const suffixes[] = {"_bucket", "_sum", "_count",
                                           "_total", "_created"};
    for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++) {
        size_t s = strlen(suffixes[k]);
        if (len > s && memcmp(name + len - s, suffixes[k], s) == 0)
            return len - s;
    }
    return len;
}

const struct prom_label *prom_label_get(const struct prom_line *l,
                                        const char *name)
{
    size_t n = strlen(name);
    for (size_t k = 0; k < l->n_labels; k++)
        if (l->labels[k].name_len == n &&
            memcmp(l->labels[k].name, name, n) == 0)
            return &l->labels[k];
    return NULL;
}

const char *prom_strerror(int err)
{
    switch (err) {
    case PROM_OK:
        return "ok";
    case PROM_E_NAME:
        return "a metric or label name is missing or malformed";
    case PROM_E_LABELS:
        return "malformed label set";
    case PROM_E_VALUE:
        return "the value is missing or not a number";
    case PROM_E_TIMESTAMP:
        return "the timestamp is not an integer";
    case PROM_E_LONG:
        return "line too long";
    case PROM_E_TRAILING:
        return "unexpected text after the sample";
    case PROM_E_TYPE:
        return "unknown metric type";
    default:
        return "unknown error";
    }
}
