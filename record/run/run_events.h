/* run_events: the run's libevent plumbing: the event base, the curl multi
 * loop on it, and the loop's own events (the tick, the open-loop pace
 * timer, the --duration deadline, the --server-metrics scrape timer),
 * made and freed here with the callbacks run_loop.c hands over. It arms
 * only the tick; run_loop.c arms the rest and decides. Not for use
 * outside record/run. */
#ifndef TT_RECORD_RUN_EVENTS_H
#define TT_RECORD_RUN_EVENTS_H

#include <event2/event.h>
#include <stdbool.h>
#include <stdint.h>

#include "event_loop.h"

struct run_events {
    struct event_base *base;
    struct evloop *loop;
    struct event *tick;         /* persistent, every tick_us */
    struct event *pace;         /* open loop: the next request is due */
    struct event *deadline;     /* --duration */
    struct event *scrape_timer; /* --server-metrics: scrape now, or NULL */
};

/* The callbacks of the events, each called with arg. */
struct run_events_cb {
    evloop_done_fn done; /* a transfer ended */
    event_callback_fn tick, pace, deadline, scrape;
    void *arg;
};

/* Makes ev: a base with precise (sub-ms) timers when precise is true, the
 * multi loop, the events (the scrape timer only when scrapes is true),
 * and arms the tick every tick_us. Returns 0, or -1 (call
 * run_events_close either way). */
int run_events_open(struct run_events *ev, bool precise, bool scrapes,
                    int64_t tick_us, const struct run_events_cb *cb);

/* Frees what run_events_open made (remove the transfers from the loop and
 * free the other events on the base first). Safe on a zeroed or partly
 * made ev. */
void run_events_close(struct run_events *ev);

#endif
