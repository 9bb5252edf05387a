/* exact_prompt: synthetic prompts whose size hits a number of input
 * tokens as the server counts them (--input-tokens, docs/workloads.md
 * "Exact lengths"): a linear fit of the server's counts against the
 * prompt's bytes (tokens = overhead + k * bytes, from two calibration
 * probes) turns a token count into a byte count of a fixed filler text. */
#ifndef TT_RECORD_EXACT_PROMPT_H
#define TT_RECORD_EXACT_PROMPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of the two calibration probes' prompt texts. */
#define EXACT_PROBE_SMALL 512
#define EXACT_PROBE_LARGE 8192
/* Without usage in the probes' replies: about 4 bytes per token. */
#define EXACT_FALLBACK_K 0.25

/* One model's fit: tokens = overhead + k * bytes of prompt text. */
struct length_fit {
    double k;        /* tokens per byte */
    double overhead; /* tokens the server adds (chat template, roles) */
    int64_t probe_bytes[2];
    int64_t probe_tokens[2]; /* usage.prompt_tokens, -1 none */
    int probes;              /* probes sent */
    bool fallback;           /* no usage: EXACT_FALLBACK_K, overhead 0 */
};

/* Solves the fit from two probes (b1 < b2 bytes, t1 and t2 tokens).
 * Returns 0, or -1 when the counts do not grow with the bytes (t2 <= t1:
 * no fit; *out untouched). */
int length_fit_solve(int64_t b1, int64_t t1, int64_t b2, int64_t t2,
                     struct length_fit *out);

/* The fallback fit (no usage reported): EXACT_FALLBACK_K, overhead 0. */
void length_fit_fallback(struct length_fit *out);

/* The prompt for request k of `tokens` input tokens, of which the first
 * `prefix` are the shared prefix (0: none): the prefix (the same for
 * every request of the model), "Request K. ", then the filler, sized by
 * the fit; malloc'd, NULL out of memory. A count below what the fit's
 * overhead and the marker take gets the marker alone. */
char *exact_prompt_text(const struct length_fit *f, uint64_t k, int64_t tokens,
                        int64_t prefix);

/* A filler text of n words ("the cat sat ..."), about n tokens and four
 * bytes each (--arrivals lengths), malloc'd; NULL out of memory. */
char *exact_filler_words(int64_t n);

/* The probe prompt of `bytes` bytes ("Request 0. " and filler). */
char *exact_prompt_probe(size_t bytes);

#endif
