/* token_length: --input-tokens / --output-tokens grammar and draws. */
#include "token_length.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

/* One decimal integer in [lo, TOKEN_LENGTH_MAX] spanning [s, end). */
static int number(const char *s, const char *end, double lo, double *out)
{
    char tmp[32], *e;
    long long v;
    size_t n = (size_t)(end - s);
    if (n == 0 || n >= sizeof tmp || s[0] < '0' || s[0] > '9')
        return -1;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    errno = 0;
    v = strtoll(tmp, &e, 10);
    if (*e || errno || (double)v < lo || v > TOKEN_LENGTH_MAX)
        return -1;
    *out = (double)v;
    return 0;
}

int token_length_parse(const char *s, struct token_length *out)
{
    struct token_length l = {TOKEN_LENGTH_FIXED, 0, 0};
    const char *sep, *end;
    if (!s || !*s)
        return -1;
    end = s + strlen(s);
    if ((sep = strchr(s, ':'))) {
        l.kind = TOKEN_LENGTH_NORMAL;
        if (number(s, sep, 1, &l.a) || number(sep + 1, end, 0, &l.b))
            return -1;
    } else if ((sep = strchr(s, '~'))) {
        l.kind = TOKEN_LENGTH_UNIFORM;
        if (number(s, sep, 1, &l.a) || number(sep + 1, end, 1, &l.b) ||
            l.b < l.a)
            return -1;
    } else if (number(s, end, 1, &l.a)) {
        return -1;
    }
    *out = l;
    return 0;
}

int64_t token_length_draw(const struct token_length *l, uint64_t seed,
                          uint64_t salt, uint64_t k, bool *clamped)
{
    uint64_t st = rng_mix(rng_mix(seed ^ 0x6c656e677468ULL, salt), k);
    double v = l->a, u1, u2;
    if (clamped)
        *clamped = false;
    switch (l->kind) {
    case TOKEN_LENGTH_NORMAL: /* Box-Muller */
        u1 = rng_unit(&st);
        u2 = rng_unit(&st);
        v = l->a + l->b * sqrt(-2.0 * log(1.0 - u1)) * cos(2.0 * M_PI * u2);
        break;
    case TOKEN_LENGTH_UNIFORM: /* integers a..b, each as likely */
        v = l->a + floor(rng_unit(&st) * (l->b - l->a + 1.0));
        if (v > l->b)
            v = l->b;
        break;
    case TOKEN_LENGTH_FIXED:
    case TOKEN_LENGTH_NONE:
    default:
        break;
    }
    v = floor(v + 0.5);
    if (v < 1 || v > TOKEN_LENGTH_MAX) {
        if (clamped)
            *clamped = true;
        v = v < 1 ? 1 : TOKEN_LENGTH_MAX;
    }
    return (int64_t)v;
}

void token_length_format(const struct token_length *l, char *out, size_t n)
{
    switch (l->kind) {
    case TOKEN_LENGTH_NORMAL:
        snprintf(out, n, "%.0f:%.0f", l->a, l->b);
        break;
    case TOKEN_LENGTH_UNIFORM:
        snprintf(out, n, "%.0f~%.0f", l->a, l->b);
        break;
    case TOKEN_LENGTH_FIXED:
        snprintf(out, n, "%.0f", l->a);
        break;
    case TOKEN_LENGTH_NONE:
    default:
        snprintf(out, n, "none");
        break;
    }
}
