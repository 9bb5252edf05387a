/* summary_view: colour, display width and line wrapping for the compact
 * summary. */
#include "summary_view.h"

#include <string.h>

#include "printable.h"

static const char *const tone_on[] = {"", "\033[1m", "\033[33m", "\033[31m",
                                      "\033[2m"};

const char *view_on(const struct summary_view *v, enum view_tone tone)
{
    return v->color ? tone_on[tone] : "";
}

const char *view_off(const struct summary_view *v, enum view_tone tone)
{
    return v->color && tone != VIEW_PLAIN ? "\033[0m" : "";
}

int view_cols(const char *s, size_t len)
{
    int cols = 0;
    for (size_t i = 0; i < len; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            cols++;
    return cols;
}

/* Length in bytes of the longest start of s (len bytes) that fits in cols
 * columns and ends before a space; 0 when the first word alone is wider. */
static size_t fit_at_space(const char *s, size_t len, int cols)
{
    size_t best = 0;
    int used = 0;
    for (size_t i = 0; i < len; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            used++;
        if (used > cols)
            break;
        if (i + 1 < len && s[i + 1] == ' ')
            best = i + 1;
        if (i + 1 == len)
            best = len;
    }
    return best;
}

void view_line(FILE *out, const struct summary_view *v, enum view_tone tone,
               const char *text)
{
    size_t len = strlen(text), pos = 0;
    const char *colon = strstr(text, ": ");
    size_t tone_end = colon ? (size_t)(colon - text) + 1 : len;
    bool first = true;
    while (pos < len || first) {
        int room = v->width - (first ? 0 : 2);
        size_t n = fit_at_space(text + pos, len - pos, room > 10 ? room : 10);
        if (n == 0) { /* one word wider than the line: cut it at a space */
            const char *sp = strchr(text + pos, ' ');
            n = sp ? (size_t)(sp - (text + pos)) : len - pos;
        }
        if (!first)
            fputs("  ", out);
        if (first && tone != VIEW_PLAIN && tone_end <= n) {
            fprintf(out, "%s%.*s%s%.*s", view_on(v, tone), (int)tone_end, text,
                    view_off(v, tone), (int)(n - tone_end), text + tone_end);
        } else {
            fwrite(text + pos, 1, n, out);
        }
        fputc('\n', out);
        pos += n;
        while (pos < len && text[pos] == ' ')
            pos++;
        first = false;
    }
}

void view_put_name(struct buf *b, const char *s)
{
    printable_put(b, s ? s : "");
}
