/* compare_fmt_test: differences and changes in % as compare prints them:
 * a sign, digits that do not hide a tiny difference, and never an
 * exponent. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "compare.h"
#include "text_out.h"

static const struct {
    double x;
    const char *want;
} cases[] = {
    {12.34, "+12.3"},           {-3.456, "-3.46"},    {0.0421, "+0.042"},
    {4.8e-05, "+0.000048"},     {-0.0012, "-0.0012"}, {0.0, "+0.0"},
    {1e-13, "+0.000000000000"},
};

/* Changes in %: a small fall keeps its sign (issue 32: -0.033 % printed
 * "+0.0%"); only an exact 0 is "+0.0%". */
static const struct {
    double pct;
    const char *want;
} pcts[] = {
    {38.4, "+38%"},      {-12.6, "-13%"},     {2.54, "+2.5%"},
    {-0.033, "-0.033%"}, {-0.057, "-0.057%"}, {0.0015, "+0.0015%"},
    {0.0, "+0.0%"},      {-0.1, "-0.1%"},
};

int main(void)
{
    for (size_t i = 0; i < sizeof pcts / sizeof pcts[0]; i++) {
        char p[48];
        text_fmt_pct(p, sizeof p, pcts[i].pct);
        CHECK_MSG(strcmp(p, pcts[i].want) == 0, "%g%%: '%s', want '%s'",
                  pcts[i].pct, p, pcts[i].want);
    }
    char out[48];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        text_fmt_signed(out, sizeof out, cases[i].x);
        CHECK_MSG(strcmp(out, cases[i].want) == 0 && !strchr(out, 'e'),
                  "%g: '%s', want '%s'", cases[i].x, out, cases[i].want);
    }
    text_fmt_signed(out, sizeof out, NAN);
    CHECK_MSG(strcmp(out, "-") == 0, "NaN: '%s'", out);
    return CHECK_DONE();
}
