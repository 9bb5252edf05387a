/* retry: the --retry policy: which failed attempts are sent again, and how
 * long to wait first (the server's Retry-After, capped, else a short
 * exponential backoff with jitter). Pure: no clock, no I/O. */
#ifndef TT_RECORD_RETRY_H
#define TT_RECORD_RETRY_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define RETRY_MAX_WAIT_MS 60000   /* a longer Retry-After is cut to this */
#define RETRY_BACKOFF_BASE_MS 500 /* first backoff without Retry-After */
#define RETRY_BACKOFF_MAX_MS 8000

/* True when an answer with this HTTP status is worth sending again: 429
 * (rate limited) and 503 (overloaded / unavailable). Nothing else: a
 * connection that failed or broke is not retried (see docs/robustness.md). */
bool retry_status_retryable(int http_status);

/* Parses a Retry-After value: delay-seconds ("2") or an HTTP-date
 * ("Wed, 21 Oct 2026 07:28:00 GMT", compared with now, the wall clock).
 * Returns the wait in ms (0 for a date in the past), capped at
 * RETRY_MAX_WAIT_MS, or -1 when value is NULL or not one of the two. */
int64_t retry_after_parse(const char *value, time_t now);

/* Parses a retry-after-ms value (milliseconds, decimals allowed). Returns
 * the wait in ms, capped, or -1 when NULL or malformed. */
int64_t retry_after_ms_parse(const char *value);

/* The wait before attempt next_attempt (2 for the first retry): from the
 * headers when one parses (retry-after-ms first, it is finer), else
 * RETRY_BACKOFF_BASE_MS doubled per earlier retry, capped at
 * RETRY_BACKOFF_MAX_MS, then scaled by a random factor in [0.5, 1) drawn
 * from *rng (rng.h state). Sets *from_server. Cannot fail. */
int64_t retry_wait_ms(const char *retry_after, const char *retry_after_ms,
                      uint32_t next_attempt, time_t now, uint64_t *rng,
                      bool *from_server);

#endif
