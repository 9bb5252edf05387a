/* cli: parses the recorder's flags into struct config (checks each value). */
#include "cli.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_shard.h"
#include "cline_settings.h"
#include "duration.h"
#include "retry.h"
#include "rng.h"
#include "sanitize.h"
#include "suggest.h"
#include "trace.h"

enum opt_id {
    OPT_URL,
    OPT_MODEL,
    OPT_OUTPUT,
    OPT_FORCE,
    OPT_API,
    OPT_API_KEY_ENV,
    OPT_API_KEY,
    OPT_WORKLOAD,
    OPT_WORKLOAD_FORMAT,
    OPT_DATASET_SESSIONS,
    OPT_CLASSES,
    OPT_N,
    OPT_CONCURRENCY,
    OPT_RATE,
    OPT_ARRIVAL,
    OPT_SEED,
    OPT_WARMUP,
    OPT_DURATION,
    OPT_MAX_TOKENS,
    OPT_IGNORE_EOS,
    OPT_EXTRA_BODY,
    OPT_TIMEOUT,
    OPT_IDLE_TIMEOUT,
    OPT_CONNECT_TIMEOUT,
    OPT_LABEL,
    OPT_NO_CONTENT,
    OPT_COMPRESS,
    OPT_FORMAT_VERSION,
    OPT_HTTP2,
    OPT_PROGRESS,
    OPT_QUIET,
    OPT_NO_REQUEST_ID,
    OPT_HELP,
    OPT_VERSION,
    OPT_CHECK,
    OPT_CLINE_SETTINGS,
    OPT_PRINT_CLINE_SETTINGS,
    OPT_RETRY,
    OPT_INSECURE,
    OPT_NO_PROXY,
    OPT_CACERT,
    OPT_SWEEP,
    OPT_BURSTINESS,
    OPT_RAMP,
    OPT_SEARCH,
    OPT_ARRIVALS,
    OPT_SPEED,
    OPT_SHARD,
    OPT_START_AT,
    OPT_RUN_ID,
    OPT_PROCS,
    OPT_THINK_TIME,
    OPT_INPUT_TOKENS,
    OPT_OUTPUT_TOKENS,
    OPT_SHARED_PREFIX,
    OPT_HISTORY,
    OPT_SERVER_METRICS,
    OPT_SERVER_METRICS_INTERVAL,
    OPT_SERVER_METRICS_SEND_KEY,
    OPT_KEEP_AWAKE,
    OPT_NO_KEEP_AWAKE,
    OPT_KEEP_AWAKE_CPU,
    OPT_CHUNK_TIME,
};

struct opt {
    const char *name; /* long name without "--" */
    char short_name;  /* 0: none */
    bool has_arg;
    enum opt_id id;
};

static const struct opt opts[] = {
    {"url", 'u', true, OPT_URL},
    {"model", 'm', true, OPT_MODEL},
    {"output", 'o', true, OPT_OUTPUT},
    {"force", 0, false, OPT_FORCE},
    {"api", 0, true, OPT_API},
    {"api-key-env", 0, true, OPT_API_KEY_ENV},
    {"api-key", 0, true, OPT_API_KEY},
    {"workload", 'w', true, OPT_WORKLOAD},
    {"workload-format", 0, true, OPT_WORKLOAD_FORMAT},
    {"dataset-sessions", 0, false, OPT_DATASET_SESSIONS},
    {"classes", 0, true, OPT_CLASSES},
    {"requests", 'n', true, OPT_N},
    {"concurrency", 'c', true, OPT_CONCURRENCY},
    {"rate", 'r', true, OPT_RATE},
    {"arrival", 0, true, OPT_ARRIVAL},
    {"seed", 0, true, OPT_SEED},
    {"warmup", 0, true, OPT_WARMUP},
    {"duration", 0, true, OPT_DURATION},
    {"max-tokens", 0, true, OPT_MAX_TOKENS},
    {"ignore-eos", 0, false, OPT_IGNORE_EOS},
    {"extra-body", 0, true, OPT_EXTRA_BODY},
    {"timeout", 0, true, OPT_TIMEOUT},
    {"idle-timeout", 0, true, OPT_IDLE_TIMEOUT},
    {"connect-timeout", 0, true, OPT_CONNECT_TIMEOUT},
    {"label", 0, true, OPT_LABEL},
    {"no-content", 0, false, OPT_NO_CONTENT},
    {"compress", 0, false, OPT_COMPRESS},
    {"format-version", 0, true, OPT_FORMAT_VERSION},
    {"http2", 0, false, OPT_HTTP2},
    {"progress", 0, true, OPT_PROGRESS},
    {"quiet", 'q', false, OPT_QUIET},
    {"no-request-id", 0, false, OPT_NO_REQUEST_ID},
    {"help", 'h', false, OPT_HELP},
    {"version", 'V', false, OPT_VERSION},
    {"check", 0, false, OPT_CHECK},
    {"cline-settings", 0, true, OPT_CLINE_SETTINGS},
    {"print-cline-settings", 0, false, OPT_PRINT_CLINE_SETTINGS},
    {"retry", 0, true, OPT_RETRY},
    {"insecure", 0, false, OPT_INSECURE},
    {"no-proxy", 0, false, OPT_NO_PROXY},
    {"cacert", 0, true, OPT_CACERT},
    {"sweep", 0, true, OPT_SWEEP},
    {"burstiness", 0, true, OPT_BURSTINESS},
    {"ramp", 0, true, OPT_RAMP},
    {"search", 0, true, OPT_SEARCH},
    {"arrivals", 0, true, OPT_ARRIVALS},
    {"speed", 0, true, OPT_SPEED},
    {"shard", 0, true, OPT_SHARD},
    {"start-at", 0, true, OPT_START_AT},
    {"run-id", 0, true, OPT_RUN_ID},
    {"procs", 0, true, OPT_PROCS},
    {"think-time", 0, true, OPT_THINK_TIME},
    {"input-tokens", 0, true, OPT_INPUT_TOKENS},
    {"output-tokens", 0, true, OPT_OUTPUT_TOKENS},
    {"shared-prefix", 0, true, OPT_SHARED_PREFIX},
    {"history", 0, true, OPT_HISTORY},
    {"server-metrics", 0, true, OPT_SERVER_METRICS},
    {"server-metrics-interval", 0, true, OPT_SERVER_METRICS_INTERVAL},
    {"server-metrics-send-key", 0, false, OPT_SERVER_METRICS_SEND_KEY},
    {"keep-awake", 0, true, OPT_KEEP_AWAKE},
    {"no-keep-awake", 0, false, OPT_NO_KEEP_AWAKE},
    {"keep-awake-cpu", 0, true, OPT_KEEP_AWAKE_CPU},
    {"chunk-time", 0, true, OPT_CHUNK_TIME},
};

#define N_OPTS (sizeof opts / sizeof opts[0])

/* Formats a usage error into err; always returns CLI_E_USAGE. */
static int usage(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int usage(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return CLI_E_USAGE;
}

/* A value as it may appear in an error message: never a key. */
static const char *shown(const char *v)
{
    return sanitize_looks_secret(v) ? "[redacted]" : v;
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

/* Finds the option for argv[*i]; sets *val to its inline value ("--x=v",
 * "-xv") or NULL. Returns NULL for an unknown option. */
static const struct opt *find_opt(const char *arg, const char **val)
{
    size_t i, len;
    *val = NULL;
    if (arg[1] == '-') {
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        len = eq ? (size_t)(eq - name) : strlen(name);
        for (i = 0; i < N_OPTS; i++) {
            if (strlen(opts[i].name) == len &&
                strncmp(opts[i].name, name, len) == 0) {
                *val = eq ? eq + 1 : NULL;
                return &opts[i];
            }
        }
        return NULL;
    }
    for (i = 0; i < N_OPTS; i++) {
        if (opts[i].short_name && opts[i].short_name == arg[1]) {
            *val = arg[2] ? arg + 2 : NULL;
            return &opts[i];
        }
    }
    return NULL;
}

/* The option closest to the unknown len bytes of arg ("--modle"), as
 * "--model", or NULL when none is a plausible typo. Short options are
 * too short to guess at. */
static const char *closest_opt(const char *arg, int len, char *out,
                               size_t outlen)
{
    char word[SUGGEST_MAX_LEN + 1], names[N_OPTS][40];
    const char *cands[N_OPTS];
    const char *best;
    size_t i;
    if (arg[1] != '-' || len < 3)
        return NULL;
    snprintf(word, sizeof word, "%.*s", len, arg);
    for (i = 0; i < N_OPTS; i++) {
        snprintf(names[i], sizeof names[i], "--%s", opts[i].name);
        cands[i] = names[i];
    }
    best = suggest_closest(word, cands, N_OPTS);
    if (!best)
        return NULL;
    snprintf(out, outlen, "%s", best);
    return out;
}

/* The first key of the --extra-body object j that would make the trace's
 * labels false (the model, streaming, the prompt), or NULL. Replacing
 * them is refused rather than relabelled: a trace must say what was sent,
 * and -m / -w say it already. */
static const char *extra_body_owned_key(const cJSON *j)
{
    static const char *const owned[] = {"model", "stream", "messages", "prompt",
                                        "input"};
    size_t i;
    for (i = 0; i < sizeof owned / sizeof owned[0]; i++)
        if (cJSON_GetObjectItemCaseSensitive(j, owned[i]))
            return owned[i];
    return NULL;
}

/* Applies one option with its value (NULL for flags). */
static int apply(struct config *cfg, const struct opt *o, const char *v,
                 char *err, size_t errlen)
{
    uint64_t u;
    double d;
    switch (o->id) {
    case OPT_URL:
        cfg->base_url = v;
        cfg->base_url_from_env = false;
        break;
    case OPT_MODEL:
        if (*v == '\0')
            return usage(err, errlen, "-m: empty model name");
        if (cfg->n_models == CLI_MAX_MODELS)
            return usage(err, errlen, "-m: at most %d models", CLI_MAX_MODELS);
        for (size_t i = 0; i < cfg->n_models; i++)
            if (strcmp(cfg->models[i], v) == 0)
                return usage(err, errlen, "-m: model '%s' given twice",
                             shown(v));
        cfg->models[cfg->n_models++] = v;
        break;
    case OPT_OUTPUT:
        if (*v == '\0')
            return usage(err, errlen, "-o: empty file name");
        cfg->output = v;
        break;
    case OPT_FORCE:
        cfg->force = true;
        break;
    case OPT_API:
        if (api_kind_from_name(v, &cfg->api) != 0)
            return usage(err, errlen, "--api: '%s' is not one of %s", shown(v),
                         api_kind_names());
        cfg->api_given = true;
        break;
    case OPT_API_KEY_ENV:
        if (!cli_env_name_ok(v))
            return usage(err, errlen,
                         "--api-key-env takes the name of an "
                         "environment variable (like OPENAI_API_KEY), "
                         "not a key");
        cfg->api_key_env = v;
        cfg->api_key_env_given = true;
        break;
    case OPT_API_KEY:
        return usage(err, errlen,
                     "--api-key is not accepted (a key on the "
                     "command line shows up in ps): put the key in an "
                     "environment variable and name it with --api-key-env");
    case OPT_WORKLOAD_FORMAT:
        if (strcmp(v, "auto") && strcmp(v, "tokentrace") &&
            strcmp(v, "sharegpt") && strcmp(v, "openai-jsonl"))
            return usage(err, errlen,
                         "--workload-format: '%s' is not one of auto, "
                         "tokentrace, sharegpt, openai-jsonl",
                         v);
        cfg->workload_format = v;
        break;
    case OPT_DATASET_SESSIONS:
        cfg->dataset_sessions = true;
        break;
    case OPT_WORKLOAD:
        cfg->workload_file = v;
        break;
    case OPT_CLASSES:
        if (*v == '\0')
            return usage(err, errlen, "--classes: empty list");
        cfg->classes = v;
        break;
    case OPT_N:
        if (cli_parse_u64(v, 1, 100000000, &cfg->n))
            return usage(err, errlen, "-n: '%s' is not a count from 1",
                         shown(v));
        cfg->n_given = true;
        break;
    case OPT_CONCURRENCY:
        if (cli_parse_u64(v, 1, 100000, &cfg->concurrency))
            return usage(err, errlen,
                         "-c: '%s' is not a count from 1 to "
                         "100000",
                         shown(v));
        break;
    case OPT_RATE: {
        char *end;
        errno = 0;
        d = strtod(v, &end);
        if (end == v || *end || errno || !isfinite(d) || d <= 0 || d > 1e6)
            return usage(err, errlen,
                         "-r: '%s' is not a rate in "
                         "requests/s above 0",
                         shown(v));
        cfg->rate = d;
        break;
    }
    case OPT_ARRIVAL:
        if (strcmp(v, "poisson") == 0)
            cfg->arrival = ARRIVAL_POISSON;
        else if (strcmp(v, "constant") == 0)
            cfg->arrival = ARRIVAL_CONSTANT;
        else
            return usage(err, errlen,
                         "--arrival: '%s' is not poisson or "
                         "constant",
                         shown(v));
        break;
    case OPT_SEED:
        if (rng_seed_parse(v, &cfg->seed))
            return usage(err, errlen, "--seed: '%s' is not " RNG_SEED_WANT,
                         shown(v));
        break;
    case OPT_WARMUP:
        if (cli_parse_u64(v, 0, 1000000, &cfg->warmup))
            return usage(err, errlen, "--warmup: '%s' is not a count",
                         shown(v));
        break;
    case OPT_MAX_TOKENS:
        if (cli_parse_u64(v, 1, 10000000, &u))
            return usage(err, errlen,
                         "--max-tokens: '%s' is not a count "
                         "from 1",
                         shown(v));
        cfg->max_tokens = (int64_t)u;
        break;
    case OPT_IGNORE_EOS:
        cfg->ignore_eos = true;
        break;
    case OPT_EXTRA_BODY: {
        cJSON *j = cJSON_Parse(v);
        bool ok = j && cJSON_IsObject(j);
        const char *owned = ok ? extra_body_owned_key(j) : NULL;
        cJSON_Delete(j);
        if (!ok)
            return usage(err, errlen,
                         "--extra-body: not a JSON object "
                         "(example: '{\"temperature\":0}')");
        if (owned)
            return usage(err, errlen,
                         "--extra-body: \"%s\" is the recorder's: %s", owned,
                         strcmp(owned, "model") == 0
                             ? "the trace labels every request with its -m "
                               "model, so name the model with -m MODEL "
                               "(repeatable)"
                         : strcmp(owned, "stream") == 0
                             ? "the recorder measures streams and always "
                               "sends \"stream\": true"
                             : "the prompt comes from the workload (-w FILE, "
                               "--classes), which the trace labels each "
                               "request with");
        cfg->extra_body = v;
        break;
    }
    case OPT_DURATION:
    case OPT_TIMEOUT:
    case OPT_IDLE_TIMEOUT:
    case OPT_CONNECT_TIMEOUT:
        if (duration_parse(v, DURATION_S, DURATION_S, &d) || d <= 0 || d > 1e7)
            return usage(err, errlen,
                         "--%s: '%s' is not a duration above "
                         "0 (seconds, or with a unit " DURATION_UNITS
                         ": 500ms, 2m)",
                         o->name, shown(v));
        if (o->id == OPT_DURATION)
            cfg->duration_s = d;
        else if (o->id == OPT_TIMEOUT) {
            cfg->timeout_s = d;
            cfg->timeout_given = true;
        } else if (o->id == OPT_IDLE_TIMEOUT) {
            cfg->idle_timeout_s = d;
            cfg->idle_timeout_given = true;
        } else
            cfg->connect_timeout_s = d;
        break;
    case OPT_LABEL: {
        const char *eq = strchr(v, '=');
        struct cli_label *l;
        if (!eq || eq == v)
            return usage(err, errlen, "--label: '%s' is not KEY=VALUE",
                         shown(v));
        if (cfg->n_labels == CLI_MAX_LABELS)
            return usage(err, errlen, "--label: at most %d labels",
                         CLI_MAX_LABELS);
        l = &cfg->labels[cfg->n_labels];
        l->key = strndup(v, (size_t)(eq - v));
        if (!l->key)
            return usage(err, errlen, "out of memory");
        l->value = eq + 1;
        cfg->n_labels++;
        break;
    }
    case OPT_NO_CONTENT:
        cfg->no_content = true;
        break;
    case OPT_COMPRESS:
        cfg->compress = true;
        break;
    case OPT_FORMAT_VERSION: {
        uint64_t version;
        if (cli_parse_u64(v, 1, TRACE_FORMAT_VERSION, &version))
            return usage(err, errlen,
                         "--format-version: '%s' is not 1 or %d (the trace "
                         "format versions this recorder writes)",
                         shown(v), TRACE_FORMAT_VERSION);
        cfg->format_version = (unsigned)version;
        break;
    }
    case OPT_HTTP2:
        cfg->http2 = true;
        break;
    case OPT_PROGRESS:
        if (strcmp(v, "auto") == 0)
            cfg->progress = PROGRESS_AUTO;
        else if (strcmp(v, "always") == 0)
            cfg->progress = PROGRESS_ALWAYS;
        else if (strcmp(v, "never") == 0)
            cfg->progress = PROGRESS_NEVER;
        else
            return usage(err, errlen,
                         "--progress: '%s' is not auto, "
                         "always or never",
                         shown(v));
        break;
    case OPT_QUIET:
        cfg->quiet = true;
        break;
    case OPT_NO_REQUEST_ID:
        cfg->no_request_id = true;
        break;
    case OPT_HELP:
        return CLI_HELP;
    case OPT_VERSION:
        return CLI_VERSION;
    case OPT_CHECK:
        cfg->check = true;
        break;
    case OPT_CLINE_SETTINGS:
        if (*v == '\0')
            return usage(err, errlen, "--cline-settings: empty file name");
        cfg->cline_file = v;
        break;
    case OPT_PRINT_CLINE_SETTINGS:
        cfg->print_cline_settings = true;
        break;
    case OPT_RETRY:
        if (cli_parse_u64(v, 0, RETRY_MAX_ATTEMPTS, &cfg->retry))
            return usage(err, errlen,
                         "--retry: '%s' is not a count from 0 "
                         "to %d",
                         shown(v), RETRY_MAX_ATTEMPTS);
        break;
    case OPT_INSECURE:
        cfg->insecure = true;
        break;
    case OPT_NO_PROXY:
        cfg->no_proxy = true;
        break;
    case OPT_SERVER_METRICS:
        if (strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0)
            return usage(err, errlen,
                         "--server-metrics: '%s' is not an http:// or "
                         "https:// URL (the server's /metrics)",
                         shown(v));
        if (cfg->n_server_metrics == CLI_MAX_SERVER_METRICS)
            return usage(err, errlen, "--server-metrics: at most %d URLs",
                         CLI_MAX_SERVER_METRICS);
        cfg->server_metrics[cfg->n_server_metrics++] = v;
        break;
    case OPT_SERVER_METRICS_INTERVAL:
        if (duration_parse(v, DURATION_S, DURATION_S, &d) || d < 0.1 ||
            d > 3600)
            return usage(
                err, errlen,
                "--server-metrics-interval: '%s' is not a duration "
                "from 100ms to 1h (seconds, or with a unit " DURATION_UNITS ")",
                shown(v));
        cfg->server_metrics_interval_s = d;
        break;
    case OPT_SERVER_METRICS_SEND_KEY:
        cfg->server_metrics_send_key = true;
        break;
    case OPT_CACERT:
        if (*v == '\0')
            return usage(err, errlen, "--cacert: empty file name");
        cfg->cacert = v;
        break;
    case OPT_BURSTINESS: {
        char *end;
        errno = 0;
        d = strtod(v, &end);
        if (end == v || *end || errno || !isfinite(d) || d < 0.01 || d > 100)
            return usage(err, errlen,
                         "--burstiness: '%s' is not a gamma shape from 0.01 "
                         "to 100 (1: Poisson, below 1 burstier)",
                         shown(v));
        cfg->burstiness = d;
        break;
    }
    case OPT_RAMP:
        if (duration_parse(v, DURATION_S, DURATION_S, &d) || d <= 0 || d > 1e6)
            return usage(err, errlen,
                         "--ramp: '%s' is not a duration above 0 (30s, 2m)",
                         shown(v));
        cfg->ramp_s = d;
        break;
    case OPT_THINK_TIME:
        if (think_time_parse(v, &cfg->think))
            return usage(err, errlen,
                         "--think-time: '%s' is not " THINK_TIME_WANT,
                         shown(v));
        break;
    case OPT_INPUT_TOKENS:
    case OPT_OUTPUT_TOKENS:
        if (token_length_parse(v, o->id == OPT_INPUT_TOKENS
                                      ? &cfg->input_tokens
                                      : &cfg->output_tokens))
            return usage(err, errlen, "--%s: '%s' is not " TOKEN_LENGTH_WANT,
                         o->name, shown(v));
        break;
    case OPT_SHARED_PREFIX:
        if (cli_parse_u64(v, 1, TOKEN_LENGTH_MAX, &u))
            return usage(err, errlen,
                         "--shared-prefix: '%s' is not a count of tokens "
                         "from 1",
                         shown(v));
        cfg->shared_prefix = (int64_t)u;
        break;
    case OPT_HISTORY:
        if (strcmp(v, "received") == 0)
            cfg->history = HISTORY_RECEIVED;
        else if (strcmp(v, "recorded") == 0)
            cfg->history = HISTORY_RECORDED;
        else
            return usage(err, errlen,
                         "--history: '%s' is not received or recorded",
                         shown(v));
        break;
    case OPT_ARRIVALS:
        if (*v == '\0')
            return usage(err, errlen, "--arrivals: empty file name");
        cfg->arrivals_file = v;
        break;
    case OPT_SPEED: {
        char *end;
        errno = 0;
        d = strtod(v, &end);
        if (end == v || *end || errno || !isfinite(d) || d <= 0 || d > 1e6)
            return usage(err, errlen,
                         "--speed: '%s' is not a factor above 0 (2: twice "
                         "as fast)",
                         shown(v));
        cfg->speed = d;
        break;
    }
    case OPT_SHARD:
        return cli_shard_parse(v, &cfg->shard, err, errlen) ? CLI_E_USAGE
                                                            : CLI_OK;
    case OPT_START_AT:
        return cli_start_at_parse(v, &cfg->shard, err, errlen) ? CLI_E_USAGE
                                                               : CLI_OK;
    case OPT_RUN_ID:
        if (cli_run_id_check(v, "--run-id", err, errlen))
            return CLI_E_USAGE;
        cfg->shard.run_id = v;
        break;
    case OPT_PROCS:
        if (cli_parse_u64(v, 1, CLI_PROCS_MAX, &u))
            return usage(err, errlen,
                         "--procs: '%s' is not a count from 1 "
                         "to %d",
                         shown(v), CLI_PROCS_MAX);
        cfg->shard.procs = (uint32_t)u;
        break;
    case OPT_KEEP_AWAKE:
        if (keep_awake_parse_mode(v, &cfg->keep_awake))
            return usage(err, errlen,
                         "--keep-awake: '%s' is not auto, spin, poll or off",
                         shown(v));
        break;
    case OPT_NO_KEEP_AWAKE:
        cfg->keep_awake = KEEP_AWAKE_OFF;
        break;
    case OPT_CHUNK_TIME:
        if (strcmp(v, "kernel") == 0)
            cfg->chunk_time_user = false;
        else if (strcmp(v, "user") == 0)
            cfg->chunk_time_user = true;
        else
            return usage(err, errlen,
                         "--chunk-time: '%s' is not kernel or user", shown(v));
        break;
    case OPT_KEEP_AWAKE_CPU: {
        uint64_t cpu;
        if (cli_parse_u64(v, 0, 4095, &cpu))
            return usage(err, errlen,
                         "--keep-awake-cpu: '%s' is not a CPU number",
                         shown(v));
        cfg->keep_awake_cpu = (int)cpu;
        break;
    }
    case OPT_SEARCH:
        if (cli_search_parse(v, &cfg->search, err, errlen)) {
            if (sanitize_looks_secret(v))
                return usage(err, errlen,
                             "--search: [redacted] is not MODE=START,ttft=DUR");
            return CLI_E_USAGE;
        }
        break;
    case OPT_SWEEP:
        if (cli_sweep_parse(v, &cfg->sweep, err, errlen)) {
            if (sanitize_looks_secret(v))
                return usage(err, errlen,
                             "--sweep: [redacted] is not concurrency=LOADS "
                             "or rate=LOADS");
            return CLI_E_USAGE;
        }
        break;
    }
    return CLI_OK;
}

/* Reads --cline-settings FILE into cfg (flags already set win). */
static int load_cline(struct config *cfg, char *err, size_t errlen)
{
    int rc = cline_settings_load(cfg->cline_file, &cfg->cline, err, errlen);
    if (!rc)
        rc = cline_settings_apply(cfg->cline, cfg, err, errlen);
    return rc ? CLI_E_USAGE : CLI_OK;
}

/* --input-tokens, --output-tokens, --shared-prefix against the rest. */
static int check_lengths(const struct config *cfg, char *err, size_t errlen)
{
    const struct token_length *in = &cfg->input_tokens;
    bool exact = in->kind != TOKEN_LENGTH_NONE;
    if (exact && (cfg->workload_file || cfg->classes || cfg->arrivals_file))
        return usage(err, errlen,
                     "--input-tokens builds its own prompts: leave out -w, "
                     "--classes and --arrivals");
    if (cfg->output_tokens.kind != TOKEN_LENGTH_NONE && cfg->max_tokens > 0)
        return usage(err, errlen,
                     "--output-tokens sets max_tokens of every request: "
                     "leave out --max-tokens");
    if (cfg->shared_prefix > 0 && !exact)
        return usage(err, errlen,
                     "--shared-prefix puts T tokens in front of the "
                     "prompts --input-tokens builds: give --input-tokens");
    if (cfg->shared_prefix > 0 && in->a <= (double)cfg->shared_prefix)
        return usage(err, errlen,
                     "--shared-prefix %lld: the prompts (--input-tokens "
                     "%.0f) must be longer than their shared prefix",
                     (long long)cfg->shared_prefix, in->a);
    return CLI_OK;
}

/* Checks the combination of flags once all are read. */
static int check_config(struct config *cfg, char *err, size_t errlen)
{
    if (check_lengths(cfg, err, errlen) != CLI_OK)
        return CLI_E_USAGE;
    if (cfg->check && cfg->print_cline_settings)
        return usage(err, errlen,
                     "--check and --print-cline-settings "
                     "exclude each other");
    if (cfg->check && cfg->output && strcmp(cfg->output, "-") == 0)
        return usage(err, errlen,
                     "--check prints its report on stdout: "
                     "give -o a file name for the probe trace");
    if (cfg->insecure && cfg->cacert)
        return usage(err, errlen,
                     "--insecure and --cacert exclude each "
                     "other: --cacert verifies with FILE, --insecure does "
                     "not verify at all");
    if (cfg->cacert && access(cfg->cacert, R_OK) != 0)
        return usage(err, errlen, "--cacert: cannot read '%s': %s",
                     shown(cfg->cacert), strerror(errno));
    if (cfg->cline_file && load_cline(cfg, err, errlen) != CLI_OK)
        return CLI_E_USAGE;
    if (!cfg->base_url) {
        /* anthropic: its SDK's variable first, as the key is looked up */
        static const char *const names[] = {"ANTHROPIC_BASE_URL",
                                            "OPENAI_BASE_URL"};
        size_t i;
        for (i = cfg->api == API_ANTHROPIC ? 0 : 1; i < 2; i++) {
            const char *env = getenv(names[i]);
            if (env && *env) {
                cfg->base_url = env;
                cfg->base_url_from_env = true;
                cfg->base_url_env = names[i];
                break;
            }
        }
    }
    if (!cfg->base_url)
        return usage(
            err, errlen, "no base URL: give -u URL%s or set %s",
            cfg->cline_file ? " (or "
                              "cline.openAiBaseUrl in the settings file)"
                            : "",
            cfg->api == API_ANTHROPIC ? "ANTHROPIC_BASE_URL or OPENAI_BASE_URL"
                                      : "OPENAI_BASE_URL");
    if (cfg->n_models == 0)
        return usage(err, errlen, "no model: give at least one -m MODEL%s",
                     cfg->cline_file ? " (or cline.openAiModelId in the "
                                       "settings file)"
                                     : "");
    return CLI_OK;
}

/* --shard / --procs with the rest: what a shard cannot do alone, and a
 * closed loop's concurrency that leaves a shard nothing. */
static int check_shards(struct config *cfg, char *err, size_t errlen)
{
    struct cli_shard *sh = &cfg->shard;
    uint64_t parts;
    if (cli_shard_resolve(sh, cfg->seed, err, errlen))
        return CLI_E_USAGE;
    parts = (uint64_t)sh->count * (sh->procs ? sh->procs : 1);
    if (parts <= 1)
        return CLI_OK;
    if (cfg->search.mode != SWEEP_NONE)
        return usage(err, errlen,
                     "--search picks each probe from the results so far, "
                     "which separate shards cannot share: run --search in "
                     "one process, or --sweep the loads over the shards");
    if (cfg->check)
        return usage(err, errlen,
                     "--check runs in one process: leave out "
                     "--shard and --procs");
    if (sh->procs > 1 && cfg->output && strcmp(cfg->output, "-") == 0)
        return usage(err, errlen,
                     "--procs writes its shards to files it "
                     "joins: give -o a file name");
    if (cfg->rate <= 0 && cfg->sweep.mode != SWEEP_RATE &&
        !cfg->arrivals_file) {
        uint64_t lo = cfg->concurrency;
        for (size_t i = 0; i < cfg->sweep.n; i++)
            if (cfg->sweep.mode == SWEEP_CONCURRENCY &&
                (i == 0 || cfg->sweep.loads[i] < (double)lo))
                lo = (uint64_t)cfg->sweep.loads[i];
        if (lo < parts)
            return usage(err, errlen,
                         "a closed loop of concurrency %llu cannot be "
                         "split over %llu shards (each needs at least 1): "
                         "give -c %llu or more",
                         (unsigned long long)lo, (unsigned long long)parts,
                         (unsigned long long)parts);
    }
    return CLI_OK;
}

int cli_parse(int argc, char **argv, struct config *cfg, char *err,
              size_t errlen)
{
    int i, rc;
    bool c_given = false, arrival_given = false;
    config_defaults(cfg, argc, argv);
    err[0] = '\0';
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i], *val;
        const struct opt *o;
        if (arg[0] != '-' || arg[1] == '\0')
            return usage(err, errlen, "unexpected argument '%s'", shown(arg));
        if (strcmp(arg, "--") == 0)
            return usage(err, errlen, "unexpected argument '--'");
        o = find_opt(arg, &val);
        if (!o) {
            const char *eq = strchr(arg, '=');
            int len = eq ? (int)(eq - arg) : (int)strlen(arg);
            char near[48];
            if (arg[1] != '-')
                len = 2;
            if (closest_opt(arg, len, near, sizeof near))
                return usage(err, errlen,
                             "unknown option '%.*s' (did you mean %s?)", len,
                             arg, near);
            return usage(err, errlen, "unknown option '%.*s'", len, arg);
        }
        if (o->has_arg && !val) {
            if (i + 1 >= argc)
                return usage(err, errlen, "--%s needs a value", o->name);
            val = argv[++i];
        } else if (!o->has_arg && val) {
            return usage(err, errlen, "--%s takes no value", o->name);
        }
        if (o->id == OPT_CONCURRENCY)
            c_given = true;
        if (o->id == OPT_ARRIVAL)
            arrival_given = true;
        rc = apply(cfg, o, val, err, errlen);
        if (rc != CLI_OK)
            return rc;
    }
    cfg->concurrency_given = c_given;
    if (cfg->dataset_sessions && !cfg->workload_file)
        return usage(err, errlen,
                     "--dataset-sessions reads the dataset of -w FILE as "
                     "sessions");
    if (cfg->workload_format && !cfg->workload_file)
        return usage(err, errlen, "--workload-format says how -w FILE is read");
    if (cfg->speed != 1 && !cfg->arrivals_file)
        return usage(err, errlen, "--speed scales --arrivals FILE");
    if (cfg->arrivals_file &&
        (cfg->rate > 0 || cfg->sweep.mode != SWEEP_NONE ||
         cfg->search.mode != SWEEP_NONE || arrival_given ||
         cfg->burstiness > 0 || cfg->ramp_s > 0 || cfg->n_given ||
         cfg->warmup > 0 || cfg->workload_file || cfg->classes ||
         cfg->n_models > 1))
        return usage(err, errlen,
                     "--arrivals FILE sets when each request goes out and "
                     "its lengths: leave out -r, --sweep, --search, "
                     "--arrival, --burstiness, --ramp, -n, --warmup, -w and "
                     "--classes, "
                     "and give one -m (-c N caps the requests in flight)");
    if (cfg->search.mode != SWEEP_NONE) {
        if (cfg->sweep.mode != SWEEP_NONE)
            return usage(err, errlen,
                         "--sweep and --search exclude each other: --sweep "
                         "runs the loads given, --search picks them");
        /* the first probe is a one-stage sweep; run_loop adds the rest */
        cfg->sweep.mode = cfg->search.mode;
        cfg->sweep.n = 1;
        cfg->sweep.loads[0] = cfg->search.start;
    }
    if (cfg->sweep.mode == SWEEP_CONCURRENCY && (c_given || cfg->rate > 0))
        return usage(err, errlen,
                     "--sweep/--search concurrency=... sets the concurrency "
                     "of each stage: leave out -c and -r");
    if (cfg->sweep.mode == SWEEP_RATE && cfg->rate > 0)
        return usage(err, errlen,
                     "--sweep/--search rate=... sets the rate of each stage: "
                     "leave out -r (-c N caps the requests in flight)");
    if (cfg->burstiness > 0 &&
        ((cfg->rate <= 0 && cfg->sweep.mode != SWEEP_RATE) ||
         cfg->arrival != ARRIVAL_POISSON))
        return usage(err, errlen,
                     "--burstiness shapes Poisson arrivals: it needs -r RATE "
                     "or --sweep rate=... (and not --arrival constant)");
    if (arrival_given && cfg->rate <= 0 && cfg->sweep.mode != SWEEP_RATE)
        return usage(err, errlen,
                     "--arrival needs an open loop (-r RATE or "
                     "--sweep rate=...)");
    rc = check_shards(cfg, err, errlen);
    if (rc != CLI_OK)
        return rc;
    return check_config(cfg, err, errlen);
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
    cfg->api_key_literal = NULL;
}
