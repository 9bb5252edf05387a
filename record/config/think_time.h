/* think_time: the pause between two turns of a session (--think-time):
 * fixed, exponential around a mean, or uniform in a range, drawn from a
 * seeded generator so a seed gives the same pauses on every run. */
#ifndef TT_RECORD_THINK_TIME_H
#define TT_RECORD_THINK_TIME_H

#include <stdint.h>

enum think_kind {
    THINK_FIXED = 0,
    THINK_EXP = 1,     /* exponential, mean a_ns */
    THINK_UNIFORM = 2, /* uniform in [a_ns, b_ns] */
};

struct think_time {
    enum think_kind kind;
    int64_t a_ns;
    int64_t b_ns;
};

/* The grammar, for --help and error messages. */
#define THINK_TIME_WANT "DURATION, exp:MEAN or uniform:MIN:MAX (2s, exp:1.5s)"

/* Parses "2s", "exp:1500ms" or "uniform:1s:3s" (a bare number is
 * seconds; each at most one hour). Returns 0, or -1 (*out untouched). */
int think_time_parse(const char *s, struct think_time *out);

/* The pause before turn `turn` (from 1) of session `session` under seed:
 * a pure function of the three, so it does not depend on timing. */
int64_t think_time_draw(const struct think_time *t, uint64_t seed,
                        uint64_t session, uint64_t turn);

#endif
