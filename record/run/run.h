/* run: one recording run, from the trace header to the footer: schedules
 * requests (closed or open loop), hands them to the event loop, writes a
 * request record when each starts and a result when it ends, sends a 429 /
 * 503 again after its wait with --retry, flushes the trace every 100 ms,
 * and stops on completion, --duration, a signal or a failed write. */
#ifndef TT_RECORD_RUN_H
#define TT_RECORD_RUN_H

#include <cjson/cJSON.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "arrivals_file.h"
#include "cli.h"
#include "exact_prompt.h"
#include "http_proxy.h"
#include "keep_awake.h"
#include "trace.h"
#include "workload.h"

/* A shard that wakes later than this after --start-at refuses to run
 * (RUN_E_LATE) rather than squeeze its schedule; earlier lateness shows as
 * the first requests' send lag. */
#define RUN_START_LATE_NS 100000000LL

/* Set by SIGINT / SIGTERM (run.c); the run checks it every 100 ms. */
extern volatile sig_atomic_t run_stop_requested;

/* Everything a run needs, prepared by main (all borrowed). */
struct run_setup {
    const struct config *cfg;
    const struct workload *wl;
    const cJSON *extra_body; /* parsed --extra-body, or NULL */
    const char *endpoint;    /* normalized base URL */
    const char *url;         /* request URL */
    const char *auth_header; /* header line with the key, or NULL */
    const char *key;         /* the key itself (scrubbed from the header
                                fields), or NULL */
    const char *key_env;     /* the variable it came from, or NULL */
    const struct http_proxy_choice *proxy; /* the proxy requests go through */
    const char *trace_id;                  /* 8 hex characters */
    const char *command_line;              /* sanitized */
    struct trace_writer *writer;
    const struct arrivals_file *arrivals; /* --arrivals, or NULL */
    /* --input-tokens: each model's calibration (fits[i] for models[i]),
     * or NULL */
    const struct length_fit *fits;
    /* --shard / --run-id: the run_match option (run_match.h), or NULL */
    const char *run_match;
};

#define RUN_MAX_KINDS 32

struct run_kind_count {
    char kind[32];
    uint64_t count;
    char first[256]; /* the first message of the kind ("" none), for the
                        end of the run: the cause, not only a count */
};

struct run_outcome {
    uint64_t requests;        /* results written (attempts, retries included) */
    uint64_t ok;              /* requests (not attempts) that succeeded */
    uint64_t failed;          /* requests that failed, retries included */
    uint64_t stopped;         /* of failed: kind interrupted (a signal) */
    uint64_t retried;         /* attempts superseded by a retry (--retry) */
    uint64_t retry_exhausted; /* failed requests whose retries ran out */
    uint64_t warmup;
    uint64_t chunks;
    uint64_t bytes;
    uint64_t sse_mislabelled;       /* attempts whose event stream came under
                                       another Content-Type (recorded as streams) */
    char sse_mislabelled_type[128]; /* the first such type, "" for none */
    struct run_kind_count kinds[RUN_MAX_KINDS]; /* failures by kind */
    size_t n_kinds;
    int64_t start_ns;
    int64_t end_ns;
    bool interrupted;   /* signal, or --duration cut a finite run short */
    bool signalled;     /* stopped by SIGINT / SIGTERM */
    const char *reason; /* "complete", "duration", "signal", "write_error" */
    int64_t late_ns;    /* --start-at: how late the run began */
    int write_err;      /* trace_err of the failed write, 0 if none */
    int write_errno;
};

enum run_err {
    RUN_OK = 0,
    RUN_E_WRITE = 1, /* the trace could not be written: see outcome */
    RUN_E_NOMEM = 2,
    RUN_E_SETUP = 3, /* libevent or libcurl could not start */
    RUN_E_LATE = 4,  /* --start-at had passed (outcome.late_ns): nothing
                        was sent or written */
};

/* Installs the SIGINT / SIGTERM handlers (they only set
 * run_stop_requested; the second Ctrl-C kills at once) and ignores
 * SIGPIPE (run.c). */
void run_install_signals(void);

/* Runs the recording (run.c; what happens during it is run_loop.c's).
 * Writes the header first and, unless a write failed, a footer last; the
 * caller closes the writer. Returns a run_err. */
int run_execute(const struct run_setup *s, struct run_outcome *out);

/* Fills id with 8 random hex characters from /dev/urandom (the clock if
 * that fails). */
void run_make_trace_id(char id[9]);

/* Writes the trace header record (run_header.c); awake: the run's
 * keep-awake state as options (NULL: none written); late_ns: how late
 * the process woke after --start-at's instant (option start_late_us). */
int run_write_header(const struct run_setup *s, int64_t mono_zero,
                     int64_t real_zero, int64_t late_ns,
                     const struct keep_awake *awake);

#endif
