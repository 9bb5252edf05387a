/* run_scrapes: the run's --server-metrics scrapes, and their records. */
#include "run_scrapes.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "sanitize.h"

/* url as it may be stored: no user:password@, the key hidden. NULL when
 * out of memory. */
static char *shown_url(const char *url, const char *key)
{
    const char *p = strstr(url, "://"), *at, *end;
    char *plain, *out;
    if (!p)
        return sanitize_url(url, key);
    p += 3;
    end = p + strcspn(p, "/?#");
    at = memchr(p, '@', (size_t)(end - p));
    plain = strdup(url);
    if (!plain)
        return NULL;
    if (at) /* drop the credentials between :// and @ */
        memmove(plain + (p - url), plain + (at + 1 - url), strlen(at + 1) + 1);
    out = sanitize_url(plain, key);
    free(plain);
    return out;
}

int run_scrapes_open(struct run_scrapes *set, const struct run_setup *setup)
{
    const struct config *c = setup->cfg;
    struct scrape_config sc;
    memset(set, 0, sizeof *set);
    memset(&sc, 0, sizeof sc);
    /* the run's key goes to a metrics URL only when asked: it may be
     * another host than the API */
    sc.auth_header = c->server_metrics_send_key ? setup->auth_header : NULL;
    /* a scrape may take its interval, and 2 s at least */
    sc.timeout_ms = (long)(c->server_metrics_interval_s * 1000.0);
    if (sc.timeout_ms < 2000)
        sc.timeout_ms = 2000;
    set->timeout_ms = sc.timeout_ms;
    sc.insecure = c->insecure;
    sc.cacert = c->cacert;
    for (size_t i = 0; i < c->n_server_metrics && i < RUN_SCRAPES_MAX; i++) {
        struct http_proxy_choice pc;
        char *shown = shown_url(c->server_metrics[i], setup->key);
        int rc;
        if (!shown)
            return RUN_E_NOMEM;
        /* the proxy the environment names for this URL (its own no_proxy
         * verdict: the metrics host may differ from the API's) */
        if (http_proxy_choose(c->server_metrics[i], c->no_proxy,
                              http_proxy_process, &pc) == 0)
            sc.proxy = pc.url;
        else
            sc.proxy = "";
        rc = scrape_new(&sc, c->server_metrics[i], shown, &set->s[set->n]);
        free(shown);
        if (rc)
            return RUN_E_NOMEM;
        set->n++;
    }
    return RUN_OK;
}

/* Warns about a failed scrape once per URL and kind (a server that stays
 * down is one line, not one a second). */
static void warn_once(struct run_scrapes *set, size_t i,
                      const struct trace_server_metrics *m)
{
    if (strcmp(set->warned[i], m->error_kind) == 0)
        return;
    snprintf(set->warned[i], sizeof set->warned[i], "%s", m->error_kind);
    log_warn("--server-metrics %s: scrape failed (%s)%s%s; the run goes on, "
             "each failed scrape is recorded",
             m->url, m->error_kind, m->error_message ? ": " : "",
             m->error_message ? m->error_message : "");
}

/* Writes the record of scrape i, ended with code at end_ns. */
static int write_one(struct run_scrapes *set, size_t i, CURLcode code,
                     int64_t end_ns, const char *when, struct trace_writer *w)
{
    struct trace_server_metrics m;
    char kind[32], msg[CURL_ERROR_SIZE + 64];
    scrape_result(set->s[i], code, end_ns, when, &m, kind, sizeof kind, msg,
                  sizeof msg);
    set->done++;
    if (m.error_kind) {
        set->failed++;
        warn_once(set, i, &m);
    }
    return trace_write_server_metrics(w, &m);
}

/* Performs scrape i now, synchronously; *end_ns gets when it ended. */
static CURLcode perform(struct scrape *s, int64_t *end_ns)
{
    CURLcode code;
    scrape_begin(s, clock_mono_ns());
    code = scrape_perform(s);
    *end_ns = clock_mono_ns();
    return code;
}

void run_scrapes_before(struct run_scrapes *set, int64_t start_at_ns)
{
    for (size_t i = 0; i < set->n; i++) {
        long budget = set->timeout_ms;
        set->held[i] = true;
        if (start_at_ns) {
            int64_t left = (start_at_ns - clock_real_ns()) / 1000000 -
                           RUN_SCRAPES_START_MARGIN_MS;
            if (left < RUN_SCRAPES_MIN_MS) {
                log_warn("--server-metrics %s: no scrape before the run: "
                         "%lld ms were left before --start-at; the server's "
                         "state before the run is not recorded (the record "
                         "says \"skipped\")",
                         set->s[i]->shown,
                         (long long)(left > 0 ? left : 0) +
                             RUN_SCRAPES_START_MARGIN_MS);
                set->held_skipped[i] = true;
                set->held_end_ns[i] = clock_mono_ns();
                continue;
            }
            if (left < budget)
                budget = (long)left; /* fits before the instant */
        }
        curl_easy_setopt(set->s[i]->easy, CURLOPT_TIMEOUT_MS, budget);
        set->held_code[i] = perform(set->s[i], &set->held_end_ns[i]);
        curl_easy_setopt(set->s[i]->easy, CURLOPT_TIMEOUT_MS, set->timeout_ms);
        if (budget < set->timeout_ms &&
            set->held_code[i] == CURLE_OPERATION_TIMEDOUT)
            log_warn("--server-metrics %s: the scrape before the run was "
                     "cut at %ld ms to be ready for --start-at",
                     set->s[i]->shown, budget);
    }
}

/* The record of a "before" scrape skipped for want of time. */
static int write_skipped(struct run_scrapes *set, size_t i,
                         struct trace_writer *w)
{
    struct trace_server_metrics m;
    memset(&m, 0, sizeof m);
    m.url = set->s[i]->shown;
    m.when = "before";
    m.start_ns = m.end_ns = set->held_end_ns[i];
    m.error_kind = "skipped";
    m.error_message = "no time left before --start-at";
    set->done++;
    set->failed++;
    return trace_write_server_metrics(w, &m);
}

int run_scrapes_write_held(struct run_scrapes *set, struct trace_writer *w)
{
    int err = 0;
    for (size_t i = 0; i < set->n; i++) {
        if (!set->held[i])
            continue;
        set->held[i] = false;
        if (!err && set->held_skipped[i])
            err = write_skipped(set, i, w);
        else if (!err)
            err = write_one(set, i, set->held_code[i], set->held_end_ns[i],
                            "before", w);
    }
    return err;
}

size_t run_scrapes_start(struct run_scrapes *set, struct evloop *loop,
                         int64_t now_ns)
{
    size_t started = 0;
    for (size_t i = 0; i < set->n; i++) {
        struct scrape *s = set->s[i];
        if (s->busy) {
            set->skipped_busy++;
            continue;
        }
        scrape_begin(s, now_ns);
        if (evloop_add(loop, s->easy) != EVLOOP_OK) {
            s->busy = false;
            continue;
        }
        started++;
    }
    return started;
}

bool run_scrapes_owns(const struct run_scrapes *set, const CURL *easy)
{
    for (size_t i = 0; i < set->n; i++)
        if (set->s[i]->easy == easy)
            return true;
    return false;
}

int run_scrapes_done(struct run_scrapes *set, CURL *easy, CURLcode code,
                     int64_t end_ns, struct trace_writer *w)
{
    for (size_t i = 0; i < set->n; i++)
        if (set->s[i]->easy == easy)
            return write_one(set, i, code, end_ns, "during", w);
    return 0;
}

int run_scrapes_after(struct run_scrapes *set, struct evloop *loop,
                      struct trace_writer *w)
{
    int err = 0;
    for (size_t i = 0; i < set->n; i++) {
        struct scrape *s = set->s[i];
        int64_t end_ns;
        CURLcode code;
        if (s->busy) {
            evloop_remove(loop, s->easy);
            s->busy = false;
        }
        code = perform(s, &end_ns);
        if (!err)
            err = write_one(set, i, code, end_ns, "after", w);
    }
    if (set->failed)
        log_warn("--server-metrics: %llu of %llu scrapes failed (recorded "
                 "with their kind)",
                 (unsigned long long)set->failed,
                 (unsigned long long)set->done);
    return err;
}

void run_scrapes_close(struct run_scrapes *set)
{
    for (size_t i = 0; i < set->n; i++)
        scrape_free(set->s[i]);
    set->n = 0;
}

void run_scrapes_cancel(struct run_scrapes *set, struct evloop *loop)
{
    for (size_t i = 0; i < set->n; i++)
        if (set->s[i]->busy)
            evloop_remove(loop, set->s[i]->easy);
}
