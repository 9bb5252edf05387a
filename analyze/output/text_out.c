/* text_out: CSV fields, markdown-safe text and trimmed decimal numbers. */
#include "text_out.h"
#include "utf8.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void num_put(struct buf *b, double x, int decimals)
{
    char tmp[64];
    int n;
    if (!isfinite(x))
        return;
    n = snprintf(tmp, sizeof(tmp), "%.*f", decimals, x);
    if (n <= 0 || (size_t)n >= sizeof(tmp)) {
        buf_printf(b, "%.17g", x);
        return;
    }
    if (strchr(tmp, '.')) {
        while (n > 0 && tmp[n - 1] == '0')
            tmp[--n] = '\0';
        if (n > 0 && tmp[n - 1] == '.')
            tmp[--n] = '\0';
    }
    buf_puts(b, strcmp(tmp, "-0") == 0 ? "0" : tmp);
}

void num_put_exact(struct buf *b, double x)
{
    char tmp[40];
    if (!isfinite(x))
        return;
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(tmp, sizeof(tmp), "%.*g", digits, x);
        if (strtod(tmp, NULL) == x)
            break;
    }
    buf_puts(b, tmp);
}

void csv_put_field(struct buf *b, const char *s)
{
    bool quote, formula;
    if (!s)
        return;
    quote = strpbrk(s, ",\"\r\n") != NULL;
    formula = s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL;
    if (quote)
        buf_puts(b, "\"");
    if (formula)
        buf_puts(b, "'");
    for (size_t i = 0, len = strlen(s); i < len;) {
        size_t n = utf8_seq_len((const unsigned char *)s + i, len - i);
        if (n == 0) {
            buf_puts(b, "\xef\xbf\xbd"); /* U+FFFD: one UTF-8 rule */
            i++;
        } else if (utf8_is_control((const unsigned char *)s + i, n) &&
                   !strchr("\t\r\n", s[i])) {
            buf_puts(b, " "); /* a control character: a space, as in md */
            i += n;
        } else if (s[i] == '"') {
            buf_puts(b, "\"\"");
            i++;
        } else {
            buf_append(b, s + i, n);
            i += n;
        }
    }
    if (quote)
        buf_puts(b, "\"");
}

void md_put(struct buf *b, const char *str, size_t max_bytes)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t len, i = 0;
    if (!str) {
        buf_puts(b, "-");
        return;
    }
    len = strlen(str);
    while (i < len) {
        size_t n = utf8_seq_len(s + i, len - i);
        if (max_bytes && i + (n ? n : 1) > max_bytes) {
            buf_puts(b, "...");
            return;
        }
        if (n == 0) {
            buf_puts(b, "\xef\xbf\xbd"); /* U+FFFD */
            i++;
        } else if (utf8_is_control(s + i, n)) {
            buf_puts(b, " ");
            i += n;
        } else if (n > 1) {
            buf_append(b, s + i, n);
            i += n;
        } else {
            unsigned char c = s[i++];
            if (strchr("\\`*_[]<>|~&#!", c)) {
                char esc[2] = {'\\', (char)c};
                buf_append(b, esc, 2);
            } else {
                buf_append(b, &c, 1);
            }
        }
    }
}

void text_fmt_num(char *out, size_t size, double x)
{
    if (isnan(x))
        snprintf(out, size, "-");
    else if (fabs(x) >= 100000)
        snprintf(out, size, "%.0f", x);
    else if (fabs(x) >= 100)
        snprintf(out, size, "%.1f", x);
    else
        snprintf(out, size, "%.2f", x);
}

void text_wrap_put(struct buf *b, const char *text, int width, int indent)
{
    int col = (int)strspn(text, " ");
    const char *p = text + col;
    buf_printf(b, "%*s", col, "");
    while (*p) {
        size_t word = strcspn(p, " "), gap = strspn(p + word, " ");
        if (col > indent && width > 0 && col + 1 + (int)word > width) {
            buf_printf(b, "\n%*s", indent, "");
            col = indent;
        } else if (col > 0 && p != text + strspn(text, " ")) {
            buf_puts(b, " ");
            col++;
        }
        buf_append(b, p, word);
        col += (int)word; /* bytes: close enough for the analyzer's words */
        p += word + gap;
    }
    buf_puts(b, "\n");
}

/* "-0.00" after rounding reads as a change: print "+0.00" instead. */
static void unsign_zero(char *s)
{
    if (s[0] == '-' && s[1] && strspn(s + 1, "0.%") == strlen(s + 1))
        s[0] = '+';
}

void text_fmt_signed(char *out, size_t size, double x)
{
    double a = fabs(x);
    if (isnan(x))
        snprintf(out, size, "-");
    else if (a >= 10 || a == 0)
        snprintf(out, size, "%+.1f", x);
    else if (a >= 1)
        snprintf(out, size, "%+.2f", x);
    else if (a >= 0.01)
        snprintf(out, size, "%+.3f", x);
    else { /* two significant digits, never an exponent (+0.000048) */
        int decimals = 1 - (int)floor(log10(a));
        snprintf(out, size, "%+.*f", decimals > 12 ? 12 : decimals, x);
    }
    unsign_zero(out);
}

void text_fmt_pct(char *out, size_t size, double pct)
{
    if (isnan(pct))
        snprintf(out, size, "-");
    else if (fabs(pct) >= 10)
        snprintf(out, size, "%+.0f%%", pct);
    else if (fabs(pct) >= 0.1 || pct == 0)
        snprintf(out, size, "%+.1f%%", pct);
    else { /* two significant digits: -0.032%, never "+0.0%" for a fall */
        char num[40];
        text_fmt_signed(num, sizeof(num), pct);
        snprintf(out, size, "%s%%", num);
    }
    unsign_zero(out);
}
