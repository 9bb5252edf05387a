/* replay_synth_spec_test: the --synthetic SPEC parser, table-driven: good
 * specs with the profiles they must produce, bad specs that must fail. */
#include <string.h>

#include "check.h"
#include "replay_synth_spec.h"

#define MS 1000000LL
#define DFLT -2 /* "the built-in default" in the table */

struct good_case {
    const char *spec;
    const char *model; /* profile looked up ("" for the default) */
    int64_t ttft_ns, tpot_ns, ttft_per_1k_ns, tokens, tokens_per_chunk;
    double jitter;
    size_t n_models;
};

static const struct good_case good[] = {
    {"ttft=200ms,tpot=20ms,tokens=20", "", 200 * MS, 20 * MS, 0, 20, 1, 0, 0},
    {"ttft=1.5s", "", 1500 * MS, DFLT, 0, DFLT, 1, 0, 0},
    {"ttft=250us,tpot=100ns", "", 250000, 100, 0, DFLT, 1, 0, 0},
    {"ttft=0,tpot=0", "", 0, 0, 0, DFLT, 1, 0, 0},
    {"jitter=0.25,tokens_per_chunk=4", "", DFLT, DFLT, 0, DFLT, 4, 0.25, 0},
    {"jitter=1", "", DFLT, DFLT, 0, DFLT, 1, 1.0, 0},
    {"ttft_per_1k=30ms", "", DFLT, DFLT, 30 * MS, DFLT, 1, 0, 0},
    /* the example from --help: default and a model profile */
    {"ttft=80ms,tpot=4ms,tokens=128,ttft_per_1k=30ms;model=slow-model,"
     "ttft=250ms,tpot=9ms,ttft_per_1k=60ms,tokens=128",
     "slow-model", 250 * MS, 9 * MS, 60 * MS, 128, 1, 0, 1},
    {"ttft=80ms,tpot=4ms,tokens=128,ttft_per_1k=30ms;model=slow-model,"
     "ttft=250ms,tpot=9ms,ttft_per_1k=60ms,tokens=128",
     "other-model", 80 * MS, 4 * MS, 30 * MS, 128, 1, 0, 1},
    /* a model profile inherits unset keys from the default, wherever the
     * default appears */
    {"model=m,ttft=1s;tpot=7ms,tokens=9", "m", 1000 * MS, 7 * MS, 0, 9, 1, 0,
     1},
    {"model=a,tokens=5;model=b,tokens=6", "b", DFLT, DFLT, 0, 6, 1, 0, 2},
    {"model=a,tokens=5;model=b,tokens=6", "c", DFLT, DFLT, 0, DFLT, 1, 0, 2},
    {"model=only", "only", DFLT, DFLT, 0, DFLT, 1, 0, 1},
    /* a huge fast stream (tests/record/net/record_big_stream.sh), and the
     * longest generation allowed */
    {"ttft=0,tpot=0,tokens=160000000,tokens_per_chunk=1024", "", 0, 0, 0,
     160000000, 1024, 0, 0},
    {"tpot=3600s,tokens=1000000", "", DFLT, 3600000 * MS, 0, 1000000, 1, 0, 0},
};

static const char *const bad[] = {
    "",                                  /* empty */
    ";",                                 /* empty profiles */
    "ttft=200ms;",                       /* trailing empty profile */
    "ttft=200ms,",                       /* stray comma */
    "ttft",                              /* not key=value */
    "ttft=",                             /* empty value */
    "ttft=200",                          /* bare number needs a unit */
    "ttft=200xs",                        /* unknown unit */
    "ttft=-5ms",                         /* negative */
    "ttft=2h",                           /* above one hour */
    "ttft=3601s",                        /* above one hour */
    "ttft=ms",                           /* no number */
    "tpot=nan",                          /* not a number */
    "tokens=0",                          /* below 1 */
    "tokens=1.5",                        /* not an integer */
    "tokens=10x",                        /* trailing junk */
    "tokens=1000000001",                 /* above the cap */
    "tokens=1000000000,tpot=3600s",      /* the generation is too long */
    "tpot=3600s;model=m,tokens=1000001", /* the same, inherited */
    "tokens_per_chunk=0",                /* below 1 */
    "tokens_per_chunk=2000",             /* above the cap */
    "jitter=1.5",                        /* above 1 */
    "jitter=-0.1",                       /* negative */
    "speed=2",                           /* unknown key */
    "TTFT=200ms",                        /* keys are case-sensitive */
    "ttft=1ms;tpot=2ms",                 /* two default profiles */
    "model=a,tokens=1;model=a,tokens=2", /* the same model twice */
    "model=,tokens=1",                   /* empty model name */
    "tokens=1,model=a",                  /* model= not first */
    "keepalive=1",                       /* a duration needs a unit */
    "keepalive=-1s",                     /* negative */
    "capacity=-1",                       /* negative */
    "capacity=65537",                    /* above the cap */
    "capacity=4x",                       /* trailing junk */
    "batch_tpot=2",                      /* a duration needs a unit */
    "capacity=65536,batch_tpot=1s",      /* the slowest TPOT above 1 h */
    "capacity=8,batch_tpot=1s,tokens=1000000,tpot=3599s", /* too long */
};

static void check_value(const char *spec, const char *what, int64_t got,
                        int64_t want, int64_t dflt)
{
    if (want == DFLT)
        want = dflt;
    CHECK_MSG(got == want, "'%s': %s = %lld, want %lld", spec, what,
              (long long)got, (long long)want);
}

int main(void)
{
    char err[512];
    size_t i;
    int64_t ns;

    for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        const struct good_case *c = &good[i];
        struct synth_spec spec;
        const struct synth_profile *p;
        int rc = synth_spec_parse(c->spec, &spec, err, sizeof(err));
        CHECK_MSG(rc == SYNTH_OK, "'%s' failed: %s", c->spec, err);
        if (rc != SYNTH_OK)
            continue;
        p = synth_spec_lookup(&spec, c->model[0] ? c->model : NULL);
        check_value(c->spec, "ttft", p->ttft_ns, c->ttft_ns,
                    SYNTH_DEFAULT_TTFT_NS);
        check_value(c->spec, "tpot", p->tpot_ns, c->tpot_ns,
                    SYNTH_DEFAULT_TPOT_NS);
        check_value(c->spec, "ttft_per_1k", p->ttft_per_1k_ns,
                    c->ttft_per_1k_ns, 0);
        check_value(c->spec, "tokens", p->tokens, c->tokens,
                    SYNTH_DEFAULT_TOKENS);
        check_value(c->spec, "tokens_per_chunk", p->tokens_per_chunk,
                    c->tokens_per_chunk, 1);
        CHECK_MSG(p->jitter == c->jitter, "'%s': jitter %g want %g", c->spec,
                  p->jitter, c->jitter);
        CHECK_MSG(spec.n_models == c->n_models, "'%s': %zu models, want %zu",
                  c->spec, spec.n_models, c->n_models);
    }
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct synth_spec spec;
        err[0] = '\0';
        CHECK_MSG(synth_spec_parse(bad[i], &spec, err, sizeof(err)) ==
                      SYNTH_E_SYNTAX,
                  "bad spec '%s' was accepted", bad[i]);
        CHECK_MSG(err[0] != '\0' && strchr(err, '\n') == NULL,
                  "bad spec '%s': want a one-line reason, got '%s'", bad[i],
                  err);
    }
    /* keepalive: off by default, a duration, inherited by model profiles */
    {
        struct synth_spec spec;
        CHECK(synth_spec_parse("keepalive=1s;model=m,ttft=3s", &spec, err,
                               sizeof(err)) == SYNTH_OK);
        CHECK(spec.def.keepalive_ns == 1000 * MS);
        CHECK(synth_spec_lookup(&spec, "m")->keepalive_ns == 1000 * MS);
        CHECK(synth_spec_parse("ttft=1s", &spec, err, sizeof(err)) ==
                  SYNTH_OK &&
              spec.def.keepalive_ns == 0);
    }
    /* the batch model: off by default, inherited by model profiles */
    {
        struct synth_spec spec;
        CHECK(synth_spec_parse("ttft=1s", &spec, err, sizeof(err)) ==
                  SYNTH_OK &&
              spec.def.capacity == 0 && spec.def.batch_tpot_ns == 0);
        CHECK(synth_spec_parse("capacity=8,batch_tpot=2ms;model=m,ttft=3s",
                               &spec, err, sizeof(err)) == SYNTH_OK);
        CHECK(spec.def.capacity == 8 && spec.def.batch_tpot_ns == 2 * MS);
        CHECK(synth_spec_lookup(&spec, "m")->capacity == 8);
        CHECK(synth_spec_lookup(&spec, "m")->batch_tpot_ns == 2 * MS);
    }
    /* the in-phase grid: off by default, a duration, inherited */
    {
        struct synth_spec spec;
        CHECK(synth_spec_parse("ttft=1s", &spec, err, sizeof(err)) ==
                  SYNTH_OK &&
              spec.def.align_ns == 0);
        CHECK(synth_spec_parse("align=20ms,tpot=20ms;model=m,ttft=3s", &spec,
                               err, sizeof(err)) == SYNTH_OK);
        CHECK(spec.def.align_ns == 20 * MS);
        CHECK(synth_spec_lookup(&spec, "m")->align_ns == 20 * MS);
        CHECK(synth_spec_parse("align=20", &spec, err, sizeof(err)) ==
              SYNTH_E_SYNTAX);
    }
    /* durations on their own */
    CHECK(synth_parse_duration("4ms", &ns) == 0 && ns == 4 * MS);
    CHECK(synth_parse_duration("0.5us", &ns) == 0 && ns == 500);
    CHECK(synth_parse_duration("3600s", &ns) == 0 && ns == 3600000 * MS);
    CHECK(synth_parse_duration("+1ms", &ns) == -1);
    CHECK(synth_parse_duration(" 1ms", &ns) == -1);
    CHECK(synth_parse_duration("1 ms", &ns) == -1);
    CHECK(synth_parse_duration(NULL, &ns) == -1);
    /* a spec longer than the parser's buffer is refused, not cut */
    {
        static char huge[10000];
        struct synth_spec spec;
        memset(huge, 'x', sizeof(huge) - 1);
        CHECK(synth_spec_parse(huge, &spec, err, sizeof(err)) ==
              SYNTH_E_SYNTAX);
    }
    return CHECK_DONE();
}
