/* prom_text_test: the Prometheus text parser on a table of lines (kinds,
 * names, labels with escapes, NaN/Inf, timestamps, exemplars, errors with
 * their column), every line also cut short at every byte (never a read
 * past the end), and the family of histogram and counter sample names. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "prom_text.h"

struct line_case {
    const char *line;
    int rc;
    enum prom_line_kind kind;
    const char *name;
    double value;       /* NAN: expect NaN */
    const char *labels; /* "k=v|k=v" after unescaping, NULL: none */
    long long ts;       /* -1: none */
};

static const struct line_case cases[] = {
    {"", PROM_OK, PROM_BLANK, NULL, 0, NULL, -1},
    {"   \t", PROM_OK, PROM_BLANK, NULL, 0, NULL, -1},
    {"# just a comment", PROM_OK, PROM_COMMENT, NULL, 0, NULL, -1},
    {"# EOF", PROM_OK, PROM_COMMENT, NULL, 0, NULL, -1},
    {"#", PROM_OK, PROM_COMMENT, NULL, 0, NULL, -1},
    {"# HELP vllm:num_requests_running Number of requests.", PROM_OK, PROM_HELP,
     "vllm:num_requests_running", 0, NULL, -1},
    {"# TYPE vllm:e2e_request_latency_seconds histogram", PROM_OK, PROM_TYPE,
     "vllm:e2e_request_latency_seconds", 0, NULL, -1},
    {"# TYPE x frobnicator", PROM_E_TYPE, PROM_COMMENT, NULL, 0, NULL, -1},
    {"llamacpp:requests_processing 3", PROM_OK, PROM_SAMPLE,
     "llamacpp:requests_processing", 3, NULL, -1},
    {"tgi_queue_size 0\r", PROM_OK, PROM_SAMPLE, "tgi_queue_size", 0, NULL, -1},
    {"a{} 1.5e3", PROM_OK, PROM_SAMPLE, "a", 1500, "", -1},
    {"vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} 7.0", PROM_OK,
     PROM_SAMPLE, "vllm:num_requests_waiting", 7, "engine=0|model_name=m", -1},
    {"x_bucket{le=\"+Inf\",} 12", PROM_OK, PROM_SAMPLE, "x_bucket", 12,
     "le=+Inf", -1},
    {"x{a=\"q\\\"uote\",b=\"back\\\\slash\",c=\"new\\nline\"} -2", PROM_OK,
     PROM_SAMPLE, "x", -2, "a=q\"uote|b=back\\slash|c=new\nline", -1},
    {"x{ a = \"1\" , b=\"{}\" } 1", PROM_OK, PROM_SAMPLE, "x", 1, "a=1|b={}",
     -1},
    {"x NaN", PROM_OK, PROM_SAMPLE, "x", NAN, NULL, -1},
    {"x nan", PROM_OK, PROM_SAMPLE, "x", NAN, NULL, -1},
    {"x +Inf", PROM_OK, PROM_SAMPLE, "x", INFINITY, NULL, -1},
    {"x -Inf", PROM_OK, PROM_SAMPLE, "x", -INFINITY, NULL, -1},
    {"x 1 1712345678000", PROM_OK, PROM_SAMPLE, "x", 1, NULL, 1712345678000LL},
    {"x 1 -5", PROM_OK, PROM_SAMPLE, "x", 1, NULL, -5},
    {"x 1 2 # {trace_id=\"a\"} 0.5", PROM_OK, PROM_SAMPLE, "x", 1, NULL, 2},
    {"x 1 # {trace_id=\"a\"} 0.5", PROM_OK, PROM_SAMPLE, "x", 1, NULL, -1},
    {"x\t2", PROM_OK, PROM_SAMPLE, "x", 2, NULL, -1},
    /* errors */
    {"9x 1", PROM_E_NAME, PROM_BLANK, NULL, 0, NULL, -1},
    {"x", PROM_E_VALUE, PROM_SAMPLE, "x", 0, NULL, -1},
    {"x abc", PROM_E_VALUE, PROM_SAMPLE, "x", 0, NULL, -1},
    {"x 0x10", PROM_E_VALUE, PROM_SAMPLE, "x", 0, NULL, -1},
    {"x 1 1.5", PROM_E_TIMESTAMP, PROM_SAMPLE, "x", 1, NULL, -1},
    {"x 1 2 3", PROM_E_TRAILING, PROM_SAMPLE, "x", 1, NULL, -1},
    {"x{a=1} 1", PROM_E_LABELS, PROM_SAMPLE, "x", 0, NULL, -1},
    {"x{a=\"1\" 1", PROM_E_LABELS, PROM_SAMPLE, "x", 0, NULL, -1},
    {"x{a=\"1", PROM_E_LABELS, PROM_SAMPLE, "x", 0, NULL, -1},
    {"x{a=\"\\q\"} 1", PROM_E_LABELS, PROM_SAMPLE, "x", 0, NULL, -1},
    {"x{=\"1\"} 1", PROM_E_NAME, PROM_SAMPLE, "x", 0, NULL, -1},
    {"x{a:b=\"1\"} 1", PROM_E_LABELS, PROM_SAMPLE, "x", 0, NULL, -1},
    {"# TYPE 9bad gauge", PROM_E_NAME, PROM_COMMENT, NULL, 0, NULL, -1},
};

/* "k=v|k=v" of l's labels. */
static void labels_text(const struct prom_line *l, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (size_t k = 0; k < l->n_labels && n < size; k++)
        n += (size_t)snprintf(out + n, size - n, "%s%.*s=%.*s", k ? "|" : "",
                              (int)l->labels[k].name_len, l->labels[k].name,
                              (int)l->labels[k].value_len, l->labels[k].value);
}

static void check_cases(void)
{
    static struct prom_line l;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct line_case *c = &cases[i];
        size_t len = strlen(c->line);
        /* a heap copy of exactly len bytes: ASan sees a read past it */
        char *p = malloc(len ? len : 1);
        int rc;
        memcpy(p, c->line, len);
        rc = prom_parse_line(p, len, &l);
        CHECK_MSG(rc == c->rc, "case %zu '%s': rc %d, want %d", i, c->line, rc,
                  c->rc);
        if (rc == PROM_OK) {
            CHECK_MSG(l.kind == c->kind, "case %zu: kind %d", i, (int)l.kind);
            if (c->name)
                CHECK_MSG(l.name_len == strlen(c->name) &&
                              memcmp(l.name, c->name, l.name_len) == 0,
                          "case %zu: name", i);
            if (c->kind == PROM_SAMPLE) {
                char got[512];
                if (isnan(c->value))
                    CHECK_MSG(isnan(l.value), "case %zu: NaN", i);
                else
                    CHECK_MSG(l.value == c->value, "case %zu: value %g", i,
                              l.value);
                labels_text(&l, got, sizeof got);
                CHECK_MSG(strcmp(got, c->labels ? c->labels : "") == 0,
                          "case %zu: labels '%s'", i, got);
                CHECK_MSG(l.has_timestamp == (c->ts != -1) &&
                              (c->ts == -1 || l.timestamp_ms == c->ts),
                          "case %zu: timestamp", i);
            }
        } else {
            CHECK_MSG(l.err_col <= len, "case %zu: column %zu", i, l.err_col);
        }
        /* every prefix parses without reading past its end */
        for (size_t cut = 0; cut < len; cut++)
            (void)prom_parse_line(p, cut, &l);
        free(p);
    }
}

static void check_errors_have_columns(void)
{
    static struct prom_line l;
    const char *s = "x{a=\"1\" b=\"2\"} 1";
    CHECK(prom_parse_line(s, strlen(s), &l) == PROM_E_LABELS);
    CHECK(l.err_col == 8); /* at the 'b' where a ',' or '}' was due */
    s = "x 1 zz";
    CHECK(prom_parse_line(s, strlen(s), &l) == PROM_E_TIMESTAMP);
    CHECK(l.err_col == 4);
    CHECK(strcmp(prom_strerror(PROM_E_VALUE),
                 "the value is missing or not a number") == 0);
}

static void check_long_line(void)
{
    static struct prom_line l;
    size_t n = PROM_LINE_MAX + 1;
    char *p = malloc(n);
    memset(p, 'a', n);
    CHECK(prom_parse_line(p, n, &l) == PROM_E_LONG);
    /* the longest taken: a label value filling the line unescapes whole */
    n = PROM_LINE_MAX;
    memcpy(p, "x{a=\"", 5);
    memset(p + 5, 'v', n - 5 - 4);
    memcpy(p + n - 4, "\"} 1", 4);
    CHECK(prom_parse_line(p, n, &l) == PROM_OK);
    CHECK(l.n_labels == 1 && l.labels[0].value_len == n - 9);
    free(p);
}

static void check_many_labels(void)
{
    static struct prom_line l;
    char line[2048];
    size_t n = 0;
    n += (size_t)snprintf(line + n, sizeof line - n, "x{");
    for (int k = 0; k <= PROM_MAX_LABELS; k++)
        n += (size_t)snprintf(line + n, sizeof line - n, "l%d=\"v\",", k);
    n += (size_t)snprintf(line + n, sizeof line - n, "} 1");
    CHECK(prom_parse_line(line, n, &l) == PROM_E_LABELS);
}

static void check_lines_and_families(void)
{
    const char *text = "a 1\n\nb 2\r\nc 3";
    const char *line;
    size_t pos = 0, len, count = 0;
    static struct prom_line l;
    while (prom_next_line(text, strlen(text), &pos, &line, &len)) {
        count++;
        if (count == 3) {
            CHECK(prom_parse_line(line, len, &l) == PROM_OK);
            CHECK(l.value == 2);
        }
    }
    CHECK(count == 4);
    CHECK(prom_family_len("t_bucket", 8) == 1);
    CHECK(prom_family_len("t_sum", 5) == 1);
    CHECK(prom_family_len("t_count", 7) == 1);
    CHECK(prom_family_len("vllm:prompt_tokens_total", 24) == 18);
    CHECK(prom_family_len("t_created", 9) == 1);
    CHECK(prom_family_len("_sum", 4) == 4);
    CHECK(prom_family_len("tgi_queue_size", 14) == 14);
    CHECK(prom_parse_line("x{le=\"0.5\"} 1", 13, &l) == PROM_OK);
    CHECK(prom_label_get(&l, "le") &&
          strcmp(prom_label_get(&l, "le")->value, "0.5") == 0);
    CHECK(prom_label_get(&l, "l") == NULL);
    CHECK(prom_type_from_name("histogram", 9) == PROM_HISTOGRAM);
    CHECK(prom_type_from_name("hist", 4) == -1);
}

int main(void)
{
    check_cases();
    check_errors_have_columns();
    check_long_line();
    check_many_labels();
    check_lines_and_families();
    return CHECK_DONE();
}
