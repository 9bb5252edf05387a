/* run_match_diff: the first field two shards' run_match texts disagree on. */
#include "run_match_diff.h"

#include <stdio.h>
#include <string.h>

/* The value of key in text (a field "key=value" between spaces) as a
 * pointer and a length; NULL when text has no such field. */
static const char *value_of(const char *text, const char *key, size_t klen,
                            size_t *vlen)
{
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, " ");
        if (n > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            *vlen = n - klen - 1;
            return p + klen + 1;
        }
        p += n;
        p += strspn(p, " ");
    }
    return NULL;
}

/* Fills d with field key (klen) and the two values (NULL: absent). */
static void name(struct run_match_diff *d, const char *key, size_t klen,
                 const char *va, size_t la, const char *vb, size_t lb)
{
    snprintf(d->field, sizeof d->field, "%.*s", (int)klen, key);
    if (va)
        snprintf(d->a, sizeof d->a, "%.*s", (int)la, va);
    else
        snprintf(d->a, sizeof d->a, "(absent)");
    if (vb)
        snprintf(d->b, sizeof d->b, "%.*s", (int)lb, vb);
    else
        snprintf(d->b, sizeof d->b, "(absent)");
}

/* The first field of x that y lacks or has otherwise; swapped: x is b. */
static bool first_diff(const char *x, const char *y, bool swapped,
                       struct run_match_diff *d)
{
    for (const char *p = x; *p;) {
        size_t n = strcspn(p, " "), klen = strcspn(p, "= "), lx, ly = 0;
        const char *vx = klen < n ? p + klen + 1 : p + n;
        const char *vy = value_of(y, p, klen, &ly);
        lx = klen < n ? n - klen - 1 : 0;
        if (klen && (!vy || ly != lx || memcmp(vx, vy, lx) != 0)) {
            if (swapped)
                name(d, p, klen, vy, ly, vx, lx);
            else
                name(d, p, klen, vx, lx, vy, ly);
            return true;
        }
        p += n;
        p += strspn(p, " ");
    }
    return false;
}

bool run_match_differs(const char *a, const char *b, struct run_match_diff *d)
{
    memset(d, 0, sizeof *d);
    if (!a && !b)
        return false;
    if (!a || !b) {
        snprintf(d->field, sizeof d->field, "run_match");
        snprintf(d->a, sizeof d->a, "%s", a ? "(present)" : "(absent)");
        snprintf(d->b, sizeof d->b, "%s", b ? "(present)" : "(absent)");
        return true;
    }
    return first_diff(a, b, false, d) || first_diff(b, a, true, d);
}
