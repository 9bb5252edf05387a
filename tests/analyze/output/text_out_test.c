/* text_out_test: the escaping of analyze/output/text_out.c, table-driven: CSV
 * fields (RFC 4180 and the formula guard), markdown text from hostile
 * traces, and trimmed decimal numbers; and summary JSON naming the values a
 * capped distribution dropped. */
#include "text_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "groups.h"
#include "log.h"
#include "summary_output.h"

struct str_case {
    const char *in;
    const char *want;
};

static const struct str_case csv_cases[] = {
    {"model-a", "model-a"},
    {"", ""},
    {"a,b", "\"a,b\""},
    {"say \"hi\"", "\"say \"\"hi\"\"\""},
    {"two\nlines", "\"two\nlines\""},
    {"cr\rhere", "\"cr\rhere\""},
    {"=1+2", "'=1+2"},
    {"+cmd", "'+cmd"},
    {"-x", "'-x"},
    {"@SUM(A1)", "'@SUM(A1)"},
    {"=a,b", "\"'=a,b\""},
    {"x=1", "x=1"},
};

static const struct str_case md_cases[] = {
    {"plain text 1.5", "plain text 1.5"},
    {"a|b", "a\\|b"},
    {"`code`", "\\`code\\`"},
    {"two\nlines\r\ttab", "two lines  tab"},
    {"*bold* _it_ [l](u) <b> ~s~ &amp; #h !i \\",
     "\\*bold\\* \\_it\\_ \\[l\\](u) \\<b\\> \\~s\\~ \\&amp; \\#h \\!i \\\\"},
    {"caf\xc3\xa9 \xe2\x80\x94", "caf\xc3\xa9 \xe2\x80\x94"},
    {"bad \xff byte \xc3", "bad \xef\xbf\xbd byte \xef\xbf\xbd"},
    {"\x01\x7f", "  "},
};

static void check_csv(void)
{
    for (size_t i = 0; i < sizeof(csv_cases) / sizeof(csv_cases[0]); i++) {
        struct buf b;
        buf_init(&b, 0);
        buf_puts(&b, "");
        csv_put_field(&b, csv_cases[i].in);
        CHECK_MSG(strcmp(b.data, csv_cases[i].want) == 0,
                  "csv %zu: got [%s] want [%s]", i, b.data, csv_cases[i].want);
        buf_free(&b);
    }
}

static void check_md(void)
{
    struct buf b;
    for (size_t i = 0; i < sizeof(md_cases) / sizeof(md_cases[0]); i++) {
        buf_init(&b, 0);
        buf_puts(&b, "");
        md_put(&b, md_cases[i].in, 0);
        CHECK_MSG(strcmp(b.data, md_cases[i].want) == 0,
                  "md %zu: got [%s] want [%s]", i, b.data, md_cases[i].want);
        buf_free(&b);
    }
    buf_init(&b, 0);
    md_put(&b, NULL, 0);
    CHECK(strcmp(b.data, "-") == 0);
    buf_reset(&b);
    md_put(&b, "abcdefgh", 4); /* cut at the limit */
    CHECK_MSG(strcmp(b.data, "abcd...") == 0, "cut: %s", b.data);
    buf_reset(&b);
    md_put(&b, "ab\xc3\xa9", 3); /* never inside a UTF-8 sequence */
    CHECK_MSG(strcmp(b.data, "ab...") == 0, "cut utf-8: %s", b.data);
    buf_free(&b);
}

static void check_num(void)
{
    static const struct {
        double x;
        int decimals;
        const char *want;
    } cases[] = {
        {100, 6, "100"},           {12.5, 6, "12.5"},
        {0.000123, 6, "0.000123"}, {1.23456789, 6, "1.234568"},
        {-0.0000001, 6, "0"},      {-3.25, 6, "-3.25"},
        {290, 3, "290"},           {1e15, 6, "1000000000000000"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct buf b;
        buf_init(&b, 0);
        buf_puts(&b, "");
        num_put(&b, cases[i].x, cases[i].decimals);
        CHECK_MSG(strcmp(b.data, cases[i].want) == 0,
                  "num %zu: got [%s] want [%s]", i, b.data, cases[i].want);
        buf_free(&b);
    }
    struct buf b;
    buf_init(&b, 0);
    buf_puts(&b, "");
    num_put(&b, NAN, 6);
    num_put(&b, INFINITY, 6);
    CHECK(b.len == 0);
    buf_free(&b);
}

/* Distributions capped at 3 values: 5 gaps of one request keep 3 and count
 * 2 dropped, in its group and overall, and summary JSON says so. */
static void check_dropped(void)
{
    static const double itl[5] = {1, 2, 3, 4, 5};
    struct group_by by;
    struct group_set set;
    struct request_metrics m;
    char err[200], json[16384];
    size_t n;
    FILE *f = tmpfile();
    CHECK(f != NULL);
    CHECK(group_by_parse("model", &by, err, sizeof(err)) == 0);
    group_set_init(&set, &by, NULL);
    group_set_limit_values(&set, 3);
    memset(&m, 0, sizeof(m));
    m.model = "model-a";
    m.class_name = m.measured_class = "short-short";
    m.token_source = "usage";
    m.ok = true;
    m.itl_ms = itl;
    m.n_itl = 5;
    CHECK(group_set_add(&set, &m) == 0);
    log_set_quiet(LOG_QUIET_ALL); /* the two warnings are expected */
    group_set_summarize(&set);
    log_set_quiet(0);
    CHECK(set.n_groups == 1);
    CHECK(set.groups[0]->dropped[M_ITL] == 2);
    CHECK(set.groups[0]->sum[M_ITL].n == 3);
    CHECK(set.groups[0]->dropped[M_TTFT] == 0);
    CHECK(set.overall.dropped[M_ITL] == 2);
    if (f) {
        CHECK(summary_write_json(f, &set) == 0);
        rewind(f);
        n = fread(json, 1, sizeof(json) - 1, f);
        json[n] = '\0';
        fclose(f);
        /* once for the group, once overall */
        const char *first = strstr(json, "\"dropped_values\":{\"itl_ms\":2}");
        CHECK_MSG(first != NULL, "%.300s", json);
        CHECK(first && strstr(first + 1, "\"dropped_values\":{\"itl_ms\":2}"));
    }
    group_set_free(&set);
}

int main(void)
{
    check_csv();
    check_md();
    check_num();
    check_dropped();
    return CHECK_DONE();
}
