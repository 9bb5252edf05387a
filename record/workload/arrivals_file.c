/* arrivals_file: Azure-style CSV and Mooncake-style JSON Lines arrival
 * traces, each line checked and named when it is malformed. */
#include "arrivals_file.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define LINE_MAX_BYTES (1 << 20)
#define CSV_MAX_COLS 64

/* Appends one arrival (t in seconds, lengths or -1). Returns 0 or -1. */
static int push(struct arrivals_file *a, double t, int64_t in, int64_t out)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 1024;
        int64_t *p = realloc(a->at_ns, cap * sizeof *p);
        int64_t *q = p ? realloc(a->input, cap * sizeof *q) : NULL;
        int64_t *r = q ? realloc(a->output, cap * sizeof *r) : NULL;
        if (p)
            a->at_ns = p;
        if (q)
            a->input = q;
        if (!r)
            return -1;
        a->output = r;
        a->cap = cap;
    }
    a->at_ns[a->n] = (int64_t)llround(t * 1e9); /* seconds for now */
    a->input[a->n] = in;
    a->output[a->n] = out;
    a->n++;
    return 0;
}

/* A whole number of tokens in [0, ARRIVALS_MAX_TOKENS]. */
static int parse_tokens(const char *s, int64_t *out)
{
    char *end;
    double d;
    errno = 0;
    d = strtod(s, &end);
    while (end && isspace((unsigned char)*end))
        end++;
    if (end == s || *end || errno || d < 0 || d > ARRIVALS_MAX_TOKENS ||
        d != floor(d))
        return -1;
    *out = (int64_t)d;
    return 0;
}

/* "2023-11-16 18:15:46.6805900" (UTC; a 'T' may replace the space) or a
 * number of seconds. */
static int parse_time(const char *s, double *out)
{
    struct tm tm;
    char *end;
    int y, mo, d, h, mi, n = 0;
    double sec;
    errno = 0;
    *out = strtod(s, &end);
    if (end != s && !errno && isfinite(*out) && *out >= 0 &&
        *out <= ARRIVALS_MAX_SECONDS &&
        (*end == '\0' || isspace((unsigned char)*end)) && !strchr(s, '-'))
        return 0;
    if (sscanf(s, "%4d-%2d-%2d%*1[ T]%2d:%2d:%lf%n", &y, &mo, &d, &h, &mi, &sec,
               &n) != 6 ||
        (s[n] && !isspace((unsigned char)s[n]) && s[n] != 'Z') || mo < 1 ||
        mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec < 0 || sec >= 61)
        return -1;
    memset(&tm, 0, sizeof tm);
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    {
        time_t t = timegm(&tm);
        struct tm back;
        /* a day the month does not have: timegm moves it on */
        if (t == (time_t)-1 || !gmtime_r(&t, &back) || back.tm_mday != d ||
            back.tm_mon != mo - 1)
            return -1;
        *out = (double)t + sec;
    }
    return 0;
}

/* Splits a CSV line in place at commas (no quoting: these traces have
 * none); trims spaces. Returns the number of fields. */
static size_t split(char *line, char **f, size_t max)
{
    size_t n = 0;
    char *p = line;
    while (n < max) {
        char *c = strchr(p, ',');
        char *e;
        if (c)
            *c = '\0';
        while (isspace((unsigned char)*p))
            p++;
        e = p + strlen(p);
        while (e > p && isspace((unsigned char)e[-1]))
            *--e = '\0';
        f[n++] = p;
        if (!c)
            break;
        p = c + 1;
    }
    return n;
}

/* The column of the first of names in the header, or -1. */
static int column(char **f, size_t n, const char *const *names)
{
    for (const char *const *nm = names; *nm; nm++)
        for (size_t i = 0; i < n; i++)
            if (strcasecmp(f[i], *nm) == 0)
                return (int)i;
    return -1;
}

struct csv_cols {
    int t, in, out;
};

static const char *const t_names[] = {"TIMESTAMP", "timestamp", "time",
                                      "arrival_time", NULL};
static const char *const in_names[] = {"ContextTokens", "input_length",
                                       "input_tokens", NULL};
static const char *const out_names[] = {"GeneratedTokens", "output_length",
                                        "output_tokens", NULL};

/* One CSV data line. Returns 0 or -1 with the reason in why. */
static int csv_line(char *line, const struct csv_cols *c,
                    struct arrivals_file *a, char *why, size_t wl)
{
    char *f[CSV_MAX_COLS];
    size_t n = split(line, f, CSV_MAX_COLS);
    int64_t in = -1, out = -1;
    double t;
    int need = c->t > c->in ? c->t : c->in;
    if (c->out > need)
        need = c->out;
    if ((int)n <= need) {
        snprintf(why, wl, "%zu fields, the header has more", n);
        return -1;
    }
    if (parse_time(f[c->t], &t)) {
        snprintf(why, wl,
                 "timestamp '%.40s' is not seconds (at most %.0e) or a "
                 "date-time (2023-11-16 18:15:46.68)",
                 f[c->t], ARRIVALS_MAX_SECONDS);
        return -1;
    }
    if (c->in >= 0 && parse_tokens(f[c->in], &in)) {
        snprintf(why, wl, "input tokens '%.40s' is not a count", f[c->in]);
        return -1;
    }
    if (c->out >= 0 && parse_tokens(f[c->out], &out)) {
        snprintf(why, wl, "output tokens '%.40s' is not a count", f[c->out]);
        return -1;
    }
    return push(a, t, in, out) ? (snprintf(why, wl, "out of memory"), -1) : 0;
}

/* One JSON line: "timestamp" in ms, optional lengths. */
static int json_line(const char *line, struct arrivals_file *a, char *why,
                     size_t wl)
{
    cJSON *j = cJSON_Parse(line);
    const cJSON *t, *in, *out;
    int64_t ni = -1, no = -1;
    int rc = -1;
    if (!j || !cJSON_IsObject(j)) {
        snprintf(why, wl, "not a JSON object");
        goto out;
    }
    t = cJSON_GetObjectItemCaseSensitive(j, "timestamp");
    in = cJSON_GetObjectItemCaseSensitive(j, "input_length");
    out = cJSON_GetObjectItemCaseSensitive(j, "output_length");
    if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble) || t->valuedouble < 0) {
        snprintf(why, wl, "no \"timestamp\" (milliseconds, a number >= 0)");
        goto out;
    }
    if (t->valuedouble > ARRIVALS_MAX_SECONDS * 1000.0) {
        snprintf(why, wl,
                 "\"timestamp\" %g ms is past the largest time (%.0e s)",
                 t->valuedouble, ARRIVALS_MAX_SECONDS);
        goto out;
    }
    if (in && (!cJSON_IsNumber(in) || in->valuedouble < 0 ||
               in->valuedouble > ARRIVALS_MAX_TOKENS ||
               in->valuedouble != floor(in->valuedouble))) {
        snprintf(why, wl, "\"input_length\" is not a count");
        goto out;
    }
    if (out && (!cJSON_IsNumber(out) || out->valuedouble < 0 ||
                out->valuedouble > ARRIVALS_MAX_TOKENS ||
                out->valuedouble != floor(out->valuedouble))) {
        snprintf(why, wl, "\"output_length\" is not a count");
        goto out;
    }
    if (in)
        ni = (int64_t)in->valuedouble;
    if (out)
        no = (int64_t)out->valuedouble;
    if (push(a, t->valuedouble / 1000.0, ni, no)) {
        snprintf(why, wl, "out of memory");
        goto out;
    }
    rc = 0;
out:
    cJSON_Delete(j);
    return rc;
}

/* Makes the times offsets from the first, divided by speed; refuses a
 * time before the one above it and a gap, after speed, of more than
 * ARRIVALS_MAX_GAP_S. Returns 0 or the 1-based index of the arrival that
 * goes back (*gap_s 0) or comes after the long gap (*gap_s its length). */
static size_t to_offsets(struct arrivals_file *a, double speed, double *gap_s)
{
    int64_t first = a->n ? a->at_ns[0] : 0;
    *gap_s = 0;
    for (size_t i = 1; i < a->n; i++) {
        double gap = (double)(a->at_ns[i] - a->at_ns[i - 1]) / speed / 1e9;
        if (a->at_ns[i] < a->at_ns[i - 1])
            return i + 1;
        if (gap > ARRIVALS_MAX_GAP_S) {
            *gap_s = gap;
            return i + 1;
        }
    }
    for (size_t i = 0; i < a->n; i++)
        a->at_ns[i] = (int64_t)llround((double)(a->at_ns[i] - first) / speed);
    return 0;
}

int arrivals_file_load(const char *path, double speed,
                       struct arrivals_file *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char *line = malloc(LINE_MAX_BYTES), why[160];
    size_t lineno = 0, *data_line = NULL, back;
    double gap;
    struct csv_cols cols = {-1, -1, -1};
    bool json = false, header = false;
    int rc = -1;
    memset(out, 0, sizeof *out);
    if (!f || !line) {
        snprintf(err, errlen, "%s: cannot read: %s", path,
                 f ? "out of memory" : strerror(errno));
        goto done;
    }
    while (fgets(line, LINE_MAX_BYTES, f)) {
        size_t len = strlen(line);
        lineno++;
        if (len == LINE_MAX_BYTES - 1 && line[len - 1] != '\n') {
            snprintf(err, errlen, "%s:%zu: line longer than %d bytes", path,
                     lineno, LINE_MAX_BYTES - 2);
            goto done;
        }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        if (!header && !json) {
            char *fields[CSV_MAX_COLS];
            size_t n;
            if (line[0] == '{') {
                json = true;
            } else {
                n = split(line, fields, CSV_MAX_COLS);
                cols.t = column(fields, n, t_names);
                cols.in = column(fields, n, in_names);
                cols.out = column(fields, n, out_names);
                if (cols.t < 0) {
                    snprintf(err, errlen,
                             "%s:%zu: a CSV header with a TIMESTAMP column "
                             "(and ContextTokens, GeneratedTokens), or JSON "
                             "lines with \"timestamp\", expected",
                             path, lineno);
                    goto done;
                }
                header = true;
                continue;
            }
        }
        if (out->n == ARRIVALS_MAX_LINES) {
            snprintf(err, errlen, "%s:%zu: more than %zu arrivals", path,
                     lineno, ARRIVALS_MAX_LINES);
            goto done;
        }
        if (json ? json_line(line, out, why, sizeof why)
                 : csv_line(line, &cols, out, why, sizeof why)) {
            snprintf(err, errlen, "%s:%zu: %s", path, lineno, why);
            goto done;
        }
        /* the line of each arrival, to name one that goes back in time */
        size_t *p = realloc(data_line, out->cap * sizeof *p);
        if (!p) {
            snprintf(err, errlen, "%s: out of memory", path);
            goto done;
        }
        data_line = p;
        data_line[out->n - 1] = lineno;
    }
    if (ferror(f)) {
        snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
        goto done;
    }
    if (out->n == 0) {
        snprintf(err, errlen, "%s: no arrivals in the file", path);
        goto done;
    }
    back = to_offsets(out, speed > 0 ? speed : 1, &gap);
    if (back && gap > 0) {
        snprintf(err, errlen,
                 "%s:%zu: %.0f s after the arrival before it (at --speed "
                 "%g): a run would wait that long; gaps of at most %d s are "
                 "replayed (a larger --speed shortens them)",
                 path, data_line[back - 1], gap, speed > 0 ? speed : 1,
                 ARRIVALS_MAX_GAP_S);
        goto done;
    }
    if (back) {
        snprintf(err, errlen,
                 "%s:%zu: the time goes back (arrivals must be in time "
                 "order)",
                 path, data_line[back - 1]);
        goto done;
    }
    rc = 0;
done:
    if (rc)
        arrivals_file_free(out);
    free(data_line);
    free(line);
    if (f)
        fclose(f);
    return rc;
}

void arrivals_file_free(struct arrivals_file *a)
{
    if (!a)
        return;
    free(a->at_ns);
    free(a->input);
    free(a->output);
    memset(a, 0, sizeof *a);
}
