/* plot_escape_test: the escaping rules of analyze/plot/plot_escape.c (strings
 * from traces in .dat, gnuplot and HTML) and the embedded templates of
 * analyze/plot/plot_template.c. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "plot_escape.h"
#include "plot_template.h"
#include "utf8.h"

static const struct {
    const char *in, *dat, *gp;
} cases[] = {
    {"model-a", "\"model-a\"", "'model-a'"},
    {"", "\"(none)\"", "''"},
    {"x\" ; system(\"touch /tmp/owned\") ; \"",
     "\"x' ; system('touch /tmp/owned') ; '\"",
     "'x_ _ system(_touch /tmp/owned_) _ _'"},
    {"a`id`b", "\"a`id`b\"", "'a_id_b'"},
    {"line1\nline2\tx\r", "\"line1 line2 x \"", "'line1_line2_x_'"},
    {"p|q & r\\s", "\"p|q + r/s\"", "'p_q _ r_s'"},
    {"it's", "\"it's\"", "'it_s'"},
    {"$(rm -rf /)", "\"$(rm -rf /)\"", "'_(rm -rf /)'"},
    {"模型-甲 (v2.5)", "\"模型-甲 (v2.5)\"", "'模型-甲 (v2.5)'"},
    {"bad\xff\xfeutf8", "\"bad??utf8\"", "'bad__utf8'"},
    {"over\xc0\xaflong", "\"over??long\"", "'over__long'"},
    {"surrogate\xed\xa0\x80", "\"surrogate???\"", "'surrogate___'"},
};

static void test_strings(void)
{
    char out[512];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        plot_dat_string_buf(out, sizeof(out), cases[i].in);
        CHECK_MSG(strcmp(out, cases[i].dat) == 0, "dat %zu: %s", i, out);
        plot_gp_string(out, sizeof(out), cases[i].in);
        CHECK_MSG(strcmp(out, cases[i].gp) == 0, "gp %zu: %s", i, out);
        /* Whatever the input, gnuplot code gets one quoted literal. */
        CHECK(strchr(out + 1, '\'') == out + strlen(out) - 1);
        CHECK(!strpbrk(out, "\"`$\\\n;|"));
    }
    /* A NULL string is "(none)" too. */
    plot_dat_string_buf(out, sizeof(out), NULL);
    CHECK(strcmp(out, "\"(none)\"") == 0);
}

static void test_long(void)
{
    char in[1000], out[512];
    size_t n;
    memset(in, 'x', sizeof(in) - 1);
    in[sizeof(in) - 1] = '\0';
    n = plot_dat_string_buf(out, sizeof(out), in);
    CHECK(n <= PLOT_DAT_STRING_MAX + 8);
    CHECK(strcmp(out + n - 4, "...\"") == 0);
    /* Cut at a UTF-8 boundary: 3-byte characters never split. */
    for (int i = 0; i < 100; i++)
        memcpy(in + 3 * i, "中", 3);
    in[300] = '\0';
    n = plot_dat_string_buf(out, sizeof(out), in);
    CHECK(n > 5 && (n - 5) % 3 == 0);
    /* Small buffers stay terminated. */
    n = plot_gp_string(out, 6, "abcdefgh");
    CHECK(n == 5 && strcmp(out, "'abc'") == 0);
}

static void test_html(void)
{
    static const struct {
        const char *in, *out;
    } h[] = {
        {"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
        {"a & \"b\" 'c'", "a &amp; &quot;b&quot; &#39;c&#39;"},
        {"ok\x01\x1b[31m\n", "ok[31m\n"},
        {"\xff", "\xEF\xBF\xBD"},
        {"中文", "中文"},
        {"http://x.invalid/", "http&#58;//x.invalid/"},
    };
    for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        CHECK(plot_html_escape(f, h[i].in, strlen(h[i].in)) == 0);
        fclose(f);
        CHECK_MSG(strcmp(text, h[i].out) == 0, "html %zu: %s", i, text);
        free(text);
    }
}

static void test_utf8(void)
{
    CHECK(utf8_seq_len((const unsigned char *)"a", 1) == 1);
    CHECK(utf8_seq_len((const unsigned char *)"\xc3\xa9", 2) == 2);
    CHECK(utf8_seq_len((const unsigned char *)"\xc3", 1) == 0);
    CHECK(utf8_seq_len((const unsigned char *)"\xe4\xb8\xad", 3) == 3);
    CHECK(utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80", 4) == 4);
    CHECK(utf8_seq_len((const unsigned char *)"\xf4\x90\x80\x80", 4) == 0);
    CHECK(utf8_seq_len((const unsigned char *)"\xe0\x80\x80", 3) == 0);
}

/* True when a line that is not a comment holds a double quote. */
static int code_has_double_quote(const char *text)
{
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n'), *p = line;
        size_t len = end ? (size_t)(end - line) : strlen(line);
        while (*p == ' ')
            p++;
        if (*p != '#' && memchr(line, '"', len))
            return 1;
        line = end ? end + 1 : NULL;
    }
    return 0;
}

/* Every embedded template fills with the analyzer's keys, and the result
 * has no placeholder left. */
static void test_templates(void)
{
    const struct plot_subst subst[] = {
        {"NAME", "x"},     {"FORMAT", "png"}, {"FONT", "'Sans'"},
        {"WIDTH", "1000"}, {"HEIGHT", "600"}, {"VARS", "nb = 0"},
    };
    static const char *const charts[] = {
        "ttft-cdf", "tpot",       "latency-vs-tokens", "itl",
        "timeline", "throughput", "compare",           "trend"};
    char err[256];
    CHECK(plot_template_count >= 9);
    for (size_t i = 0; i < sizeof(charts) / sizeof(charts[0]); i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        int rc = plot_template_fill(f, charts[i], subst, 6, err, sizeof(err));
        fclose(f);
        CHECK_MSG(rc == 0, "%s: %s", charts[i], err);
        CHECK(rc != 0 ||
              (!strstr(text, "@@") && strstr(text, "set output 'x.'.fmt")));
        /* Templates never use double-quoted strings (gnuplot expands
         * backquotes and escapes in them). */
        CHECK_MSG(rc != 0 || !code_has_double_quote(text),
                  "%s has double quotes", charts[i]);
        free(text);
    }
    {
        FILE *f = fopen("/dev/null", "w");
        CHECK(plot_template_fill(f, "no-such", subst, 6, err, sizeof(err)) ==
              -1);
        CHECK(plot_template_fill(f, "tpot", subst, 3, err, sizeof(err)) == -1);
        CHECK(strstr(err, "no value for") != NULL);
        fclose(f);
    }
}

int main(void)
{
    test_strings();
    test_long();
    test_html();
    test_utf8();
    test_templates();
    return CHECK_DONE();
}
