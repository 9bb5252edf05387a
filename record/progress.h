/* progress: the live status line on stderr ("\r" redrawn, at most 4 times a
 * second) with done/total, errors, requests in flight, retries (when any)
 * and a live TTFT p50. */
#ifndef TT_RECORD_PROGRESS_H
#define TT_RECORD_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROGRESS_MAX_SAMPLES 100000

struct progress {
    bool enabled;
    bool drawn;          /* a line is on screen */
    int64_t last_draw_ns;
    int64_t start_ns;
    uint64_t total;      /* UINT64_MAX: unbounded */
    uint64_t done;
    uint64_t errors;
    uint64_t in_flight;
    uint64_t retries;    /* attempts sent again (--retry) */
    uint64_t waiting;    /* requests waiting for their next attempt */
    double *ttft_ms;     /* live TTFT samples, capped */
    size_t n_ttft;
    size_t cap;
};

/* Starts a progress display; it only ever draws when enabled. */
void progress_init(struct progress *p, bool enabled, uint64_t total,
                   int64_t start_ns);

/* Adds a live TTFT sample (first token time - start), in ns. */
void progress_add_ttft(struct progress *p, int64_t ttft_ns);

/* Redraws the line if enabled and 250 ms passed since the last draw (or
 * force). */
void progress_draw(struct progress *p, int64_t now_ns, bool force);

/* Draws the final state and ends the line (when enabled); frees the
 * samples. */
void progress_finish(struct progress *p, int64_t now_ns);

/* The median of the samples in ms, or -1 when there are none. */
double progress_ttft_p50(const struct progress *p);

#endif
