/* fail_on: parsing and checking --fail-on thresholds. */
#include "fail_on.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"

int metric_stat_parse(const char *s, size_t len, char *metric, size_t size,
                      double *q, char *err, size_t err_size)
{
    const char *us = NULL, *stat;
    char num[16], *end;
    size_t n_metric, n_stat;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '_')
            us = s + i;
    if (!us || us == s || us + 1 == s + len || us[1] != 'p') {
        snprintf(err, err_size, "'%.*s' is not METRIC_pSTAT (ttft_p99)",
                 (int)len, s);
        return -1;
    }
    n_metric = (size_t)(us - s);
    stat = us + 2;
    n_stat = len - n_metric - 2;
    if (n_metric >= size || n_stat == 0 || n_stat >= sizeof num) {
        snprintf(err, err_size, "'%.*s' is not METRIC_pSTAT (ttft_p99)",
                 (int)len, s);
        return -1;
    }
    memcpy(num, stat, n_stat);
    num[n_stat] = '\0';
    *q = strtod(num, &end);
    /* digits and one '.', no sign, exponent or space: p95, p99.9 */
    if (*end || strspn(num, "0123456789.") != n_stat || !(*q > 0) ||
        !(*q < 100)) {
        snprintf(err, err_size,
                 "'p%s' of '%.*s' is not a percentile above 0 and below 100 "
                 "(p50, p95, p99.9)",
                 num, (int)len, s);
        return -1;
    }
    memcpy(metric, s, n_metric);
    metric[n_metric] = '\0';
    return 0;
}

/* Parses one "METRIC_pSTAT=+LIMIT" of len bytes into r. */
static int parse_rule(const char *s, size_t len, struct fail_rule *r, char *err,
                      size_t err_size)
{
    char item[64], why[200], *eq, *end;
    double v, q;
    if (len >= sizeof item) {
        snprintf(err, err_size, "--fail-on: '%.*s' is too long", (int)len, s);
        return -1;
    }
    memcpy(item, s, len);
    item[len] = '\0';
    eq = strchr(item, '=');
    if (!eq) {
        snprintf(err, err_size,
                 "--fail-on: '%s' is not METRIC_pSTAT=+LIMIT "
                 "(ttft_p99=+10%%)",
                 item);
        return -1;
    }
    if (metric_stat_parse(item, (size_t)(eq - item), r->metric,
                          sizeof r->metric, &q, why, sizeof why)) {
        snprintf(err, err_size, "--fail-on: %s", why);
        return -1;
    }
    if (q != 50 && q != 90 && q != 99) {
        snprintf(err, err_size, "--fail-on: 'p%g' is not p50, p90 or p99", q);
        return -1;
    }
    r->stat = (int)q;
    if (eq[1] != '+') {
        snprintf(err, err_size,
                 "--fail-on: the limit '%s' needs a '+' (a rise: +10%% or "
                 "+50ms)",
                 eq + 1);
        return -1;
    }
    len = strlen(eq + 2);
    r->percent = len > 0 && eq[2 + len - 1] == '%';
    if (r->percent) {
        v = strtod(eq + 2, &end);
        if (end == eq + 2 || end != eq + 2 + len - 1 || !isfinite(v) || v < 0) {
            snprintf(err, err_size, "--fail-on: '%s' is not a percentage",
                     eq + 1);
            return -1;
        }
    } else if (duration_parse(eq + 2, DURATION_NONE, DURATION_MS, &v) != 0) {
        snprintf(err, err_size, "--fail-on: '%s' is not +N%% or +DURATION (%s)",
                 eq + 1, DURATION_UNITS);
        return -1;
    }
    r->limit = v;
    return 0;
}

int fail_on_parse(const char *spec, struct fail_on *f, char *err,
                  size_t err_size)
{
    const char *p = spec;
    f->n = 0;
    while (p && *p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (f->n == FAIL_ON_MAX_RULES) {
            snprintf(err, err_size, "--fail-on: at most %d rules",
                     FAIL_ON_MAX_RULES);
            return -1;
        }
        if (parse_rule(p, len, &f->rules[f->n], err, err_size))
            return -1;
        f->n++;
        p = comma ? comma + 1 : NULL;
    }
    if (f->n == 0) {
        snprintf(err, err_size, "--fail-on: no rule given (ttft_p99=+10%%)");
        return -1;
    }
    return 0;
}

bool fail_rule_broken(const struct fail_rule *r, double base, double new_)
{
    if (isnan(base) || isnan(new_))
        return false;
    if (r->percent)
        return base > 0 && (new_ - base) / base * 100.0 > r->limit;
    return new_ - base > r->limit;
}

void fail_rule_text(const struct fail_rule *r, char *out, size_t size)
{
    snprintf(out, size, "%s_p%d=+%g%s", r->metric, r->stat, r->limit,
             r->percent ? "%" : "ms");
}
