/* token_scan: spots the first token and in-stream errors in raw SSE bytes. */
#include "token_scan.h"

#include <string.h>

/* Patterns whose match (plus one more byte that must not be '"') means a
 * token. "reasoning_content" is covered by its "content" tail not matching
 * (it is preceded by '_', not '"'), so it is listed on its own. */
static const char *const token_keys[] = {
    "\"content\":\"", "\"text\":\"", "\"reasoning_content\":\"",
    "\"reasoning\":\"", "\"content\": \"", "\"text\": \"",
};

/* Result of looking at one window: 1 found, 0 not found. */
static bool find_token(const char *p, size_t n)
{
    size_t i, k;
    for (k = 0; k < sizeof token_keys / sizeof token_keys[0]; k++) {
        size_t klen = strlen(token_keys[k]);
        for (i = 0; i + klen < n; i++) /* needs one byte after the key */
            if (p[i] == '"' && memcmp(p + i, token_keys[k], klen) == 0 &&
                p[i + klen] != '"')
                return true;
    }
    for (i = 0; i + 10 <= n; i++)
        if (p[i] == 't' && memcmp(p + i, "text_delta", 10) == 0)
            return true;
    return false;
}

/* True when the window holds "error": followed by '{' or '"' (so that
 * "error": null is not an error). */
static bool find_error(const char *p, size_t n)
{
    size_t i, j;
    for (i = 0; i + 8 < n; i++) {
        if (p[i] != '"' || memcmp(p + i, "\"error\":", 8) != 0)
            continue;
        for (j = i + 8; j < n && p[j] == ' '; j++)
            ;
        if (j < n && (p[j] == '{' || p[j] == '"'))
            return true;
    }
    return false;
}

void token_scan_init(struct token_scan *s)
{
    memset(s, 0, sizeof *s);
}

/* Runs the searches still needed over one window of bytes. */
static bool scan_window(struct token_scan *s, const char *p, size_t n)
{
    bool first = false;
    if (!s->token_seen && find_token(p, n)) {
        s->token_seen = true;
        first = true;
    }
    if (!s->error_seen && find_error(p, n))
        s->error_seen = true;
    return first;
}

bool token_scan_feed(struct token_scan *s, const char *p, size_t n)
{
    char seam[2 * TOKEN_SCAN_CARRY];
    size_t head, keep;
    bool first = false;
    if (s->token_seen && s->error_seen)
        return false;
    /* the seam: the carried tail of earlier bytes + the start of these */
    head = n < TOKEN_SCAN_CARRY ? n : TOKEN_SCAN_CARRY;
    memcpy(seam, s->carry, s->carry_len);
    memcpy(seam + s->carry_len, p, head);
    if (s->carry_len)
        first = scan_window(s, seam, s->carry_len + head);
    if (scan_window(s, p, n))
        first = true;
    /* keep the last TOKEN_SCAN_CARRY - 1 bytes of everything seen so far */
    keep = TOKEN_SCAN_CARRY - 1;
    if (n >= keep) {
        memcpy(s->carry, p + n - keep, keep);
        s->carry_len = keep;
    } else {
        size_t total = s->carry_len + n;
        size_t from = total > keep ? total - keep : 0;
        memmove(seam, seam + from, total - from);
        memcpy(s->carry, seam, total - from);
        s->carry_len = total - from;
    }
    return first;
}
