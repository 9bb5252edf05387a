/* cli_sweep: the --sweep MODE=LOADS value: the stages of a capacity sweep
 * (docs/capacity.md). LOADS is a comma-separated list (1,2,4,8) or an
 * arithmetic range START:STOP:STEP (STOP included when reached). */
#ifndef TT_RECORD_CLI_SWEEP_H
#define TT_RECORD_CLI_SWEEP_H

#include <stddef.h>

#define CLI_MAX_STAGES 256

enum sweep_mode {
    SWEEP_NONE = 0,
    SWEEP_CONCURRENCY = 1, /* closed loop, each stage its concurrency */
    SWEEP_RATE = 2,        /* open loop, each stage its requests/s */
};

struct cli_sweep {
    enum sweep_mode mode;
    size_t n;                     /* stages */
    double loads[CLI_MAX_STAGES]; /* concurrency (whole) or rate, each > 0 */
};

/* Parses "concurrency=LOADS" or "rate=LOADS" into *out. Concurrency loads
 * are whole numbers from 1 to 100000, rates above 0 and at most 1e6.
 * Returns 0, or -1 with a one-line reason in err. */
int cli_sweep_parse(const char *v, struct cli_sweep *out, char *err,
                    size_t errlen);

/* --search MODE=START,ttft=DUR[,attain=P][,stages=N][,precision=F]: an
 * adaptive sweep (docs/capacity.md). */
struct cli_search {
    enum sweep_mode mode; /* SWEEP_NONE: no search */
    double start;         /* the first probe's load */
    double ttft_ms;       /* the live limit: TTFT from the intended send */
    double attain;        /* share of a probe's requests within it, 0.99 */
    unsigned max_stages;  /* probes at most, 10 */
    double precision;     /* rate: stop when hi - lo <= precision x lo (0.1);
                             concurrency: when hi - lo <= 1 */
};

/* Parses a --search value into *out. Returns 0, or -1 with a one-line
 * reason in err. */
int cli_search_parse(const char *v, struct cli_search *out, char *err,
                     size_t errlen);

/* "concurrency" or "rate" ("" for SWEEP_NONE). */
const char *cli_sweep_mode_name(enum sweep_mode m);

#endif
