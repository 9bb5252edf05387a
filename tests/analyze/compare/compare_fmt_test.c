/* compare_fmt_test: differences as compare prints them: a sign, digits
 * that do not hide a tiny difference, and never an exponent. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "compare.h"

static const struct {
    double x;
    const char *want;
} cases[] = {
    {12.34, "+12.3"},           {-3.456, "-3.46"},    {0.0421, "+0.042"},
    {4.8e-05, "+0.000048"},     {-0.0012, "-0.0012"}, {0.0, "+0.0"},
    {1e-13, "+0.000000000000"},
};

int main(void)
{
    char out[48];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        compare_fmt_signed(out, sizeof out, cases[i].x);
        CHECK_MSG(strcmp(out, cases[i].want) == 0 && !strchr(out, 'e'),
                  "%g: '%s', want '%s'", cases[i].x, out, cases[i].want);
    }
    compare_fmt_signed(out, sizeof out, NAN);
    CHECK_MSG(strcmp(out, "-") == 0, "NaN: '%s'", out);
    return CHECK_DONE();
}
