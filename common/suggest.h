/* suggest: "did you mean" for a mistyped command or flag: the closest of a
 * list of known words by edit distance. */
#ifndef TT_COMMON_SUGGEST_H
#define TT_COMMON_SUGGEST_H

#include <stddef.h>

/* The optimal-string-alignment distance between a and b (insertions,
 * deletions, substitutions and swaps of two neighbours each cost 1),
 * computed exactly on the first SUGGEST_MAX_LEN bytes of each; past those,
 * only the difference in length is added. Cannot fail. */
#define SUGGEST_MAX_LEN 64
size_t suggest_distance(const char *a, const char *b);

/* The candidate closest to word, or NULL when none is close enough to be a
 * plausible typo: the distance must be at most 1 for words of up to 4
 * bytes, else at most a third of word's length (at most 3). Leading dashes
 * are compared like any byte, so pass flags with them on both sides. Ties
 * go to the earlier candidate. NULL entries in candidates are skipped.
 * Returns a pointer into candidates (borrowed). */
const char *suggest_closest(const char *word, const char *const *candidates,
                            size_t n);

#endif
