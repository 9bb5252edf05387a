/* suggest: the closest known word to a mistyped one (edit distance). */
#include "suggest.h"

#include <string.h>

size_t suggest_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), rest_a = 0, rest_b = 0, extra;
    size_t rows[3][SUGGEST_MAX_LEN + 1];
    if (la > SUGGEST_MAX_LEN) {
        rest_a = la - SUGGEST_MAX_LEN;
        la = SUGGEST_MAX_LEN;
    }
    if (lb > SUGGEST_MAX_LEN) {
        rest_b = lb - SUGGEST_MAX_LEN;
        lb = SUGGEST_MAX_LEN;
    }
    extra = rest_a > rest_b ? rest_a - rest_b : rest_b - rest_a;
    /* rows[i % 3] is row i of the classic table: distance of a[0..i) to
     * b[0..j); two rows back are needed for the swap. */
    for (size_t j = 0; j <= lb; j++)
        rows[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t *cur = rows[i % 3], *prev = rows[(i - 1) % 3];
        size_t *prev2 = rows[(i + 1) % 3];
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = prev[j - 1] + cost;
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
                a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
    }
    return rows[la % 3][lb] + extra;
}

const char *suggest_closest(const char *word, const char *const *candidates,
                            size_t n)
{
    size_t len = strlen(word);
    size_t limit = len <= 4 ? 1 : len / 3;
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    if (limit > 3)
        limit = 3;
    if (limit < 1)
        limit = 1;
    for (size_t i = 0; i < n; i++) {
        size_t d;
        if (!candidates[i])
            continue;
        d = suggest_distance(word, candidates[i]);
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    return best_d <= limit ? best : NULL;
}
