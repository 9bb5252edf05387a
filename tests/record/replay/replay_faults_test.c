/* replay_faults_test: --fault rule parsing (table-driven) and the seeded,
 * per-model choice of faults for a request. */
#include <string.h>

#include "check.h"
#include "replay_faults.h"

struct good_case {
    const char *text;
    enum replay_fault kind;
    double fraction;
    const char *model;
};

static const struct good_case good[] = {
    {"http-401", FAULT_HTTP_401, 1.0, ""},
    {"http-429:0.25", FAULT_HTTP_429, 0.25, ""},
    {"stall@slow-model", FAULT_STALL, 1.0, "slow-model"},
    {"reset-mid-stream:0.5@m", FAULT_RESET_MID_STREAM, 0.5, "m"},
    {"split-utf8@org/model:v2", FAULT_SPLIT_UTF8, 1.0, "org/model:v2"},
    {"endless-line:0", FAULT_ENDLESS_LINE, 0.0, ""},
    {"multi-token-chunks:1", FAULT_MULTI_TOKEN_CHUNKS, 1.0, ""},
};

static const char *const bad[] = {
    "",        "nope",   "http-402", "stall:", "stall:1.5", "stall:-1",
    "stall:x", "stall@", ":0.5",     "@m",     "STALL",     "stall:0.5x",
};

int main(void)
{
    struct replay_fault_rule r, rules[3];
    uint64_t rng;
    char err[512];
    size_t i;
    int hits = 0, n;

    for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        int rc = replay_fault_parse(good[i].text, &r, err, sizeof(err));
        CHECK_MSG(rc == 0, "'%s' failed: %s", good[i].text, err);
        CHECK_MSG(r.kind == good[i].kind && r.fraction == good[i].fraction &&
                      strcmp(r.model, good[i].model) == 0,
                  "'%s' parsed wrong", good[i].text);
    }
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        CHECK_MSG(replay_fault_parse(bad[i], &r, err, sizeof(err)) == -1,
                  "bad fault '%s' accepted", bad[i]);
    /* every kind's name parses back to itself */
    for (i = 0; i < FAULT_COUNT; i++) {
        CHECK(replay_fault_parse(replay_fault_name((enum replay_fault)i), &r,
                                 err, sizeof(err)) == 0 &&
              r.kind == (enum replay_fault)i);
    }
    /* picking: model filter, fraction, determinism */
    replay_fault_parse("crlf", &rules[0], err, sizeof(err));
    replay_fault_parse("stall@a", &rules[1], err, sizeof(err));
    replay_fault_parse("http-500:0.3", &rules[2], err, sizeof(err));
    rng = 7;
    for (n = 0; n < 10000; n++) {
        replay_fault_set s = replay_faults_pick(rules, 3, "b", &rng);
        CHECK(FAULT_HAS(s, FAULT_CRLF));
        CHECK(!FAULT_HAS(s, FAULT_STALL));
        hits += FAULT_HAS(s, FAULT_HTTP_500);
    }
    CHECK_MSG(hits > 2700 && hits < 3300, "fraction 0.3 hit %d of 10000", hits);
    CHECK(FAULT_HAS(replay_faults_pick(rules, 3, "a", &rng), FAULT_STALL));
    {
        uint64_t a = 42, b = 42;
        for (n = 0; n < 100; n++)
            CHECK(replay_faults_pick(rules, 3, "x", &a) ==
                  replay_faults_pick(rules, 3, "x", &b));
    }
    return CHECK_DONE();
}
