/* cli: the recorder's flags as one table for the option engine
 * (common/opt.h), read into struct config; cli_flags.c parses the values
 * that need more than a type, cli_checks.c the flags together. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "cli_checks.h"
#include "cli_flags.h"
#include "cline_settings.h"
#include "duration.h"
#include "opt.h"
#include "rng.h"
#include "sanitize.h"
#include "trace.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const char *const progress_names[] = {"auto", "always", "never", NULL};
static const char *const arrival_names[] = {"poisson", "constant", NULL};
static const char *const history_names[] = {"received", "recorded", NULL};
static const char *const chunk_time_names[] = {"kernel", "user", NULL};
static const char *const workload_formats[] = {"auto", "tokentrace", "sharegpt",
                                               "openai-jsonl", NULL};

#define OPT_BASE struct config
#define AT(f) OPT_AT(struct config, f)
#define GIVEN(f) OPT_GIVEN(struct config, f)
#define TIMEOUT_WANT                                                           \
    "a duration above 0 (seconds, or with a unit " DURATION_UNITS ": 500ms, "  \
    "2m)"

static const struct opt_spec cli_opts[] = {
    OPT_TEXT("url", 'u', base_url, NULL),
    OPT_CALL("model", 'm', cli_value_model, NULL),
    OPT_TEXT("output", 'o', output, "file name"),
    OPT_FLAG("force", 0, force),
    OPT_CALL("api", 0, cli_value_api, NULL),
    OPT_CALL("api-key-env", 0, cli_value_api_key_env, NULL),
    OPT_CALL("api-key", 0, cli_value_api_key, NULL),
    OPT_TEXT("workload", 'w', workload_file, NULL),
    {.name = "workload-format",
     .kind = OPT_STRING,
     .at = AT(workload_format),
     .names = workload_formats,
     .want = "one of auto, tokentrace, sharegpt, openai-jsonl"},
    OPT_FLAG("dataset-sessions", 0, dataset_sessions),
    OPT_TEXT("classes", 0, classes, "list"),
    {.name = "requests",
     .short_name = 'n',
     .kind = OPT_U64,
     .at = AT(n),
     .min = 1,
     .max = 100000000,
     .want = "a count from 1",
     .given = GIVEN(n_given)},
    {.name = "concurrency",
     .short_name = 'c',
     .kind = OPT_U64,
     .at = AT(concurrency),
     .min = 1,
     .max = 100000,
     .want = "a count from 1 to 100000",
     .given = GIVEN(concurrency_given)},
    {.name = "rate",
     .short_name = 'r',
     .kind = OPT_DOUBLE,
     .at = AT(rate),
     .lo = 0,
     .hi = 1e6,
     .lo_open = true,
     .want = "a rate in requests/s above 0"},
    {.name = "arrival",
     .kind = OPT_ENUM,
     .at = AT(arrival),
     .names = arrival_names,
     .given = GIVEN(arrival_given)},
    OPT_CALL("seed", 0, cli_value_seed, RNG_SEED_WANT),
    OPT_COUNT("warmup", 0, warmup, 0, 1000000, "a count"),
    OPT_SECONDS("duration", duration_s, 1e7, TIMEOUT_WANT),
    OPT_COUNT("max-tokens", 0, max_tokens, 1, 10000000, "a count from 1"),
    OPT_FLAG("ignore-eos", 0, ignore_eos),
    OPT_CALL("extra-body", 0, cli_value_extra_body, NULL),
    {.name = "timeout",
     .kind = OPT_DURATION,
     .at = AT(timeout_s),
     .lo = 0,
     .hi = 1e7,
     .lo_open = true,
     .want = TIMEOUT_WANT,
     .given = GIVEN(timeout_given)},
    {.name = "idle-timeout",
     .kind = OPT_DURATION,
     .at = AT(idle_timeout_s),
     .lo = 0,
     .hi = 1e7,
     .lo_open = true,
     .want = TIMEOUT_WANT,
     .given = GIVEN(idle_timeout_given)},
    OPT_SECONDS("connect-timeout", connect_timeout_s, 1e7, TIMEOUT_WANT),
    OPT_CALL("label", 0, cli_value_label, NULL),
    OPT_FLAG("no-content", 0, no_content),
    OPT_FLAG("compress", 0, compress),
    OPT_COUNT("format-version", 0, format_version, 1, TRACE_FORMAT_VERSION,
              "1 or " STR(TRACE_FORMAT_VERSION) " (the trace format versions "
                                                "this recorder writes)"),
    OPT_FLAG("http2", 0, http2),
    OPT_WORDS("progress", progress, progress_names),
    OPT_FLAG("quiet", 'q', quiet),
    OPT_FLAG("no-request-id", 0, no_request_id),
    {.name = "help", .short_name = 'h', .kind = OPT_STOP, .value = CLI_HELP},
    {.name = "version",
     .short_name = 'V',
     .kind = OPT_STOP,
     .value = CLI_VERSION},
    OPT_FLAG("check", 0, check),
    {.name = "cline-settings",
     .kind = OPT_STRING,
     .at = AT(cline_file),
     .empty = "file name",
     .given = GIVEN(cline_given),
     .value_optional = true},
    OPT_FLAG("print-cline-settings", 0, print_cline_settings),
    OPT_COUNT("retry", 0, retry, 0, CLI_MAX_RETRY,
              "a count from 0 to " STR(CLI_MAX_RETRY)),
    OPT_FLAG("insecure", 0, insecure),
    OPT_FLAG("no-proxy", 0, no_proxy),
    OPT_TEXT("cacert", 0, cacert, "file name"),
    OPT_CALL("sweep", 0, cli_value_sweep, NULL),
    {.name = "burstiness",
     .kind = OPT_DOUBLE,
     .at = AT(burstiness),
     .lo = 0.01,
     .hi = 100,
     .want = "a gamma shape from 0.01 to 100 (1: Poisson, below 1 burstier)"},
    OPT_SECONDS("ramp", ramp_s, 1e6, "a duration above 0 (30s, 2m)"),
    OPT_CALL("search", 0, cli_value_search, NULL),
    OPT_TEXT("arrivals", 0, arrivals_file, "file name"),
    {.name = "speed",
     .kind = OPT_DOUBLE,
     .at = AT(speed),
     .lo = 0,
     .hi = 1e6,
     .lo_open = true,
     .want = "a factor above 0 (2: twice as fast)"},
    OPT_CALL("shard", 0, cli_value_shard, NULL),
    OPT_CALL("start-at", 0, cli_value_start_at, NULL),
    OPT_CALL("run-id", 0, cli_value_run_id, NULL),
    OPT_COUNT("procs", 0, shard.procs, 1, CLI_PROCS_MAX,
              "a count from 1 to " STR(CLI_PROCS_MAX)),
    OPT_CALL("think-time", 0, cli_value_think_time, THINK_TIME_WANT),
    {.name = "input-tokens",
     .kind = OPT_CUSTOM,
     .parse = cli_value_tokens,
     .at = AT(input_tokens),
     .want = TOKEN_LENGTH_WANT},
    {.name = "output-tokens",
     .kind = OPT_CUSTOM,
     .parse = cli_value_tokens,
     .at = AT(output_tokens),
     .want = TOKEN_LENGTH_WANT},
    OPT_COUNT("shared-prefix", 0, shared_prefix, 1, TOKEN_LENGTH_MAX,
              "a count of tokens from 1"),
    OPT_CALL("images", 0, cli_value_images, CLI_IMAGES_WANT),
    OPT_WORDS("history", history, history_names),
    OPT_CALL("server-metrics", 0, cli_value_server_metrics, NULL),
    {.name = "server-metrics-interval",
     .kind = OPT_DURATION,
     .at = AT(server_metrics_interval_s),
     .lo = 0.1,
     .hi = 3600,
     .want =
         "a duration from 100ms to 1h (seconds, or with a unit " DURATION_UNITS
         ")"},
    OPT_FLAG("server-metrics-send-key", 0, server_metrics_send_key),
    OPT_CALL("keep-awake", 0, cli_value_keep_awake, "auto, spin, poll or off"),
    {.name = "no-keep-awake",
     .kind = OPT_SET,
     .at = AT(keep_awake),
     .value = KEEP_AWAKE_OFF},
    OPT_COUNT("keep-awake-cpu", 0, keep_awake_cpu, 0, 4095, "a CPU number"),
    {.name = "chunk-time",
     .kind = OPT_ENUM,
     .at = AT(chunk_time_user),
     .names = chunk_time_names,
     .is_bool = true},
};

const struct opt_spec *cli_options(size_t *n)
{
    *n = sizeof cli_opts / sizeof cli_opts[0];
    return cli_opts;
}

static void config_defaults(struct config *cfg, int argc, char **argv)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->api = API_OPENAI_CHAT;
    cfg->n = 3;
    cfg->concurrency = 1;
    cfg->arrival = ARRIVAL_POISSON;
    cfg->seed = 1;
    cfg->max_tokens = -1;
    cfg->timeout_s = 600;
    cfg->idle_timeout_s = 120;
    cfg->server_metrics_interval_s = 1;
    cfg->progress = PROGRESS_AUTO;
    cfg->speed = 1;
    cfg->keep_awake = KEEP_AWAKE_AUTO;
    cfg->keep_awake_cpu = -1;
    cfg->argc = argc;
    cfg->argv = argv;
}

int cli_parse(int argc, char **argv, struct config *cfg, char *err,
              size_t errlen)
{
    struct opt_table t = {cli_opts, sizeof cli_opts / sizeof cli_opts[0], NULL};
    struct opt_parser p = {
        .tables = &t, .n_tables = 1, .first = 1, .shown = sanitize_shown};
    int rc;
    config_defaults(cfg, argc, argv);
    t.base = cfg;
    rc = opt_parse(&p, argc, argv, err, errlen);
    if (rc == OPT_ERROR)
        return CLI_E_USAGE;
    if (rc != OPT_OK)
        return rc;
    return cli_check(cfg, err, errlen);
}

void cli_free(struct config *cfg)
{
    size_t i;
    if (!cfg)
        return;
    for (i = 0; i < cfg->n_labels; i++) {
        free(cfg->labels[i].key);
        cfg->labels[i].key = NULL;
    }
    cfg->n_labels = 0;
    cline_settings_free(cfg->cline);
    cfg->cline = NULL;
    free(cfg->cline_found);
    cfg->cline_found = NULL;
    cfg->api_key_literal = NULL;
}

const char *cli_request_path(const struct config *cfg)
{
    if (!cfg->sdk_base)
        return api_kind_path(cfg->api);
    switch (cfg->api) {
    case API_OPENAI_COMPLETIONS:
        return "/completions";
    case API_ANTHROPIC:
        return "/v1/messages"; /* the Anthropic SDK's */
    case API_OPENAI_RESPONSES:
        return "/responses";
    case API_OPENAI_CHAT:
        break;
    }
    return "/chat/completions";
}
