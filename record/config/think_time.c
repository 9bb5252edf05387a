/* think_time: --think-time's grammar and its seeded draws. */
#include "think_time.h"

#include <math.h>
#include <string.h>

#include "duration.h"
#include "rng.h"

#define THINK_MAX_S 3600.0

/* One duration in seconds within [0, THINK_MAX_S] as ns; 0 or -1. */
static int one(const char *s, int64_t *ns)
{
    double d;
    if (duration_parse(s, DURATION_S, DURATION_S, &d) || d < 0 ||
        d > THINK_MAX_S)
        return -1;
    *ns = (int64_t)llround(d * 1e9);
    return 0;
}

int think_time_parse(const char *s, struct think_time *out)
{
    struct think_time t = {THINK_FIXED, 0, 0};
    char a[64];
    const char *colon;
    if (!s)
        return -1;
    if (strncmp(s, "exp:", 4) == 0) {
        t.kind = THINK_EXP;
        if (one(s + 4, &t.a_ns))
            return -1;
    } else if (strncmp(s, "uniform:", 8) == 0) {
        t.kind = THINK_UNIFORM;
        colon = strchr(s + 8, ':');
        if (!colon || (size_t)(colon - (s + 8)) >= sizeof a)
            return -1;
        memcpy(a, s + 8, (size_t)(colon - (s + 8)));
        a[colon - (s + 8)] = '\0';
        if (one(a, &t.a_ns) || one(colon + 1, &t.b_ns) || t.b_ns < t.a_ns)
            return -1;
    } else if (one(s, &t.a_ns)) {
        return -1;
    }
    *out = t;
    return 0;
}

int64_t think_time_draw(const struct think_time *t, uint64_t seed,
                        uint64_t session, uint64_t turn)
{
    uint64_t st = rng_mix(rng_mix(seed ^ 0x7468696e6bULL, session), turn);
    double u = rng_unit(&st), v;
    switch (t->kind) {
    case THINK_EXP:
        v = -log(1.0 - u) * (double)t->a_ns;
        return v > THINK_MAX_S * 1e9 ? (int64_t)(THINK_MAX_S * 1e9)
                                     : (int64_t)v;
    case THINK_UNIFORM:
        return t->a_ns + (int64_t)(u * (double)(t->b_ns - t->a_ns));
    case THINK_FIXED:
    default:
        return t->a_ns;
    }
}
