/* progress_test: the progress line's live TTFT p50 stays within
 * PROGRESS_TTFT_REL_ERR of the exact (interpolated) median of the samples
 * for many sample sets, follows samples added late in a long run, takes
 * any value without harm, lives in fixed memory, and the line keeps its
 * format: fields fit the width (dropped from the right), rate and ETA
 * (from the count, the schedule's end or both), stalled streams, the open
 * loop's planned count; with two or more models the TTFT p50 of each, as
 * many as fit and a count of the rest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "progress.h"

/* Fixed memory: the run's histogram is in the struct; per model ones are
 * allocated once, at the start (progress_set_models). */
_Static_assert(sizeof(struct progress) <= 16 * 1024,
               "struct progress must stay small and fixed");

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

/* A deterministic uniform double in (0, 1). */
static double uniform(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The exact median, interpolated as the analyzer and the old line did. */
static double exact_p50(double *v, size_t n)
{
    double k = (double)(n - 1) * 0.5, r;
    size_t lo = (size_t)k;
    qsort(v, n, sizeof *v, cmp_double);
    r = v[lo];
    if (lo + 1 < n)
        r += (v[lo + 1] - v[lo]) * (k - (double)lo);
    return r;
}

/* Feeds n samples (ms) from a log-uniform spread over [lo_ms, hi_ms] and
 * checks the estimate against the exact median. */
static void check_spread(size_t n, double lo_ms, double hi_ms)
{
    struct progress p;
    double *v = malloc(n * sizeof *v), want, got;
    progress_init(&p, false, n, 0);
    for (size_t i = 0; i < n; i++) {
        int64_t ns = (int64_t)(lo_ms * pow(hi_ms / lo_ms, uniform()) * 1e6);
        v[i] = (double)ns / 1e6;
        progress_add_ttft(&p, ns);
    }
    want = exact_p50(v, n);
    got = progress_ttft_p50(&p);
    CHECK_MSG(fabs(got - want) <= PROGRESS_TTFT_REL_ERR * want,
              "n=%zu [%g, %g] ms: p50 %g, exact %g", n, lo_ms, hi_ms, got,
              want);
    progress_finish(&p, 0);
    free(v);
}

/* Draws the line into a file and returns what was written. */
static void draw_to(struct progress *p, char *out, size_t cap)
{
    FILE *f = tmpfile();
    int saved = dup(2);
    size_t n;
    fflush(stderr);
    dup2(fileno(f), 2);
    progress_draw(p, 2500000000LL, true);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(f);
    n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    fclose(f);
}

/* One line: a state at 2.5 s into the run, a width, the text expected. */
struct format_case {
    uint64_t total, planned, done, errors, in_flight, stalled, retries;
    int64_t plan_end_ns;
    bool finished;
    int columns;
    const char *want;
};

#define S(x) ((int64_t)(x)*1000000000LL)
#define NONE UINT64_MAX

static const struct format_case format_cases[] = {
    /* closed loop -n 10: the ETA from the rate so far */
    {10, NONE, 5, 0, 2, 0, 0, -1, false, 200,
     "5/10 done, 0 errors, 2 in flight, TTFT p50 -, 2 s, 2.0 req/s, "
     "ETA 2 s"},
    /* nothing done yet: no rate, no ETA */
    {10, NONE, 0, 0, 2, 0, 0, -1, false, 200,
     "0/10 done, 0 errors, 2 in flight, TTFT p50 -, 2 s"},
    /* the final line: no ETA */
    {10, NONE, 10, 1, 0, 0, 0, -1, true, 200,
     "10/10 done, 1 errors, 0 in flight, TTFT p50 -, 2 s, 4.0 req/s"},
    /* open loop --rate 10 --duration 60: planned count, ETA from the end */
    {NONE, 600, 25, 0, 3, 0, 0, S(60), false, 200,
     "25/~600 done, 0 errors, 3 in flight, TTFT p50 -, 2 s, 10 req/s, "
     "ETA 58 s"},
    /* open loop -n 1000 --rate 5: the schedule ends at 200 s */
    {1000, NONE, 10, 0, 1, 0, 0, S(200), false, 200,
     "10/1000 done, 0 errors, 1 in flight, TTFT p50 -, 2 s, 4.0 req/s, "
     "ETA 3m18s"},
    /* closed loop --duration 7200, no -n */
    {NONE, NONE, 10, 0, 1, 0, 0, S(7200), false, 200,
     "10 done, 0 errors, 1 in flight, TTFT p50 -, 2 s, 4.0 req/s, "
     "ETA 1h59m"},
    /* -n and --duration: whichever ends first */
    {100000, NONE, 10, 0, 1, 0, 0, S(30), false, 200,
     "10/100000 done, 0 errors, 1 in flight, TTFT p50 -, 2 s, 4.0 req/s, "
     "ETA 28 s"},
    /* the duration is over: ETA 0 */
    {NONE, NONE, 10, 0, 1, 0, 0, S(1), false, 200,
     "10 done, 0 errors, 1 in flight, TTFT p50 -, 2 s, 4.0 req/s, "
     "ETA 0 s"},
    /* stalled streams, right after the in-flight count */
    {10, NONE, 0, 0, 4, 3, 0, -1, false, 200,
     "0/10 done, 0 errors, 4 in flight, 3 stalled >=5 s, TTFT p50 -, 2 s"},
    /* narrow: whole fields dropped from the right, never wrapped */
    {10, NONE, 5, 0, 2, 0, 0, -1, false, 40,
     "5/10 done, 0 errors, 2 in flight"},
    {10, NONE, 5, 0, 2, 0, 0, -1, false, 33,
     "5/10 done, 0 errors, 2 in flight"},
    {10, NONE, 5, 0, 2, 0, 0, -1, false, 32, "5/10 done, 0 errors"},
    {10, NONE, 5, 0, 2, 0, 0, -1, false, 11, "5/10 done"},
    /* narrower than the first field: it is cut */
    {10, NONE, 5, 0, 2, 0, 0, -1, false, 6, "5/10 "},
    {10, NONE, 5, 0, 2, 0, 0, -1, false, 1, "5"},
    {10, NONE, 5, 0, 2, 0, 0, -1, false, 0, "5"},
    {10, NONE, 5, 0, 2, 0, 0, -1, false, -3, "5"},
};

/* Every case formatted, and drawn through stderr with that width. */
static void check_formats(void)
{
    for (size_t i = 0; i < sizeof format_cases / sizeof *format_cases; i++) {
        const struct format_case *c = &format_cases[i];
        struct progress p;
        char line[512], drawn[600], want[600], cols[16];
        size_t n;
        progress_init(&p, true, c->total, 0);
        progress_set_plan(&p, c->planned, c->plan_end_ns);
        p.done = c->done;
        p.errors = c->errors;
        p.in_flight = c->in_flight;
        p.stalled = c->stalled;
        p.retries = c->retries;
        p.finished = c->finished;
        n = progress_format(&p, 2500000000LL, c->columns, line, sizeof line);
        CHECK_MSG(strcmp(line, c->want) == 0, "case %zu: '%s', want '%s'", i,
                  line, c->want);
        CHECK_MSG(n == strlen(line), "case %zu: length %zu", i, n);
        CHECK_MSG(c->columns < 2 || n < (size_t)c->columns,
                  "case %zu: %zu chars in %d columns", i, n, c->columns);
        if (c->columns <= 0)
            continue;
        /* the same through the line drawn on stderr ($COLUMNS: not a tty) */
        snprintf(cols, sizeof cols, "%d", c->columns);
        setenv("COLUMNS", cols, 1);
        draw_to(&p, drawn, sizeof drawn);
        snprintf(want, sizeof want, "\r%s\033[K", c->want);
        CHECK_MSG(strcmp(drawn, want) == 0, "case %zu: drawn '%s'", i,
                  drawn + 1);
    }
    /* a tiny buffer is always terminated */
    {
        struct progress p;
        char small[8];
        progress_init(&p, true, 10, 0);
        progress_format(&p, 0, 200, small, sizeof small);
        CHECK(strlen(small) < sizeof small);
    }
    /* the width: $COLUMNS when stderr is no terminal, else 80 */
    setenv("COLUMNS", "123", 1);
    CHECK(isatty(2) || progress_columns() == 123);
    setenv("COLUMNS", "12x", 1);
    CHECK(isatty(2) || progress_columns() == 80);
    unsetenv("COLUMNS");
    CHECK(isatty(2) || progress_columns() == 80);
}

/* Per model: each model's own p50, the cut ones counted, names made
 * terminal-safe, and the line within the width. */
static void check_models(void)
{
    static const char *const names[] = {"fast", "slow", "thi\033rd"};
    struct progress p;
    char line[512];
    size_t n;
    progress_init(&p, false, 30, 0);
    CHECK(progress_set_models(&p, names, 3) == 0);
    for (int i = 0; i < 5; i++) {
        progress_add_model_ttft(&p, 0, 20000000);  /* 20 ms */
        progress_add_model_ttft(&p, 1, 400000000); /* 400 ms */
    }
    progress_add_model_ttft(&p, 7, 1000000); /* no such model: the run's */
    CHECK(p.n_ttft == 11);
    CHECK(fabs(progress_model_ttft_p50(&p, 0) - 20) <= 0.2);
    CHECK(fabs(progress_model_ttft_p50(&p, 1) - 400) <= 4);
    CHECK(progress_model_ttft_p50(&p, 2) == -1);
    p.done = 10;
    n = progress_format(&p, S(2), 200, line, sizeof line);
    CHECK_MSG(strcmp(line, "10/30 done, 0 errors, 0 in flight, TTFT p50 fast "
                           "20 ms, slow 401 ms, thi?rd -, 2 s, 5.0 req/s, "
                           "ETA 4 s") == 0,
              "line '%s'", line);
    CHECK(n == strlen(line));
    /* 70 columns: one model fits with the count of the others */
    progress_format(&p, S(2), 70, line, sizeof line);
    CHECK_MSG(strcmp(line, "10/30 done, 0 errors, 0 in flight, TTFT p50 fast "
                           "20 ms, +2 more, 2 s") == 0,
              "line '%s'", line);
    /* 77: two of three */
    progress_format(&p, S(2), 77, line, sizeof line);
    CHECK_MSG(strcmp(line, "10/30 done, 0 errors, 0 in flight, TTFT p50 fast "
                           "20 ms, slow 401 ms, +1 more") == 0,
              "line '%s'", line);
    for (int cols = 20; cols <= 120; cols++) {
        progress_format(&p, S(2), cols, line, sizeof line);
        CHECK_MSG(strlen(line) <= (size_t)cols - 1, "%d columns: '%s'", cols,
                  line);
    }
    progress_free(&p);
    progress_free(&p); /* twice: harmless */
    /* one model: no per-model histogram, the line as before */
    progress_init(&p, false, 30, 0);
    CHECK(progress_set_models(&p, names, 1) == 0);
    CHECK(p.model_hist == NULL);
    progress_add_model_ttft(&p, 0, 20000000);
    progress_format(&p, S(2), 200, line, sizeof line);
    CHECK_MSG(strstr(line, ", TTFT p50 20 ms, ") != NULL, "line '%s'", line);
    progress_free(&p);
}

int main(void)
{
    struct progress p;
    char line[256], want[256];

    check_formats();
    check_models();
    /* the fields the line always had, on a wide terminal */
    setenv("COLUMNS", "200", 1);
    progress_init(&p, true, 10, 0);
    CHECK(progress_ttft_p50(&p) == -1);
    draw_to(&p, line, sizeof line);
    CHECK_MSG(strcmp(line, "\r0/10 done, 0 errors, 0 in flight, TTFT p50 -, "
                           "2 s\033[K") == 0,
              "line '%s'", line + 1);
    progress_add_ttft(&p, 123400000); /* 123.4 ms */
    CHECK(fabs(progress_ttft_p50(&p) - 123.4) <= 1.234);
    p.done = 3;
    p.errors = 1;
    p.in_flight = 2;
    draw_to(&p, line, sizeof line);
    snprintf(want, sizeof want,
             "\r3/10 done, 1 errors, 2 in flight, TTFT "
             "p50 %.0f ms, 2 s, 1.2 req/s, ETA 6 s\033[K",
             progress_ttft_p50(&p));
    CHECK_MSG(strcmp(line, want) == 0, "line '%s'", line + 1);
    p.retries = 4;
    p.waiting = 1;
    draw_to(&p, line, sizeof line);
    CHECK_MSG(
        strstr(line, ", 2 in flight, 4 retries (1 waiting), TTFT p50 1") !=
            NULL,
        "line '%s'", line + 1);

    /* two far apart: the interpolated middle, not either sample */
    progress_init(&p, false, 2, 0);
    progress_add_ttft(&p, 1000000);
    progress_add_ttft(&p, 1000000000);
    CHECK(fabs(progress_ttft_p50(&p) - 500.5) <= 5.005);

    /* many spreads and sizes, odd and even */
    for (size_t n = 1; n <= 40; n++)
        check_spread(n, 5, 5000);
    check_spread(1001, 0.01, 100);
    check_spread(10000, 50, 60);
    check_spread(100000, 1, 1e6);
    check_spread(200001, 200, 2000);

    /* a long run: the median follows late samples (a capped sample store
     * would stay at the first ones), in the same memory */
    progress_init(&p, false, UINT64_MAX, 0);
    for (int i = 0; i < 300000; i++)
        progress_add_ttft(&p, 100000000); /* 100 ms */
    for (int i = 0; i < 700000; i++)
        progress_add_ttft(&p, 400000000); /* 400 ms */
    CHECK(p.n_ttft == 1000000);
    CHECK(fabs(progress_ttft_p50(&p) - 400) <= 4);

    /* any value is counted without harm: zero, negative, huge */
    progress_init(&p, false, 3, 0);
    progress_add_ttft(&p, 0);
    progress_add_ttft(&p, -5);
    progress_add_ttft(&p, INT64_MAX);
    CHECK(p.n_ttft == 3);
    CHECK(progress_ttft_p50(&p) >= 0 && progress_ttft_p50(&p) < 0.01);
    return CHECK_DONE();
}
