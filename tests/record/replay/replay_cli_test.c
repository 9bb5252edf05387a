/* replay_cli_test: tokentrace-replay's command line as data: each line of
 * arguments and the fields it sets or the exact error (record/replay/
 * replay_cli.c over common/opt.c); --help and the table name the same
 * flags. */
#include <stdlib.h>
#include <string.h>

#include "cli_cases.h"
#include "replay_config.h"
#include "rng.h"

static const struct cli_case cases[] = {
    {"--listen 127.0.0.1:0 --synthetic tokens=3",
     "host=127.0.0.1 port=0 synthetic=1 tokens=3 speed=1 seed=1 keep_awake=0 "
     "cpu=-1 quiet=0"},
    {"--listen=[::1]:8000 --synthetic=tokens=5 -q",
     "host=::1 port=8000 tokens=5 quiet=1"},
    {"--listen 127.0.0.1:0 --trace t.ttrace --speed 2",
     "trace=t.ttrace speed=2"},
    {"--listen 127.0.0.1:0 --trace t --speed=0.5", "speed=0.5"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 --fault http-429:0.1 --fault "
     "stall@m",
     "faults=2"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 --seed 7 --port-file p "
     "--log-sends s",
     "seed=7 port_file=p log_sends=s"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 --keep-awake poll "
     "--keep-awake-cpu 3",
     "keep_awake=2 cpu=3"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 --no-keep-awake",
     "keep_awake=3"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 -q --no-quiet", "quiet=0"},
    {"--synthetic tokens=3", "error: --listen HOST:PORT is required"},
    {"--listen 127.0.0.1:0",
     "error: give exactly one of --synthetic SPEC and --trace FILE"},
    {"--listen 127.0.0.1 --synthetic tokens=3",
     "error: --listen: '127.0.0.1' is not HOST:PORT (port 0 to 65535)"},
    {"--listen 127.0.0.1:70000 --synthetic tokens=3",
     "error: --listen: '127.0.0.1:70000' is not HOST:PORT (port 0 to 65535)"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 --speed 2",
     "error: --speed only applies to --trace"},
    {"--listen 127.0.0.1:0 --trace x --speed 0",
     "error: --speed: '0' is not a factor above 0 (2: twice as fast)"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 --seed -1",
     "error: --seed: '-1' is not " RNG_SEED_WANT},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 --keep-awake never",
     "error: --keep-awake: 'never' is not auto, spin, poll or off"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 --keep-awake-cpu x",
     "error: --keep-awake-cpu: 'x' is not a CPU number"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 --expect-key-env "
     "NO_SUCH_KEY_VAR_9",
     "error: --expect-key-env: environment variable NO_SUCH_KEY_VAR_9 is "
     "unset or empty"},
    {"--lisen 127.0.0.1:0",
     "error: unknown option '--lisen' (did you mean --listen?)"},
    {"--listen 127.0.0.1:0 --fualt=html",
     "error: unknown option '--fualt' (did you mean --fault?)"},
    {"--listen 127.0.0.1:0 --qqqqqqqq", "error: unknown option '--qqqqqqqq'"},
    {"--listen 127.0.0.1:0 --synthetic", "error: --synthetic needs a value"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 -q=1",
     "error: unknown option '-='"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 --quiet=1",
     "error: --quiet takes no value"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 extra",
     "error: unexpected argument 'extra'"},
    {"--listen 127.0.0.1:0 --synthetic tokens=3 --help --bogus", "help"},
};

static void dump(const struct replay_config *c, char *out, size_t n)
{
    snprintf(out, n,
             "host=%s port=%d synthetic=%d tokens=%lld trace=%s speed=%g "
             "faults=%zu seed=%llu port_file=%s log_sends=%s keep_awake=%d "
             "cpu=%d quiet=%d",
             c->listen_host, c->listen_port, c->synthetic,
             (long long)c->synth.def.tokens,
             c->trace_path ? c->trace_path : "-", c->speed, c->n_faults,
             (unsigned long long)c->seed, c->port_file ? c->port_file : "-",
             c->log_sends_path ? c->log_sends_path : "-", (int)c->keep_awake,
             c->keep_awake_cpu, c->quiet);
}

/* replay_cli_parse on one case (cli_cases.h). */
static int run_case(struct cli_case_io *io)
{
    struct replay_config cfg;
    int rc = replay_cli_parse(io->argc, io->argv, &cfg, io->err, io->errlen);
    dump(&cfg, io->out, io->outlen);
    return rc;
}

int main(void)
{
    size_t n;
    const struct opt_spec *specs = replay_cli_options(&n);
    cli_cases_run(
        "tokentrace-replay", cases, sizeof cases / sizeof cases[0], run_case,
        (struct cli_case_codes){REPLAY_CLI_HELP, 0, REPLAY_CLI_USAGE});
    cli_help_matches("tokentrace-replay", specs, n, replay_cli_help_text(),
                     NULL);
    return CHECK_DONE();
}
