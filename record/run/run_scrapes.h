/* run_scrapes: the run's --server-metrics scrapes, one per URL: made at
 * the start, one synchronous scrape before the run's clock starts (its
 * record held until the header is written) and one after the last
 * request, and in between scrapes on the event loop when run_loop.c's
 * timer says so. A failed scrape is recorded with its kind and warned
 * about once per URL and kind; it never stops the run. It reports facts
 * (a trace write error) and never decides when to scrape: run_loop.c does.
 * Not for use outside record/run. */
#ifndef TT_RECORD_RUN_SCRAPES_H
#define TT_RECORD_RUN_SCRAPES_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "event_loop.h"
#include "run.h"
#include "scrape.h"

#define RUN_SCRAPES_MAX CLI_MAX_SERVER_METRICS
#define RUN_SCRAPES_START_MARGIN_MS 200 /* kept free before --start-at */
#define RUN_SCRAPES_MIN_MS 100          /* a scrape given less is skipped */

struct run_scrapes {
    struct scrape *s[RUN_SCRAPES_MAX];
    size_t n;
    bool held[RUN_SCRAPES_MAX]; /* the "before" scrape awaits its record */
    CURLcode held_code[RUN_SCRAPES_MAX];
    int64_t held_end_ns[RUN_SCRAPES_MAX];
    /* --start-at: the "before" scrape not made, for want of time; its
     * record says so (error kind "skipped") */
    bool held_skipped[RUN_SCRAPES_MAX];
    char warned[RUN_SCRAPES_MAX][32]; /* the last kind warned about */
    long timeout_ms;                  /* a scrape's own time limit */
    uint64_t done, failed, skipped_busy;
};

/* Makes one scrape per --server-metrics URL of setup (no URLs: n = 0).
 * Returns RUN_OK or RUN_E_NOMEM; call run_scrapes_close either way. */
int run_scrapes_open(struct run_scrapes *set, const struct run_setup *setup);

/* The scrapes before the run: each performed now, synchronously (no
 * request is in flight), its record held for run_scrapes_write_held.
 * With start_at_ns (CLOCK_REALTIME, 0: none) they must not make the
 * process late for it: each gets at most the time left before the
 * instant less RUN_SCRAPES_START_MARGIN_MS, and one with less than
 * RUN_SCRAPES_MIN_MS left is skipped (warned, and recorded as kind
 * "skipped"). */
void run_scrapes_before(struct run_scrapes *set, int64_t start_at_ns);

/* Writes the held "before" records (after the trace header). Returns 0 or
 * the first trace error. */
int run_scrapes_write_held(struct run_scrapes *set, struct trace_writer *w);

/* Starts, on loop, every scrape not still running from the last time
 * (those are counted as skipped: a slow endpoint never piles up
 * scrapes). Returns how many started. */
size_t run_scrapes_start(struct run_scrapes *set, struct evloop *loop,
                         int64_t now_ns);

/* True when easy is one of the set's scrapes. */
bool run_scrapes_owns(const struct run_scrapes *set, const CURL *easy);

/* A scrape on the loop ended (code: libcurl's): writes its record.
 * Returns 0 or the trace error. */
int run_scrapes_done(struct run_scrapes *set, CURL *easy, CURLcode code,
                     int64_t end_ns, struct trace_writer *w);

/* Stops the scrapes still on loop (unrecorded: the "after" scrape takes
 * their place), then performs the "after" scrapes and writes them.
 * Returns 0 or the first trace error. */
int run_scrapes_after(struct run_scrapes *set, struct evloop *loop,
                      struct trace_writer *w);

/* Frees the scrapes (remove them from the loop first:
 * run_scrapes_after). */
void run_scrapes_close(struct run_scrapes *set);

/* Takes the scrapes still running off loop (a run that failed
 * mid-scrape), before run_scrapes_close. */
void run_scrapes_cancel(struct run_scrapes *set, struct evloop *loop);

#endif
