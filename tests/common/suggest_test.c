/* suggest_test: edit distances against hand-computed values, and which
 * typos get a suggestion (and which words are too far to get one). */
#include <string.h>

#include "check.h"
#include "suggest.h"

static const struct {
    const char *a, *b;
    size_t want;
} distances[] = {
    {"", "", 0},
    {"", "abc", 3},
    {"abc", "", 3},
    {"summary", "summary", 0},
    {"sumary", "summary", 1},   /* deletion */
    {"summmary", "summary", 1}, /* insertion */
    {"sammary", "summary", 1},  /* substitution */
    {"smumary", "summary", 1},  /* neighbours swapped */
    {"--modle", "--model", 1},  /* swap at the end */
    {"kitten", "sitting", 3},
    {"ca", "abc", 3}, /* OSA, not Damerau: 3 */
};

static const struct {
    const char *word;
    const char *want; /* NULL: no suggestion */
} closest[] = {
    {"sumary", "summary"},
    {"requets", "requests"},
    {"plto", "plot"},
    {"compre", "compare"},
    {"dmp", "dump"},
    {"xyz", NULL},
    {"summarize", "summary"},
    {"statistics", NULL},
    {"--modle", "--model"},
    {"-m", NULL},
    {"--concurency", "--concurrency"},
    {"", NULL},
};

static const char *const words[] = {
    "summary", "requests", "compare", "trend",   "info",          "dump",
    "check",   "plot",     NULL,      "--model", "--concurrency",
};

int main(void)
{
    char longer[200];
    for (size_t i = 0; i < sizeof(distances) / sizeof(distances[0]); i++)
        CHECK_MSG(suggest_distance(distances[i].a, distances[i].b) ==
                          distances[i].want &&
                      suggest_distance(distances[i].b, distances[i].a) ==
                          distances[i].want,
                  "'%s' '%s'", distances[i].a, distances[i].b);
    for (size_t i = 0; i < sizeof(closest) / sizeof(closest[0]); i++) {
        const char *got = suggest_closest(closest[i].word, words,
                                          sizeof(words) / sizeof(words[0]));
        CHECK_MSG(got == closest[i].want ||
                      (got && closest[i].want && !strcmp(got, closest[i].want)),
                  "'%s' gave '%s'", closest[i].word, got ? got : "(none)");
    }
    /* Words past the cap still compare, the rest counted as insertions. */
    memset(longer, 'a', sizeof(longer) - 1);
    longer[sizeof(longer) - 1] = '\0';
    CHECK(suggest_distance(longer, "") == sizeof(longer) - 1);
    CHECK(suggest_distance(longer, longer) == 0);
    return CHECK_DONE();
}
