/* cli_sweep: parses --sweep concurrency=1,2,4 / rate=1:8:1. */
#include "cli_sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"

const char *cli_sweep_mode_name(enum sweep_mode m)
{
    return m == SWEEP_CONCURRENCY ? "concurrency"
           : m == SWEEP_RATE      ? "rate"
                                  : "";
}

/* Parses one load number from s up to end (exclusive). Returns 0 or -1. */
static int parse_load(const char *s, const char *end, enum sweep_mode mode,
                      double *out)
{
    char tmp[64], *stop;
    size_t len = (size_t)(end - s);
    double d;
    if (len == 0 || len >= sizeof tmp || *s == '-' || *s == '+')
        return -1;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    errno = 0;
    d = strtod(tmp, &stop);
    if (stop == tmp || *stop || errno || !isfinite(d) || d <= 0)
        return -1;
    if (mode == SWEEP_CONCURRENCY && (d != floor(d) || d > 100000))
        return -1;
    if (mode == SWEEP_RATE && d > 1e6)
        return -1;
    *out = d;
    return 0;
}

/* START:STOP:STEP into out. Returns 0 or -1 with err filled. */
static int parse_range(const char *s, struct cli_sweep *out, char *err,
                       size_t errlen)
{
    const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    double a, b, step;
    size_t i;
    if (!c2 || strchr(c2 + 1, ':') || parse_load(s, c1, out->mode, &a) ||
        parse_load(c1 + 1, c2, out->mode, &b) ||
        parse_load(c2 + 1, c2 + 1 + strlen(c2 + 1), out->mode, &step)) {
        snprintf(err, errlen,
                 "--sweep: '%s' is not START:STOP:STEP with loads above 0%s", s,
                 out->mode == SWEEP_CONCURRENCY ? " (whole numbers)" : "");
        return -1;
    }
    if (b < a) {
        snprintf(err, errlen, "--sweep: STOP is below START in '%s'", s);
        return -1;
    }
    /* a small tolerance so 0.1:0.3:0.1 reaches 0.3 */
    for (i = 0; a + (double)i * step <= b * (1 + 1e-9); i++) {
        if (i == CLI_MAX_STAGES) {
            snprintf(err, errlen, "--sweep: more than %d stages in '%s'",
                     CLI_MAX_STAGES, s);
            return -1;
        }
        out->loads[i] = a + (double)i * step;
    }
    out->n = i;
    return 0;
}

int cli_sweep_parse(const char *v, struct cli_sweep *out, char *err,
                    size_t errlen)
{
    const char *list, *p;
    memset(out, 0, sizeof *out);
    if (strncmp(v, "concurrency=", 12) == 0) {
        out->mode = SWEEP_CONCURRENCY;
        list = v + 12;
    } else if (strncmp(v, "rate=", 5) == 0) {
        out->mode = SWEEP_RATE;
        list = v + 5;
    } else {
        snprintf(err, errlen,
                 "--sweep: '%s' is not concurrency=LOADS or rate=LOADS "
                 "(LOADS: 1,2,4,8 or START:STOP:STEP)",
                 v);
        return -1;
    }
    if (strchr(list, ':'))
        return parse_range(list, out, err, errlen);
    for (p = list;;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        if (out->n == CLI_MAX_STAGES) {
            snprintf(err, errlen, "--sweep: more than %d stages",
                     CLI_MAX_STAGES);
            return -1;
        }
        if (parse_load(p, end, out->mode, &out->loads[out->n])) {
            snprintf(err, errlen, "--sweep: '%.*s' is not a %s", (int)(end - p),
                     p,
                     out->mode == SWEEP_CONCURRENCY
                         ? "concurrency from 1 to 100000"
                         : "rate in requests/s above 0 (at most 1e6)");
            return -1;
        }
        out->n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    return 0;
}

/* One key=value of --search into out. Returns 0 or -1 with err filled. */
static int search_key(const char *item, size_t len, struct cli_search *out,
                      char *err, size_t errlen)
{
    char tmp[64], *stop;
    const char *eq = memchr(item, '=', len);
    size_t klen = eq ? (size_t)(eq - item) : len;
    const char *val;
    double d;
    if (!eq || len >= sizeof tmp) {
        snprintf(err, errlen, "--search: '%.*s' is not key=value", (int)len,
                 item);
        return -1;
    }
    memcpy(tmp, eq + 1, len - klen - 1);
    tmp[len - klen - 1] = '\0';
    val = tmp;
    if (klen == 4 && strncmp(item, "ttft", 4) == 0) {
        if (duration_parse(val, DURATION_NONE, DURATION_MS, &d) || d <= 0)
            goto bad;
        out->ttft_ms = d;
    } else if (klen == 6 && strncmp(item, "attain", 6) == 0) {
        errno = 0;
        d = strtod(val, &stop);
        if (stop == val || errno || !isfinite(d))
            goto bad;
        if (*stop == '%' && stop[1] == '\0')
            d /= 100;
        else if (*stop)
            goto bad;
        if (d <= 0 || d > 1)
            goto bad;
        out->attain = d;
    } else if (klen == 6 && strncmp(item, "stages", 6) == 0) {
        errno = 0;
        d = strtod(val, &stop);
        if (stop == val || *stop || errno || d < 1 || d > 64 || d != floor(d))
            goto bad;
        out->max_stages = (unsigned)d;
    } else if (klen == 9 && strncmp(item, "precision", 9) == 0) {
        errno = 0;
        d = strtod(val, &stop);
        if (stop == val || *stop || errno || !(d > 0 && d < 1))
            goto bad;
        out->precision = d;
    } else {
        snprintf(err, errlen,
                 "--search: unknown key '%.*s' (ttft, attain, stages, "
                 "precision)",
                 (int)klen, item);
        return -1;
    }
    return 0;
bad:
    snprintf(err, errlen, "--search: bad value '%s' for %.*s", val, (int)klen,
             item);
    return -1;
}

int cli_search_parse(const char *v, struct cli_search *out, char *err,
                     size_t errlen)
{
    const char *p, *comma = strchr(v, ',');
    struct cli_sweep first;
    char head[64];
    size_t hlen = comma ? (size_t)(comma - v) : strlen(v);
    memset(out, 0, sizeof *out);
    out->attain = 0.99;
    out->max_stages = 10;
    out->precision = 0.1;
    if (hlen >= sizeof head || strchr(v, ':')) {
        snprintf(err, errlen, "--search: '%s' is not MODE=START,ttft=DUR[,...]",
                 v);
        return -1;
    }
    memcpy(head, v, hlen);
    head[hlen] = '\0';
    if (cli_sweep_parse(head, &first, err, errlen))
        return -1;
    if (first.n != 1) {
        snprintf(err, errlen,
                 "--search: one starting load (concurrency=1 or rate=2), "
                 "then ttft=DUR");
        return -1;
    }
    out->mode = first.mode;
    out->start = first.loads[0];
    for (p = comma; p; p = strchr(p + 1, ',')) {
        const char *next = strchr(p + 1, ',');
        size_t len = next ? (size_t)(next - p - 1) : strlen(p + 1);
        if (search_key(p + 1, len, out, err, errlen))
            return -1;
    }
    if (out->ttft_ms <= 0) {
        snprintf(err, errlen,
                 "--search needs ttft=DUR: the live limit each probe is "
                 "judged by (rate=2,ttft=500ms)");
        return -1;
    }
    return 0;
}
