/* check.h: the tiny assertion layer shared by the C unit tests. A failed
 * CHECK prints file:line and the expression, and the test exits 1 at the end.
 */
#ifndef TT_TEST_CHECK_H
#define TT_TEST_CHECK_H

#include <stdio.h>

static int check_failures;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,   \
                    #cond);                                                    \
            check_failures++;                                                  \
        }                                                                      \
    } while (0)

#define CHECK_MSG(cond, ...)                                                   \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__,   \
                    #cond);                                                    \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            check_failures++;                                                  \
        }                                                                      \
    } while (0)

#define CHECK_DONE()                                                           \
    (check_failures                                                            \
         ? (fprintf(stderr, "%d checks failed\n", check_failures), 1)          \
         : (printf("all checks passed\n"), 0))

#endif
