/* proxy_cli_test: tokentrace-proxy's command line as data: each line of
 * arguments and the fields it sets or the exact error (record/proxy/
 * proxy_cli.c over common/opt.c); --help and the table name the same
 * flags. */
#include <string.h>

#include "cli_cases.h"
#include "proxy_cli.h"

static const struct cli_case cases[] = {
    {"-u http://h:1",
     "upstream=http://h:1 listen=" PROXY_DEFAULT_LISTEN " api=openai-chat "
     "buffer=1048576 timeout=600 connect=10 force=0 quiet=0 user=0"},
    {"--upstream=http://h:1 --listen 127.0.0.1:0 --port-file p -o t.ttrace -f "
     "-q",
     "listen=127.0.0.1:0 port_file=p output=t.ttrace force=1 quiet=1"},
    {"-u x -fq", "force=1 quiet=1"},
    {"-u x --api anthropic --key-env K --allow-remote --token-env T",
     "api=anthropic key_env=K remote=1 token_env=T"},
    {"-u x --api=openai-responses", "api=openai-responses"},
    {"-u x --client-buffer 65536 --timeout 2m --connect-timeout=500ms",
     "buffer=65536 timeout=120 connect=0.5"},
    {"-u x --no-content --insecure --chunk-time user",
     "no_content=1 insecure=1 user=1"},
    {"-u x --chunk-time=user --chunk-time kernel", "user=0"},
    {"-u x --no-content --content -f --no-force", "no_content=0 force=0"},
    {"--print-cline-settings", "print_cline=1 upstream=-"},
    {"", "error: -u UPSTREAM_BASE_URL is required (https://api.openai.com/v1, "
         "http://host:8000)"},
    {"-u x --allow-remote",
     "error: --allow-remote needs --token-env VAR: a proxy others can reach "
     "must ask for a local token"},
    {"-u x --api openai",
     "error: --api: 'openai' is not one of openai-chat, openai-completions, "
     "anthropic, openai-responses"},
    {"-u x --client-buffer 100",
     "error: --client-buffer: '100' is not a byte count from 4096 to "
     "1073741824"},
    {"-u x --timeout 0",
     "error: --timeout: '0' is not a duration above 0, up to 24h (600s, 2m)"},
    {"-u x --connect-timeout 25h",
     "error: --connect-timeout: '25h' is not a duration above 0, up to 24h "
     "(600s, 2m)"},
    {"-u x --chunk-time soon",
     "error: --chunk-time: 'soon' is not kernel or user"},
    {"-u x --upstrem y",
     "error: unknown option '--upstrem' (did you mean --upstream?)"},
    {"-u x --lsten=1",
     "error: unknown option '--lsten' (did you mean --listen?)"},
    {"-u x -Z", "error: unknown option '-Z'"},
    {"-u", "error: --upstream needs a value"},
    {"-u x --insecure=1", "error: --insecure takes no value"},
    {"-u x extra", "error: unexpected argument 'extra'"},
    {"--help --bogus", "help"},
    {"--version", "version"},
};

static void dump(const struct proxy_config *c, char *out, size_t n)
{
#define S(x) ((x) ? (x) : "-")
    snprintf(out, n,
             "upstream=%s listen=%s port_file=%s output=%s api=%s key_env=%s "
             "token_env=%s remote=%d force=%d no_content=%d insecure=%d "
             "user=%d print_cline=%d quiet=%d buffer=%zu timeout=%g "
             "connect=%g",
             S(c->upstream), S(c->listen), S(c->port_file), S(c->output),
             S(c->api), S(c->key_env), S(c->token_env), c->allow_remote,
             c->force, c->no_content, c->insecure, c->chunk_time_user,
             c->print_cline, c->quiet, c->client_buffer, c->timeout_s,
             c->connect_timeout_s);
#undef S
}

/* proxy_cli_parse on one case (cli_cases.h). */
static int run_case(struct cli_case_io *io)
{
    struct proxy_config cfg;
    int rc = proxy_cli_parse(io->argc, io->argv, &cfg, io->err, io->errlen);
    dump(&cfg, io->out, io->outlen);
    return rc;
}

int main(void)
{
    size_t n;
    const struct opt_spec *specs = proxy_cli_options(&n);
    cli_cases_run("tokentrace-proxy", cases, sizeof cases / sizeof cases[0],
                  run_case,
                  (struct cli_case_codes){PROXY_CLI_HELP, PROXY_CLI_VERSION,
                                          PROXY_CLI_USAGE});
    cli_help_matches("tokentrace-proxy", specs, n, proxy_cli_help_text(), NULL);
    return CHECK_DONE();
}
