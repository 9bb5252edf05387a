/* doc_out_test: the cap path of the machine formats. A small summary is
 * written as JSON, CSV and OpenMetrics under caps from 1 byte to its
 * length: below it the writer returns -1 and writes nothing, at it the
 * whole document comes out, the same bytes as uncapped. And doc_out_write
 * itself: a buffer with a sticky error writes nothing, a failed write is
 * an error. */
#include "doc_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "groups.h"
#include "log.h"
#include "summary_output.h"

/* Everything f holds, malloc'd (*n bytes). */
static char *slurp(FILE *f, size_t *n)
{
    long len;
    char *s;
    fflush(f);
    len = ftell(f);
    s = malloc(len > 0 ? (size_t)len + 1 : 1);
    rewind(f);
    *n = len > 0 ? fread(s, 1, (size_t)len, f) : 0;
    s[*n] = '\0';
    return s;
}

/* Two groups of two requests, one with a name that needs escaping. */
static void small_set(struct group_set *set)
{
    static const double itl[3] = {1.5, 2, 30};
    static const char *models[4] = {"model-a", "model-a", "m\"\n\xff", "m2"};
    struct group_by by;
    char err[200];
    CHECK(group_by_parse("model", &by, err, sizeof(err)) == 0);
    group_set_init(set, &by, NULL);
    for (int i = 0; i < 4; i++) {
        struct request_metrics m;
        memset(&m, 0, sizeof(m));
        m.model = models[i];
        m.class_name = m.measured_class = "short-short";
        m.token_source = "usage";
        m.ok = true;
        m.ttft_ms = 10 + i;
        m.latency_ms = 100 + i;
        m.itl_ms = itl;
        m.n_itl = 3;
        CHECK(group_set_add(set, &m) == 0);
    }
    group_set_summarize(set);
}

typedef int (*writer)(FILE *, const struct group_set *);

/* Caps below the document's length: -1 and nothing written; at it and
 * above: 0 and the whole document. Every 7th cap, and every one of the
 * first and last 64 bytes (the whole sweep is 20 times slower). */
static void every_cap(const char *name, writer w, const struct group_set *set)
{
    FILE *f = tmpfile();
    char *full, *got;
    size_t len, n, wrong = 0;
    CHECK(f != NULL);
    if (!f)
        return;
    doc_out_test_cap(0);
    CHECK(w(f, set) == 0);
    full = slurp(f, &len);
    CHECK_MSG(len > 100, "%s: %zu bytes", name, len);
    log_set_quiet(LOG_QUIET_ALL); /* one "nothing written" per cap */
    for (size_t cap = 1; cap <= len + 1;
         cap += cap < 64 || cap + 64 > len ? 1 : 7) {
        int rc;
        rewind(f); /* f empty again */
        CHECK(ftruncate(fileno(f), 0) == 0);
        doc_out_test_cap(cap);
        rc = w(f, set);
        got = slurp(f, &n);
        if (cap < len ? rc != -1 || n != 0
                      : rc != 0 || n != len || memcmp(got, full, len) != 0) {
            if (wrong++ < 3)
                fprintf(stderr, "%s: cap %zu of %zu: rc %d, %zu bytes\n", name,
                        cap, len, rc, n);
        }
        free(got);
    }
    log_set_quiet(0);
    doc_out_test_cap(0);
    CHECK_MSG(wrong == 0, "%s: %zu caps gave a part of the document", name,
              wrong);
    printf("%s: caps from 1 to %zu bytes\n", name, len + 1);
    free(full);
    fclose(f);
}

/* doc_out_write on its own: the sticky error and a failed write. */
static void write_itself(void)
{
    struct buf b;
    FILE *f = tmpfile(), *full = fopen("/dev/full", "w");
    char *got;
    size_t n;
    buf_init(&b, 4);
    buf_puts(&b, "abc");
    CHECK(doc_out_write(f, &b, "test") == 0);
    buf_puts(&b, "defg"); /* over the cap: a hole */
    buf_puts(&b, "d");    /* fits again, the error stays */
    log_set_quiet(LOG_QUIET_ALL);
    CHECK(doc_out_write(f, &b, "test") == -1);
    got = slurp(f, &n);
    CHECK(n == 3 && memcmp(got, "abc", 3) == 0);
    free(got);
    buf_reset(&b);
    buf_puts(&b, "x");
    if (full) { /* the write fails at the flush or the write itself */
        setvbuf(full, NULL, _IONBF, 0);
        CHECK(doc_out_write(full, &b, "test") == -1);
        fclose(full);
    }
    log_set_quiet(0);
    buf_free(&b);
    fclose(f);
}

int main(void)
{
    struct group_set set;
    small_set(&set);
    every_cap("summary --format json", summary_write_json, &set);
    every_cap("summary --format csv", summary_write_csv, &set);
    every_cap("summary --format openmetrics", summary_write_openmetrics, &set);
    group_set_free(&set);
    write_itself();
    return CHECK_DONE();
}
