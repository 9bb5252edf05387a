/* cli_shard: the scale-out flags (--shard, --start-at, --run-id, --procs)
 * and the scheduler variables that fill them in (Kubernetes Indexed Job:
 * JOB_COMPLETION_INDEX with TT_SHARDS; Slurm srun: SLURM_PROCID with
 * SLURM_NTASKS). Pure but for getenv, getpid and the clock read of a relative
 * --start-at; docs/scale-out.md. */
#ifndef TT_RECORD_CLI_SHARD_H
#define TT_RECORD_CLI_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLI_SHARD_MAX 4096 /* shards of one run */
#define CLI_PROCS_MAX 256  /* --procs */
#define CLI_RUN_ID_MAX 64  /* bytes of a run id */

struct cli_shard {
    uint32_t index, count; /* this process keeps request k with
                              k % count == index; count 1: not sharded */
    bool given;            /* --shard on the command line (I/N or none) */
    const char *from;      /* where I/N came from ("--shard",
                              "JOB_COMPLETION_INDEX/TT_SHARDS",
                              "SLURM_PROCID/SLURM_NTASKS"), or NULL */
    const char *run_id;    /* --run-id or $TT_RUN_ID (borrowed), or NULL */
    char run_id_buf[CLI_RUN_ID_MAX + 1]; /* a derived run id */
    const char *run_id_from; /* "--run-id", "TT_RUN_ID", "SLURM_JOB_ID",
                                "seed+start", or "own" (no --start-at:
                                this process's alone, never shared) */
    int64_t start_at_ns;     /* --start-at on CLOCK_REALTIME, 0: none */
    bool start_at_relative;  /* it was +DURATION (this process's own) */
    double start_at_rel_s;   /* that DURATION, s */
    uint32_t procs;          /* --procs P, 0: one process */
};

/* Parses "--shard I/N" (0 <= I < N <= CLI_SHARD_MAX) or "none" (one
 * process, the scheduler variables ignored) into sh. Returns 0, or -1 with
 * a one-line reason in err. */
int cli_shard_parse(const char *v, struct cli_shard *sh, char *err,
                    size_t errlen);

/* Parses "--start-at TIME": a UTC ISO time (2026-12-01T17:00:00Z, with up
 * to 9 fraction digits) or +DURATION from now (+10s, +500ms). Returns 0,
 * or -1 with a one-line reason in err. */
int cli_start_at_parse(const char *v, struct cli_shard *sh, char *err,
                       size_t errlen);

/* Checks "--run-id ID" (1 to CLI_RUN_ID_MAX of [A-Za-z0-9._-]). Returns
 * 0, or -1 with a reason in err. */
int cli_run_id_check(const char *v, const char *what, char *err, size_t errlen);

/* Once every flag is read: without --shard, takes I/N from the
 * environment (JOB_COMPLETION_INDEX + TT_SHARDS first, then SLURM_PROCID
 * + SLURM_NTASKS), and the run id from $TT_RUN_ID, $SLURM_JOB_ID (with
 * $SLURM_STEP_ID), else derives it from seed and --start-at; without
 * --start-at it is this process's own (run_id_from "own": shards
 * started apart are not one run, so nothing may merge them). Returns 0,
 * or -1 with a reason in err (a variable that is set but not a number, a
 * JOB_COMPLETION_INDEX without TT_SHARDS). */
int cli_shard_resolve(struct cli_shard *sh, uint64_t seed, char *err,
                      size_t errlen);

/* Writes the derived run id of seed and start_at_ns (16 hex digits) into
 * out. */
void cli_shard_derive_run_id(uint64_t seed, int64_t start_at_ns, char *out,
                             size_t size);

/* The run id: given, from the environment, or derived. */
const char *cli_shard_run_id(const struct cli_shard *sh);

/* Closed loop: this shard's share of concurrency c (c / N, the first
 * c % N shards one more), so the shares sum to c. 0 when c < N leaves
 * this shard none. */
uint64_t cli_shard_share(const struct cli_shard *sh, uint64_t c);

/* The slots a shard keeps. Open loop (lanes 0): slot k with k % N == I.
 * Closed loop of concurrency `lanes` (>= N): slot k runs on lane k % lanes,
 * as one process's workers take them in turn, and lane j is shard j % N's;
 * so a shard's requests are in proportion to its share of the concurrency
 * (-c 3 over 2 shards: lanes 0, 2 and 1; 2/3 and 1/3 of the slots) and
 * the shards end together. With lanes % N == 0 the two rules agree.
 * cli_shard_first: this shard's first slot; cli_shard_next: its next slot
 * after k; both UINT64_MAX when it keeps none (lanes < N, I >= lanes). */
uint64_t cli_shard_first(const struct cli_shard *sh, uint64_t lanes);
uint64_t cli_shard_next(const struct cli_shard *sh, uint64_t lanes, uint64_t k);

/* How many of the slots 0..n-1 this shard keeps (UINT64_MAX stays). */
uint64_t cli_shard_part(const struct cli_shard *sh, uint64_t lanes, uint64_t n);

/* Formats t (CLOCK_REALTIME ns) as 2026-12-01T17:00:00.123456789Z. */
void cli_format_instant(int64_t t_ns, char *out, size_t size);

#endif
