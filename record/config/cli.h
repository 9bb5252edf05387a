/* cli: the recorder's command line, parsed into one read-only config.
 *
 * Ownership: the config borrows argv strings; label keys are copied and
 * freed by cli_free. Nothing here reads the API key itself. */
#ifndef TT_RECORD_CLI_H
#define TT_RECORD_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api_kind.h"
#include "cli_shard.h"
#include "cli_sweep.h"
#include "keep_awake.h"
#include "think_time.h"
#include "token_length.h"

#define CLI_MAX_MODELS 64
#define CLI_MAX_LABELS 64
#define CLI_MAX_SERVER_METRICS 8
#define CLI_MAX_RETRY 20 /* --retry N: N at most this */

enum arrival_kind {
    ARRIVAL_POISSON = 0,
    ARRIVAL_CONSTANT = 1,
};

/* --history: what a session's next turn carries as the assistant's
 * earlier replies. */
enum history_mode {
    HISTORY_RECEIVED = 0, /* the replies actually received */
    HISTORY_RECORDED = 1, /* the workload file's (identical across targets) */
};

enum progress_mode {
    PROGRESS_AUTO = 0,
    PROGRESS_ALWAYS = 1,
    PROGRESS_NEVER = 2,
};

struct cline_settings; /* cline_settings.h */

struct cli_label {
    char *key;         /* owned */
    const char *value; /* points into argv */
};

struct config {
    const char *base_url; /* -u, else cline.openAiBaseUrl, else
                             $OPENAI_BASE_URL (anthropic:
                             $ANTHROPIC_BASE_URL first); NULL if none */
    bool base_url_from_env;
    const char *base_url_env; /* the variable it came from, or NULL */
    bool sdk_base; /* the base URL is cline.openAiBaseUrl: the API path is
                      appended the OpenAI SDK's way (base + /chat/completions,
                      no /v1 added) as Cline does */
    const char *models[CLI_MAX_MODELS];
    size_t n_models;
    enum api_kind api;
    bool api_given;
    const char *api_key_env;     /* NULL: the API kind's default variables */
    bool api_key_env_given;      /* --api-key-env (not a cline ${env:VAR}) */
    const char *api_key_literal; /* the key written in the cline settings
                                    file (points into cline), or NULL */
    const char *output;          /* NULL: tokentrace-<date>-<time>.ttrace */
    bool force;
    const char *workload_file; /* -w, NULL: built-in */
    /* --workload-format: auto, tokentrace, sharegpt, openai-jsonl; NULL
     * auto (workload.h checks the name again) */
    const char *workload_format;
    bool dataset_sessions; /* --dataset-sessions: entries as sessions */
    const char *classes;   /* --classes list, NULL: all */
    uint64_t n;            /* requests per model x class */
    bool n_given;
    uint64_t concurrency; /* closed loop: requests in flight; open loop with
                             concurrency_given: the most in flight (-r -c) */
    bool concurrency_given;
    bool arrival_given;        /* --arrival */
    double rate;               /* open loop requests/s, 0: closed loop */
    struct cli_sweep sweep;    /* --sweep: the stages (mode SWEEP_NONE: one);
                                  --search: its first probe */
    struct cli_search search;  /* --search (mode SWEEP_NONE: none) */
    const char *arrivals_file; /* --arrivals FILE, or NULL */
    double speed;              /* --speed: arrival times divided by it, 1 */
    struct cli_shard shard;    /* --shard, --start-at, --run-id, --procs
                                  (or the scheduler's variables) */
    double burstiness; /* --burstiness: gamma shape of the gaps, 0 off */
    double ramp_s;     /* --ramp: rate or concurrency climbs, 0 off */
    enum arrival_kind arrival;
    uint64_t seed;
    uint64_t warmup;           /* warmup requests per model */
    double duration_s;         /* 0: no bound */
    struct think_time think;   /* --think-time between a session's turns */
    enum history_mode history; /* --history */
    int64_t max_tokens;        /* -1: by class */
    /* --input-tokens (kind NONE: not given): synthetic prompts of this
     * many input tokens, calibrated per model (docs/workloads.md) */
    struct token_length input_tokens;
    /* --output-tokens: max_tokens of each request (with ignore_eos and
     * min_tokens where the API kind has them); kind NONE: not given */
    struct token_length output_tokens;
    int64_t shared_prefix; /* --shared-prefix T tokens, 0: none */
    /* --images N,WxH: N seeded W x H PNG images in each built-in prompt;
     * images_n 0: none */
    unsigned images_n, images_w, images_h;
    bool ignore_eos;
    const char *extra_body; /* a JSON object (validated), or NULL */
    double timeout_s;
    bool timeout_given; /* --timeout (or cline.requestTimeoutMs) */
    double idle_timeout_s;
    bool idle_timeout_given;
    double connect_timeout_s; /* 0: libcurl's default */
    uint64_t retry;     /* --retry N: re-sends of a 429/503 answer, 0: never */
    bool insecure;      /* --insecure: no TLS peer / host name verification */
    bool no_proxy;      /* --no-proxy: connect directly, whatever http_proxy,
                           https_proxy or all_proxy say */
    const char *cacert; /* --cacert FILE: CA bundle to verify with, or NULL */
    struct cli_label labels[CLI_MAX_LABELS];
    size_t n_labels;
    /* --server-metrics URL (repeatable): Prometheus text endpoints scraped
     * during the run (docs/server-metrics.md) */
    const char *server_metrics[CLI_MAX_SERVER_METRICS];
    size_t n_server_metrics;
    double server_metrics_interval_s; /* --server-metrics-interval, 1 */
    bool server_metrics_send_key;     /* --server-metrics-send-key: the run's
                                         key goes to the metrics URLs too */
    bool no_content;
    bool compress;           /* --compress (or -o NAME.zst): zstd frames */
    unsigned format_version; /* --format-version, 0: the newest */
    bool http2;
    bool quiet;
    bool no_request_id;
    enum progress_mode progress;
    enum keep_awake_mode keep_awake; /* --keep-awake, spin by default */
    int keep_awake_cpu;              /* --keep-awake-cpu, -1: where it runs */
    bool chunk_time_user;      /* --chunk-time user: no kernel receive times */
    bool check;                /* --check: diagnose the channel */
    bool print_cline_settings; /* --print-cline-settings */
    const char *cline_file;    /* --cline-settings FILE, the file found
                                  for --cline-settings alone, or NULL */
    bool cline_given;          /* --cline-settings, with or without FILE */
    char *cline_found;         /* the file found (owned), or NULL */
    char cline_found_by[40];   /* the rule that found it: "$CLINE_DATA_DIR",
                                  "~/.cline/data"; "" when FILE was given */
    struct cline_settings *cline; /* that file's values (owned), or NULL */
    int argc; /* the whole command line, for the trace header */
    char **argv;
};

enum cli_result {
    CLI_OK = 0,
    CLI_HELP = 1,    /* --help: print cli_help_text, exit 0 */
    CLI_VERSION = 2, /* --version */
    CLI_E_USAGE = 3, /* err holds a one-line reason */
};

/* Parses argv into cfg (which it initializes with the defaults), then
 * reads --cline-settings FILE into it (flags win over the file). Returns a
 * cli_result; on CLI_E_USAGE err holds a one-line reason that never repeats
 * a value that looks like a key. Call cli_free afterwards in every case. */
int cli_parse(int argc, char **argv, struct config *cfg, char *err,
              size_t errlen);

/* Frees what cli_parse allocated (labels, cline settings). NULL-safe. */
void cli_free(struct config *cfg);

/* The --help text. */
const char *cli_help_text(void);

struct opt_spec;
/* The flag table (common/opt.h; for the test that holds it to --help). */
const struct opt_spec *cli_options(size_t *n);

/* The path appended to the base URL for cfg: api_kind_path, or with a base
 * from the cline settings the OpenAI SDK's path ("/chat/completions": the
 * SDK's base ends in /v1 when the gateway wants one). */
const char *cli_request_path(const struct config *cfg);

#endif
