/* token_length: --input-tokens / --output-tokens: a length in tokens that
 * is fixed (N), normal around a mean (N:SD) or uniform in a range (N~M),
 * drawn per request from a seeded generator so a seed gives the same
 * lengths on every run. */
#ifndef TT_RECORD_TOKEN_LENGTH_H
#define TT_RECORD_TOKEN_LENGTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum token_length_kind {
    TOKEN_LENGTH_NONE = 0, /* not given */
    TOKEN_LENGTH_FIXED,    /* a */
    TOKEN_LENGTH_NORMAL,   /* mean a, standard deviation b */
    TOKEN_LENGTH_UNIFORM,  /* uniform in [a, b] */
};

struct token_length {
    enum token_length_kind kind;
    double a;
    double b;
};

/* The largest length accepted (and drawn). */
#define TOKEN_LENGTH_MAX 2000000

/* The grammar, for --help and error messages. */
#define TOKEN_LENGTH_WANT "N, N:SD (normal) or N~M (uniform), N from 1"

/* Parses "512", "512:64" or "256~1024" (integers from 1 to
 * TOKEN_LENGTH_MAX; SD from 0; M >= N). Returns 0, or -1 with *out
 * untouched. */
int token_length_parse(const char *s, struct token_length *out);

/* The length of request k (the run's global request index) under seed,
 * for the stream salt (input and output draw apart): a pure function of
 * the four, rounded, clamped to [1, TOKEN_LENGTH_MAX]; *clamped (may be
 * NULL) is set when a normal draw fell outside and was clamped. */
int64_t token_length_draw(const struct token_length *l, uint64_t seed,
                          uint64_t salt, uint64_t k, bool *clamped);

/* Writes the length as given ("512:64") into out (size n). */
void token_length_format(const struct token_length *l, char *out, size_t n);

#endif
