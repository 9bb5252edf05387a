/* json_text: the escapes a request body cannot carry (json_text.h). */
#include "json_text.h"

#include <stdbool.h>
#include <stdio.h>

/* The value of the 4 hex digits at s, or -1. */
static long hex4(const char *s)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

const char *json_text_unsendable(const char *s, size_t n, size_t *at)
{
    static char why[64];
    bool in_str = false;
    for (size_t i = 0; i < n; i++) {
        long u, lo;
        if (!in_str) {
            in_str = s[i] == '"';
            continue;
        }
        if (s[i] == '"') {
            in_str = false;
            continue;
        }
        if (s[i] != '\\' || i + 1 >= n)
            continue;
        if (s[i + 1] != 'u' || i + 6 > n) {
            i++; /* another escape: its character is not a quote */
            continue;
        }
        u = hex4(s + i + 2);
        *at = i;
        if (u == 0)
            return "a \\u0000 in a string (a request cannot carry a NUL)";
        if (u >= 0xd800 && u <= 0xdbff) {
            lo = i + 12 <= n && s[i + 6] == '\\' && s[i + 7] == 'u'
                     ? hex4(s + i + 8)
                     : -1;
            if (lo < 0xdc00 || lo > 0xdfff) {
                snprintf(why, sizeof why,
                         "a lone UTF-16 surrogate \\u%04lx (no second half)",
                         u);
                return why;
            }
            i += 11;
            continue;
        }
        if (u >= 0xdc00 && u <= 0xdfff) {
            snprintf(why, sizeof why,
                     "a lone UTF-16 surrogate \\u%04lx (no first half)", u);
            return why;
        }
        i += 5;
    }
    return NULL;
}
