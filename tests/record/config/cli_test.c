/* cli_test: tokentrace-record's command line as data: each line of
 * arguments and the config fields it sets or the exact error
 * (record/config/cli.c over common/opt.c, cli_checks.c); --help and the
 * flag table name the same flags. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_cases.h"

#define U "-u http://127.0.0.1:9 -m a"

static const struct cli_case cases[] = {
    {U, "url=http://127.0.0.1:9 models=1 m0=a n=3 c=1 rate=0 seed=1 "
        "max_tokens=-1 timeout=600 idle=120 progress=0 keep_awake=0 cpu=-1"},
    {"--url=http://h -m a --model=b -mc", "url=http://h models=3 m1=b m2=c"},
    {U " -n 5 -c 2 -r 1.5 --seed 9 --warmup 2", "n=5 n_given=1 c=2 c_given=1 "
                                                "rate=1.5 seed=9 warmup=2"},
    {U " -n5 -c=2", "error: -c: '=2' is not a count from 1 to 100000"},
    {U " --requests=7 --concurrency 3", "n=7 c=3"},
    {U " -r 2 --arrival constant", "arrival=1 rate=2"},
    {U " -r 2 --burstiness 0.5", "burst=0.5"},
    {U " --duration 2m --timeout 500ms --idle-timeout=30 --connect-timeout 1s",
     "duration=120 timeout=0.5 timeout_given=1 idle=30 connect=1"},
    {U " --max-tokens 64 --ignore-eos --extra-body {\"temperature\":0}",
     "max_tokens=64 ignore_eos=1 extra_body={\"temperature\":0}"},
    {U " --label team=a --label=run=2", "labels=2 l0=team=a l1=run=2"},
    {U " -o t.ttrace --force --compress --format-version 1 --http2 -q",
     "output=t.ttrace force=1 compress=1 fv=1 http2=1 quiet=1"},
    {U " --progress never --no-request-id --no-content --insecure --no-proxy",
     "progress=2 no_rid=1 no_content=1 insecure=1 no_proxy=1"},
    {U " --no-content --content --quiet --no-quiet", "no_content=0 quiet=0"},
    {U " --retry 3 --keep-awake poll --keep-awake-cpu 2 --chunk-time user",
     "retry=3 keep_awake=2 cpu=2 chunk_user=1"},
    {U " --no-keep-awake", "keep_awake=3"},
    {U " --api anthropic --api-key-env MY_KEY", "api=2 api_given=1 "
                                                "key_env=MY_KEY"},
    {U " --history recorded --think-time exp:2s", "history=1 think=1"},
    {U " --input-tokens 100 --output-tokens 20 --shared-prefix 10",
     "in=100 out=20 prefix=10"},
    {U " --server-metrics http://h/metrics --server-metrics-interval 500ms "
       "--server-metrics-send-key",
     "metrics=1 interval=0.5 send_key=1"},
    {U " --sweep concurrency=1,2", "sweep=1 stages=2"},
    {U " --classes short-short -w w.jsonl --workload-format sharegpt "
       "--dataset-sessions",
     "classes=short-short workload=w.jsonl wf=sharegpt sessions=1"},
    {"-u x -m a --help --bogus", "help"},
    {"-V", "version"},
    /* each value error */
    {U " -n 0", "error: -n: '0' is not a count from 1"},
    {U " -c 0", "error: -c: '0' is not a count from 1 to 100000"},
    {U " -r -1", "error: -r: '-1' is not a rate in requests/s above 0"},
    {U " --arrival burst -r 1",
     "error: --arrival: 'burst' is not poisson or constant"},
    {U " --seed -1", "error: --seed: '-1' is not a whole number from 0 to "
                     "18446744073709551615"},
    {U " --timeout 0", "error: --timeout: '0' is not a duration above 0 "
                       "(seconds, or with a unit ns, us, ms, s, m or h: "
                       "500ms, 2m)"},
    {U " --ramp 0", "error: --ramp: '0' is not a duration above 0 (30s, 2m)"},
    {U " --server-metrics-interval 10ms",
     "error: --server-metrics-interval: '10ms' is not a duration from 100ms "
     "to 1h (seconds, or with a unit ns, us, ms, s, m or h)"},
    {U " --burstiness 0", "error: --burstiness: '0' is not a gamma shape from "
                          "0.01 to 100 (1: Poisson, below 1 burstier)"},
    {U " --format-version 3", "error: --format-version: '3' is not 1 or 2 (the "
                              "trace format versions this recorder writes)"},
    {U " --retry 21", "error: --retry: '21' is not a count from 0 to 20"},
    {U " --procs 0", "error: --procs: '0' is not a count from 1 to 256"},
    {U " --progress sometimes",
     "error: --progress: 'sometimes' is not auto, always or never"},
    {U " --keep-awake never",
     "error: --keep-awake: 'never' is not auto, spin, poll or off"},
    {U " --keep-awake-cpu x", "error: --keep-awake-cpu: 'x' is not a CPU "
                              "number"},
    {U " --chunk-time soon", "error: --chunk-time: 'soon' is not kernel or "
                             "user"},
    {U " --history all", "error: --history: 'all' is not received or "
                         "recorded"},
    {U " -w w --workload-format csv",
     "error: --workload-format: 'csv' is not one of auto, tokentrace, "
     "sharegpt, openai-jsonl"},
    {U " --api openai", "error: --api: 'openai' is not one of openai-chat, "
                        "openai-completions, anthropic, openai-responses"},
    {U " --label novalue", "error: --label: 'novalue' is not KEY=VALUE"},
    {U " -m a", "error: -m: model 'a' given twice"},
    {U " -o ''", "error: -o: empty file name"},
    {U " --classes ''", "error: --classes: empty list"},
    {U " --max-tokens -5", "error: --max-tokens: '-5' is not a count from 1"},
    {U " --speed 0 --arrivals a",
     "error: --speed: '0' is not a factor above 0 (2: twice as fast)"},
    {U " --api-key sk-x", "error: --api-key is not accepted (a key on the "
                          "command line shows up in ps): put the key in an "
                          "environment variable and name it with "
                          "--api-key-env"},
    {U " -n sk-proj-ABCDEFGHIJKLMNOP0123",
     "error: -n: '[redacted]' is not a count from 1"},
    /* the forms */
    {U " --bogus", "error: unknown option '--bogus'"},
    {U " --frob=1", "error: unknown option '--frob'"},
    {U " -Z", "error: unknown option '-Z'"},
    {U " --modle b", "error: unknown option '--modle' (did you mean --model?)"},
    {U " --concurency=3",
     "error: unknown option '--concurency' (did you mean --concurrency?)"},
    {"-u x -m", "error: --model needs a value"},
    {U " --force=yes", "error: --force takes no value"},
    {U " extra", "error: unexpected argument 'extra'"},
    {U " --", "error: unexpected argument '--'"},
    /* the flags together (cli_checks.c) */
    {"-u x", "error: no model: give at least one -m MODEL"},
    {"-m a", "error: no base URL: give -u URL or set OPENAI_BASE_URL"},
    {U " --arrival constant",
     "error: --arrival needs an open loop (-r RATE or --sweep rate=...)"},
    {U " --speed 2", "error: --speed scales --arrivals FILE"},
    {U " --check --print-cline-settings",
     "error: --check and --print-cline-settings exclude each other"},
};

static void dump(const struct config *c, char *out, size_t n)
{
#define S(x) ((x) ? (x) : "-")
    snprintf(
        out, n,
        "url=%s models=%zu m0=%s m1=%s m2=%s n=%llu n_given=%d c=%llu "
        "c_given=%d rate=%g arrival=%d burst=%g seed=%llu warmup=%llu "
        "duration=%g timeout=%g timeout_given=%d idle=%g connect=%g "
        "max_tokens=%lld ignore_eos=%d extra_body=%s labels=%zu l0=%s=%s "
        "l1=%s=%s output=%s force=%d compress=%d fv=%u http2=%d quiet=%d "
        "progress=%d no_rid=%d no_content=%d insecure=%d no_proxy=%d "
        "retry=%llu keep_awake=%d cpu=%d chunk_user=%d api=%d api_given=%d "
        "key_env=%s history=%d think=%d in=%g out=%g prefix=%lld metrics=%zu "
        "interval=%g send_key=%d sweep=%d stages=%zu classes=%s workload=%s "
        "wf=%s sessions=%d",
        S(c->base_url), c->n_models, c->n_models > 0 ? c->models[0] : "-",
        c->n_models > 1 ? c->models[1] : "-",
        c->n_models > 2 ? c->models[2] : "-", (unsigned long long)c->n,
        c->n_given, (unsigned long long)c->concurrency, c->concurrency_given,
        c->rate, (int)c->arrival, c->burstiness, (unsigned long long)c->seed,
        (unsigned long long)c->warmup, c->duration_s, c->timeout_s,
        c->timeout_given, c->idle_timeout_s, c->connect_timeout_s,
        (long long)c->max_tokens, c->ignore_eos, S(c->extra_body), c->n_labels,
        c->n_labels > 0 ? c->labels[0].key : "-",
        c->n_labels > 0 ? c->labels[0].value : "-",
        c->n_labels > 1 ? c->labels[1].key : "-",
        c->n_labels > 1 ? c->labels[1].value : "-", S(c->output), c->force,
        c->compress, c->format_version, c->http2, c->quiet, (int)c->progress,
        c->no_request_id, c->no_content, c->insecure, c->no_proxy,
        (unsigned long long)c->retry, (int)c->keep_awake, c->keep_awake_cpu,
        c->chunk_time_user, (int)c->api, c->api_given, S(c->api_key_env),
        (int)c->history, (int)c->think.kind, c->input_tokens.a,
        c->output_tokens.a, (long long)c->shared_prefix, c->n_server_metrics,
        c->server_metrics_interval_s, c->server_metrics_send_key,
        (int)c->sweep.mode, c->sweep.n, S(c->classes), S(c->workload_file),
        S(c->workload_format), c->dataset_sessions);
#undef S
}

/* cli_parse on one case (cli_cases.h). */
static int run_case(struct cli_case_io *io)
{
    struct config cfg;
    int rc = cli_parse(io->argc, io->argv, &cfg, io->err, io->errlen);
    dump(&cfg, io->out, io->outlen);
    cli_free(&cfg);
    return rc;
}

int main(void)
{
    size_t n;
    const struct opt_spec *specs = cli_options(&n);
    static const char *const env[] = {
        "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "TT_SHARDS",   "TT_RUN_ID",
        "SLURM_PROCID",    "SLURM_NTASKS",       "SLURM_JOB_ID"};
    for (size_t i = 0; i < sizeof env / sizeof env[0]; i++)
        unsetenv(env[i]);
    cli_cases_run("tokentrace-record", cases, sizeof cases / sizeof cases[0],
                  run_case,
                  (struct cli_case_codes){CLI_HELP, CLI_VERSION, CLI_E_USAGE});
    /* --self-test is read before cli_parse (record/check/self_test.c) */
    static const char *const before[] = {"self-test", NULL};
    cli_help_matches("tokentrace-record", specs, n, cli_help_text(), before);
    return CHECK_DONE();
}
