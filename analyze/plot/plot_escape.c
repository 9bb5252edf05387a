/* plot_escape: sanitizing untrusted trace strings for .dat, gnuplot, HTML. */
#include "plot_escape.h"

#include <stdbool.h>
#include <string.h>

#include "utf8.h"

/* Appends len bytes to out if they fit (keeping room for tail bytes and
 * the NUL); returns false when they did not. */
static bool put(char *out, size_t size, size_t *len, const char *p, size_t n,
                size_t tail)
{
    if (*len + n + tail + 1 > size)
        return false;
    memcpy(out + *len, p, n);
    *len += n;
    return true;
}

size_t plot_dat_string_buf(char *out, size_t size, const char *s)
{
    size_t len = 0, limit = size < PLOT_DAT_STRING_MAX + 8
                                ? size
                                : PLOT_DAT_STRING_MAX + 8;
    const unsigned char *u = (const unsigned char *)(s ? s : "");
    size_t avail = strlen((const char *)u);
    if (size < 12) {
        if (size)
            out[0] = '\0';
        return 0;
    }
    out[len++] = '"';
    if (avail == 0)
        put(out, size, &len, "(none)", 6, 1);
    while (avail > 0) {
        size_t n = utf8_seq_len(u, avail);
        char c;
        if (n > 1) {
            if (!put(out, limit, &len, (const char *)u, n, 4))
                goto cut;
            u += n;
            avail -= n;
            continue;
        }
        c = (char)u[0];
        if (n == 0)
            c = '?';
        else if (c == '"')
            c = '\'';
        else if (c == '\\')
            c = '/';
        else if (c == '&')
            c = '+';
        else if ((unsigned char)c < 0x20 || c == 0x7f)
            c = ' ';
        if (!put(out, limit, &len, &c, 1, 4))
            goto cut;
        u++;
        avail--;
    }
    out[len++] = '"';
    out[len] = '\0';
    return len;
cut:
    memcpy(out + len, "...\"", 4);
    len += 4;
    out[len] = '\0';
    return len;
}

int plot_dat_string(FILE *out, const char *s)
{
    char tmp[PLOT_DAT_STRING_MAX + 16];
    size_t n = plot_dat_string_buf(tmp, sizeof(tmp), s);
    return fwrite(tmp, 1, n, out) == n ? 0 : -1;
}

/* True for the ASCII characters plot_gp_string lets through. */
static bool gp_allowed(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || (c && strchr(" -_.:/+()", c));
}

size_t plot_gp_string(char *out, size_t size, const char *s)
{
    size_t len = 0;
    const unsigned char *u = (const unsigned char *)(s ? s : "");
    size_t avail = strlen((const char *)u);
    if (size < 3) {
        if (size)
            out[0] = '\0';
        return 0;
    }
    out[len++] = '\'';
    while (avail > 0) {
        size_t n = utf8_seq_len(u, avail);
        if (n > 1) {
            if (!put(out, size, &len, (const char *)u, n, 1))
                break;
        } else {
            char c = n == 1 && gp_allowed(u[0]) ? (char)u[0] : '_';
            if (!put(out, size, &len, &c, 1, 1))
                break;
            n = 1;
        }
        u += n;
        avail -= n;
    }
    out[len++] = '\'';
    out[len] = '\0';
    return len;
}

int plot_html_escape(FILE *out, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    while (n > 0) {
        size_t k = utf8_seq_len(u, n);
        int r = 0;
        if (k == 0) {
            r = fputs("\xEF\xBF\xBD", out);
            k = 1;
        } else if (k > 1) {
            r = fwrite(u, 1, k, out) == k ? 0 : EOF;
        } else {
            switch (u[0]) {
            case '&':
                r = fputs("&amp;", out);
                break;
            case '<':
                r = fputs("&lt;", out);
                break;
            case '>':
                r = fputs("&gt;", out);
                break;
            case '"':
                r = fputs("&quot;", out);
                break;
            case '\'':
                r = fputs("&#39;", out);
                break;
            /* So no "http:" from a trace reads as a reference, even to a
             * naive search: the page refers to nothing outside itself. */
            case ':':
                r = fputs("&#58;", out);
                break;
            default:
                if (u[0] >= 0x20 && u[0] != 0x7f)
                    r = putc(u[0], out);
                else if (u[0] == '\n' || u[0] == '\t')
                    r = putc(u[0], out);
                break;
            }
        }
        if (r == EOF)
            return -1;
        u += k;
        n -= k;
    }
    return 0;
}
