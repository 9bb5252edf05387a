/* arrivals_file: request arrival times (and lengths) replayed from a file
 * (--arrivals FILE, docs/capacity.md): a CSV with a header row, such as
 * the Azure LLM inference traces (TIMESTAMP,ContextTokens,GeneratedTokens;
 * TIMESTAMP in seconds or as "2023-11-16 18:15:46.6805900" UTC), or JSON
 * Lines such as Mooncake's ({"timestamp": ms, "input_length": N,
 * "output_length": N}). Times are offsets from the first line, divided by
 * the speed.
 *
 * Ownership: an arrivals_file owns its arrays; arrivals_file_free frees
 * them. */
#ifndef TT_RECORD_ARRIVALS_FILE_H
#define TT_RECORD_ARRIVALS_FILE_H

#include <stddef.h>
#include <stdint.h>

#define ARRIVALS_MAX_LINES ((size_t)10 * 1000 * 1000)
#define ARRIVALS_MAX_TOKENS 10000000 /* a length above this is refused */
/* a time above this (s; year 2255) is refused: ns must fit an int64 */
#define ARRIVALS_MAX_SECONDS 9e9
/* a gap between two arrivals (after --speed) above this is refused */
#define ARRIVALS_MAX_GAP_S 3600

struct arrivals_file {
    int64_t *at_ns;  /* offset of arrival i from the first, ns */
    int64_t *input;  /* input tokens of arrival i, -1 not given */
    int64_t *output; /* output tokens, -1 not given */
    size_t n;
    size_t cap;
};

/* Reads path into *out (speed > 0 divides the times). Returns 0, or -1
 * with "FILE:LINE: reason" (or "FILE: reason") in err; *out is then
 * empty. */
int arrivals_file_load(const char *path, double speed,
                       struct arrivals_file *out, char *err, size_t errlen);

/* Frees the arrays. NULL-safe. */
void arrivals_file_free(struct arrivals_file *a);

#endif
