/* run_pacer: the open-loop pacer (when the next request is due, how long
 * to sleep) and the arithmetic of the timers that carry it, as facts: a
 * wait handed to a libevent timer (run_timer_after), a timer armed never
 * before its due time (run_timer_at), and whether a request went idle
 * (run_timer_idle). It arms what it is told to and decides
 * nothing: run_loop.c does. */
#ifndef TT_RECORD_RUN_PACER_H
#define TT_RECORD_RUN_PACER_H

#include <event2/event.h>
#include <stdbool.h>
#include <stdint.h>

#include "arrival.h"
#include "cli.h"
#include "transfer.h"

/* At the in-flight cap the pacer looks again after this; the lateness
 * shows in start_ns - scheduled_ns. */
#define RUN_PACER_CAP_WAIT_NS 1000000

/* Open loop: when requests are due (--rate, --arrival, --seed). */
struct run_pacer {
    struct arrival arrival;
    int64_t zero_ns;     /* arrivals are offsets from this (the run's start) */
    int64_t next_due_ns; /* when the next request is due */
    uint32_t step;       /* --shard: arrivals per request kept (1: all) */
};

/* Starts cfg's arrivals at zero_ns and draws the first due time. */
void run_pacer_init(struct run_pacer *p, const struct config *cfg,
                    int64_t zero_ns);

/* Starts arrivals of rate requests/s with cfg's kind, burstiness and
 * ramp (seeded by seed) at zero_ns, as for one stage of a sweep, and draws
 * the first due time. */
void run_pacer_start(struct run_pacer *p, const struct config *cfg, double rate,
                     uint64_t seed, int64_t zero_ns);

/* Starts arrivals at the n offsets at_ns (borrowed) from zero_ns
 * (--arrivals) and draws the first due time. */
void run_pacer_start_list(struct run_pacer *p, const int64_t *at_ns, uint64_t n,
                          int64_t zero_ns);

/* --shard I/N: of the arrivals just started, keeps the ones of requests
 * k with k % n == i (the same global schedule on every shard): skips to
 * arrival i and then steps by n. Call right after a start; n <= 1 keeps
 * all. */
void run_pacer_keep_shard(struct run_pacer *p, uint32_t i, uint32_t n);

/* True when the next request is due at now_ns. */
bool run_pacer_due(const struct run_pacer *p, int64_t now_ns);

/* The due request was started: draws the due time of the one after. */
void run_pacer_advance(struct run_pacer *p);

/* How long to sleep from now_ns before looking again: until the next
 * request is due, or RUN_PACER_CAP_WAIT_NS when at_cap (the in-flight cap
 * is reached). Never negative. */
int64_t run_pacer_wait_ns(const struct run_pacer *p, int64_t now_ns,
                          bool at_cap);

/* Arms ev to fire after wait_ns (cut to whole µs; a negative wait is 0).
 * Returns event_add's result (0 or -1). */
int run_timer_after(struct event *ev, int64_t wait_ns);

/* Arms ev to fire at due_ns or just after, never before: the wait from
 * now (the clock read here) is rounded up to the next µs. Returns
 * event_add's result (0 or -1). */
int run_timer_at(struct event *ev, int64_t due_ns);

/* True when t received nothing (no header or body byte, or nothing since
 * it started) for idle_ns or more at now_ns. */
bool run_timer_idle(const struct transfer *t, int64_t now_ns, int64_t idle_ns);

#endif
