/* fail_on: `--fail-on ttft_p99=+10%,tpot_p50=+2ms` of compare and trend:
 * the changes beyond which CI should fail (exit FAIL_ON_EXIT), parsed once
 * and checked against base and new values by both commands. */
#ifndef TT_FAIL_ON_H
#define TT_FAIL_ON_H

#include <stdbool.h>
#include <stddef.h>

/* The exit code of a run whose changes break a --fail-on rule (0 success,
 * 1 failure or damage, 2 usage error are taken). */
#define FAIL_ON_EXIT 3
#define FAIL_ON_MAX_RULES 16

struct fail_rule {
    char metric[16]; /* "ttft", "tpot", "itl", "latency" */
    int stat;        /* 50, 90 or 99 */
    double limit;    /* percent (percent true) or ms */
    bool percent;
};

struct fail_on {
    struct fail_rule rules[FAIL_ON_MAX_RULES];
    size_t n;
};

/* The one parser of METRIC_pSTAT (ttft_p99, itl_p99.9), of --fail-on and
 * compare --metric: the len bytes at s split at their last '_' into the
 * metric name (into metric, size bytes; not checked against a list) and
 * the percentile after "p", a number above 0 and below 100, into *q.
 * Returns 0, or -1 with a one-line reason naming the item in err. */
int metric_stat_parse(const char *s, size_t len, char *metric, size_t size,
                      double *q, char *err, size_t err_size);

/* Parses a comma list of METRIC_pSTAT=+N% or METRIC_pSTAT=+DURATION
 * (ttft_p99=+10%, latency_p50=+200ms). Returns 0, or -1 with a one-line
 * reason in err. */
int fail_on_parse(const char *spec, struct fail_on *f, char *err,
                  size_t err_size);

/* True when the change from base to new_ (ms) rises beyond r's limit; NaN
 * on either side is never a regression. */
bool fail_rule_broken(const struct fail_rule *r, double base, double new_);

/* The rule as written ("ttft_p99=+10%") into out. */
void fail_rule_text(const struct fail_rule *r, char *out, size_t size);

#endif
