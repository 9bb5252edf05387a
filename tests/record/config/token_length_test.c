/* token_length_test: --input-tokens / --output-tokens grammar and their
 * seeded draws. */
#include "token_length.h"

#include <math.h>
#include <string.h>

#include "check.h"

int main(void)
{
    static const struct {
        const char *s;
        int ok;
        enum token_length_kind kind;
        double a, b;
    } cases[] = {
        {"512", 1, TOKEN_LENGTH_FIXED, 512, 0},
        {"1", 1, TOKEN_LENGTH_FIXED, 1, 0},
        {"2000000", 1, TOKEN_LENGTH_FIXED, 2000000, 0},
        {"512:64", 1, TOKEN_LENGTH_NORMAL, 512, 64},
        {"512:0", 1, TOKEN_LENGTH_NORMAL, 512, 0},
        {"256~1024", 1, TOKEN_LENGTH_UNIFORM, 256, 1024},
        {"5~5", 1, TOKEN_LENGTH_UNIFORM, 5, 5},
        {"0", 0, TOKEN_LENGTH_NONE, 0, 0},
        {"2000001", 0, TOKEN_LENGTH_NONE, 0, 0},
        {"-5", 0, TOKEN_LENGTH_NONE, 0, 0},
        {"+5", 0, TOKEN_LENGTH_NONE, 0, 0},
        {"1.5", 0, TOKEN_LENGTH_NONE, 0, 0},
        {"10:", 0, TOKEN_LENGTH_NONE, 0, 0},
        {":5", 0, TOKEN_LENGTH_NONE, 0, 0},
        {"10:-1", 0, TOKEN_LENGTH_NONE, 0, 0},
        {"10:5:1", 0, TOKEN_LENGTH_NONE, 0, 0},
        {"20~10", 0, TOKEN_LENGTH_NONE, 0, 0},
        {"5~", 0, TOKEN_LENGTH_NONE, 0, 0},
        {"12abc", 0, TOKEN_LENGTH_NONE, 0, 0},
        {"", 0, TOKEN_LENGTH_NONE, 0, 0},
        {" 12", 0, TOKEN_LENGTH_NONE, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct token_length l = {TOKEN_LENGTH_NONE, -7, -7};
        int rc = token_length_parse(cases[i].s, &l);
        CHECK_MSG((rc == 0) == cases[i].ok, "'%s'", cases[i].s);
        if (cases[i].ok)
            CHECK_MSG(l.kind == cases[i].kind && l.a == cases[i].a &&
                          l.b == cases[i].b,
                      "'%s'", cases[i].s);
        else
            CHECK_MSG(l.a == -7, "'%s' changed *out", cases[i].s);
    }
    CHECK(token_length_parse(NULL, &(struct token_length){0, 0, 0}) == -1);

    struct token_length fixed = {TOKEN_LENGTH_FIXED, 300, 0};
    struct token_length normal = {TOKEN_LENGTH_NORMAL, 1000, 100};
    struct token_length uni = {TOKEN_LENGTH_UNIFORM, 10, 20};
    struct token_length wide = {TOKEN_LENGTH_NORMAL, 2, 50};
    double sum = 0, sq = 0;
    int differ = 0, clamps = 0, seen[21] = {0};
    bool clamped;
    CHECK(token_length_draw(&fixed, 1, 1, 5, &clamped) == 300 && !clamped);
    for (uint64_t k = 0; k < 4000; k++) {
        int64_t v = token_length_draw(&normal, 9, 1, k, NULL);
        int64_t u = token_length_draw(&uni, 9, 1, k, NULL);
        CHECK(v == token_length_draw(&normal, 9, 1, k, NULL)); /* pure */
        differ += v != token_length_draw(&normal, 10, 1, k, NULL);
        differ += v != token_length_draw(&normal, 9, 2, k, NULL);
        sum += (double)v;
        sq += (double)v * (double)v;
        CHECK(u >= 10 && u <= 20);
        if (u >= 10 && u <= 20)
            seen[u]++;
        CHECK(token_length_draw(&wide, 3, 1, k, &clamped) >= 1);
        clamps += clamped;
    }
    double mean = sum / 4000, sd = sqrt(sq / 4000 - mean * mean);
    CHECK_MSG(mean > 990 && mean < 1010, "mean %g", mean);
    CHECK_MSG(sd > 90 && sd < 110, "sd %g", sd);
    CHECK(differ > 7500); /* the seed and the salt matter */
    CHECK(clamps > 1000); /* half of N(2, 50) is below 1 */
    for (int i = 10; i <= 20; i++)
        CHECK_MSG(seen[i] > 250, "uniform %d seen %d times", i, seen[i]);
    char s[64];
    token_length_format(&normal, s, sizeof s);
    CHECK(strcmp(s, "1000:100") == 0);
    token_length_format(&uni, s, sizeof s);
    CHECK(strcmp(s, "10~20") == 0);
    return CHECK_DONE();
}
