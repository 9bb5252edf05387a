/* exact_prompt_test: the fit of two probes, prompts of the fitted size,
 * and the filler. */
#include "exact_prompt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(void)
{
    struct length_fit f, keep;
    char *p;
    /* 10 + 0.25 * bytes */
    CHECK(length_fit_solve(512, 138, 8192, 2058, &f) == 0);
    CHECK(fabs(f.k - 0.25) < 1e-12 && fabs(f.overhead - 10) < 1e-9);
    CHECK(f.probes == 2 && !f.fallback && f.probe_tokens[1] == 2058);
    /* counts that do not grow: no fit, *out untouched */
    keep = f;
    CHECK(length_fit_solve(512, 200, 8192, 200, &f) == -1);
    CHECK(length_fit_solve(512, 300, 8192, 100, &f) == -1);
    CHECK(length_fit_solve(8192, 100, 512, 300, &f) == -1);
    CHECK(memcmp(&keep, &f, sizeof f) == 0);
    length_fit_fallback(&f);
    CHECK(f.fallback && f.k == EXACT_FALLBACK_K && f.overhead == 0);

    /* N tokens: (N - overhead) / k bytes of text */
    CHECK(length_fit_solve(512, 138, 8192, 2058, &f) == 0);
    static const int64_t ns[] = {20, 200, 1000, 4000};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        p = exact_prompt_text(&f, 3, ns[i], 0);
        CHECK(p && strncmp(p, "Request 3. the cat", 18) == 0);
        CHECK_MSG(p && (int64_t)strlen(p) == (ns[i] - 10) * 4, "%lld: %zu",
                  (long long)ns[i], p ? strlen(p) : 0);
        free(p);
    }
    /* a shared prefix of T tokens (T / k bytes), then the request's own */
    p = exact_prompt_text(&f, 9, 1000, 600);
    CHECK(p && strncmp(p, "the cat sat", 11) == 0);
    CHECK(p && strstr(p, "\n\nRequest 9. ") == p + 600 * 4);
    CHECK(p && strlen(p) == 600 * 4 + 2 + (1000 - 600 - 10) * 4);
    free(p);
    /* below the overhead: the marker alone */
    p = exact_prompt_text(&f, 12, 5, 0);
    CHECK(p && strcmp(p, "Request 12. ") == 0);
    free(p);
    /* probes are exactly their bytes */
    p = exact_prompt_probe(EXACT_PROBE_SMALL);
    CHECK(p && strlen(p) == EXACT_PROBE_SMALL);
    free(p);
    p = exact_filler_words(4);
    CHECK(p && strcmp(p, "the cat sat on") == 0);
    free(p);
    return CHECK_DONE();
}
