/* think_time_test: --think-time's grammar and its seeded draws. */
#include "think_time.h"

#include <string.h>

#include "check.h"

int main(void)
{
    static const struct {
        const char *s;
        int ok;
        enum think_kind kind;
        int64_t a, b;
    } cases[] = {
        {"2s", 1, THINK_FIXED, 2000000000, 0},
        {"0", 1, THINK_FIXED, 0, 0},
        {"1.5", 1, THINK_FIXED, 1500000000, 0},
        {"exp:250ms", 1, THINK_EXP, 250000000, 0},
        {"uniform:1s:3s", 1, THINK_UNIFORM, 1000000000, 3000000000},
        {"uniform:3s:1s", 0, THINK_FIXED, 0, 0},
        {"uniform:1s", 0, THINK_FIXED, 0, 0},
        {"exp:", 0, THINK_FIXED, 0, 0},
        {"-1s", 0, THINK_FIXED, 0, 0},
        {"2h", 0, THINK_FIXED, 0, 0},
        {"normal:1s", 0, THINK_FIXED, 0, 0},
        {"", 0, THINK_FIXED, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct think_time t = {THINK_EXP, -7, -7};
        int rc = think_time_parse(cases[i].s, &t);
        CHECK_MSG((rc == 0) == cases[i].ok, "'%s'", cases[i].s);
        if (cases[i].ok)
            CHECK_MSG(t.kind == cases[i].kind && t.a_ns == cases[i].a &&
                          t.b_ns == cases[i].b,
                      "'%s'", cases[i].s);
        else
            CHECK_MSG(t.a_ns == -7, "'%s' changed *out", cases[i].s);
    }
    struct think_time fixed = {THINK_FIXED, 5, 0};
    struct think_time uni = {THINK_UNIFORM, 1000, 2000};
    struct think_time ex = {THINK_EXP, 1000000, 0};
    double sum = 0;
    int differ = 0;
    CHECK(think_time_draw(&fixed, 1, 1, 1) == 5);
    for (uint64_t s = 1; s <= 2000; s++) {
        int64_t u = think_time_draw(&uni, 9, s, 2);
        CHECK(u >= 1000 && u <= 2000);
        CHECK(u == think_time_draw(&uni, 9, s, 2)); /* a pure function */
        differ += u != think_time_draw(&uni, 10, s, 2);
        sum += (double)think_time_draw(&ex, 3, s, 1);
    }
    CHECK(differ > 1900);                            /* the seed matters */
    CHECK(sum / 2000 > 0.9e6 && sum / 2000 < 1.1e6); /* the mean holds */
    return CHECK_DONE();
}
