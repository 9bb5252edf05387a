/* proxy_cli: tokentrace-proxy's flags as a table for common/opt, and its
 * --help. */
#include "proxy_cli.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "api_kind.h"
#include "opt.h"

static const char help_text[] =
    "usage: tokentrace-proxy -u URL [--listen HOST:PORT] [-o FILE] [options]\n"
    "       tokentrace-proxy -u URL --listen HOST:PORT --allow-remote "
    "--token-env VAR\n"
    "       tokentrace-proxy --print-cline-settings [--listen HOST:PORT]\n"
    "\n"
    "A recording proxy for coding agents (Cline...): an OpenAI-compatible\n"
    "and Anthropic endpoint that forwards every request to the upstream and\n"
    "streams each response chunk back as it arrives, unchanged, while it\n"
    "records both sides into a tokentrace trace (the request body, the\n"
    "response headers, every chunk with its receive time, and the time each\n"
    "chunk reached the client). `tokentrace-analyze summary FILE` gives the\n"
    "TTFT, TPOT and ITL of the traffic, and the proxy's own added latency.\n"
    "\n"
    "Recorded paths (any prefix; forwarded as UPSTREAM + the client's path,\n"
    "a doubled /v1 removed):\n"
    "  POST .../chat/completions  .../completions  .../responses (OpenAI)\n"
    "  POST .../messages          (Anthropic)\n"
    "  Every other request (GET /v1/models...) is forwarded, not recorded.\n"
    "\n"
    "Sessions: each recorded request gets a session and turn (and, from\n"
    "turn 2, its think time): the client's X-Session-Id (or\n"
    "X-Tokentrace-Session) header names the session; without one, a\n"
    "request whose messages (Responses: input) extend an earlier request's\n"
    "messages and a reply is that session's next turn. `tokentrace-analyze\n"
    "summary FILE --by turn` reads them; `tokentrace-record -w FILE` sends\n"
    "the captured requests again (docs/proxy.md).\n"
    "\n"
    "Options:\n"
    "  -u, --upstream URL   the upstream's base URL (https://api.openai.com,\n"
    "                       http://127.0.0.1:8000/v1); required\n"
    "  --listen HOST:PORT   address to listen on (" PROXY_DEFAULT_LISTEN
    "); port 0\n"
    "                       picks a free one. Loopback only, unless\n"
    "                       --allow-remote\n"
    "  --port-file FILE     write the port actually bound to FILE once\n"
    "                       listening\n"
    "  -o, --output FILE    the trace (tokentrace-proxy-<UTC>.ttrace.zst),\n"
    "                       zstd-compressed whatever its name\n"
    "  --no-compress        write it plain\n"
    "  --max-requests N     record the first N requests, then stop\n"
    "                       recording (still forwarding; said on stderr and\n"
    "                       in the footer): a looping client's capture\n"
    "  --max-bytes B        the same once the bodies and chunks recorded\n"
    "                       reach B bytes (requests in flight finish)\n"
    "  -f, --force          overwrite FILE\n"
    "  --api KIND           the trace header's API (openai-chat); each\n"
    "                       request also records the API of its own path\n"
    "  --key-env VAR        send the key in $VAR upstream (Authorization:\n"
    "                       Bearer, or x-api-key on .../messages) instead of\n"
    "                       the client's own; without it the client's\n"
    "                       Authorization / x-api-key is forwarded. Keys are\n"
    "                       never stored or logged\n"
    "  --allow-remote       listen on a non-loopback address; every request\n"
    "                       must then carry the local token (--token-env)\n"
    "  --token-env VAR      the local token, from $VAR: sent by the client\n"
    "                       as X-Tokentrace-Token, or (with --key-env) as\n"
    "                       its Authorization: Bearer / x-api-key\n"
    "  --client-buffer N    bytes queued for one slow client before the\n"
    "                       upstream read is paused (1048576)\n"
    "  --timeout DUR        per upstream request, total (600s; bare: s)\n"
    "  --connect-timeout DUR  (10s)\n"
    "  --header-timeout DUR a client sends a whole request within DUR of\n"
    "                       connecting or of its last reply, or is closed\n"
    "                       (30s)\n"
    "  --no-content         request bodies not stored in the trace\n"
    "  --chunk-time WHEN    a chunk's time: kernel (default: when its last\n"
    "                       packet reached this host, SO_TIMESTAMPNS; the\n"
    "                       time inside the proxy then counts from there)\n"
    "                       or user (when libcurl handed it over)\n"
    "  --insecure           no TLS verification of the upstream\n"
    "  --print-cline-settings  print the Cline settings that point at this\n"
    "                       proxy, then exit\n"
    "  -q, --quiet          no per-request lines on stderr\n"
    "  -h, --help           this text;  --version  the version\n"
    "\n"
    "A client that disconnects mid-stream cancels its upstream request\n"
    "(recorded as client_cancelled). With no upstream response at all\n"
    "(refused, DNS, timeout before the headers) the client gets a 502 with\n"
    "a one-line JSON error; otherwise always the upstream's status and\n"
    "bytes. docs/proxy.md has the details.\n";

/* --api KIND: an API kind's name (the record also says its own path's). */
static int parse_api(const char *v, void *base, const struct opt_spec *spec,
                     char *err, size_t errlen)
{
    enum api_kind k;
    (void)spec;
    if (api_kind_from_name(v, &k) != 0) {
        snprintf(err, errlen, "--api: '%s' is not one of %s", v,
                 api_kind_names());
        return -1;
    }
    ((struct proxy_config *)base)->api = v;
    return 0;
}

static const char *const chunk_times[] = {"kernel", "user", NULL};

#define OPT_BASE struct proxy_config
#define AT(f) OPT_AT(OPT_BASE, f)
#define SECONDS_WANT "a duration above 0, up to 24h (600s, 2m)"
static const struct opt_spec proxy_opts[] = {
    OPT_TEXT("upstream", 'u', upstream, NULL),
    OPT_TEXT("listen", 0, listen, NULL),
    OPT_TEXT("port-file", 0, port_file, NULL),
    OPT_TEXT("output", 'o', output, NULL),
    OPT_FLAG("force", 'f', force),
    OPT_CALL("api", 0, parse_api, NULL),
    OPT_TEXT("key-env", 0, key_env, NULL),
    OPT_FLAG("allow-remote", 0, allow_remote),
    OPT_TEXT("token-env", 0, token_env, NULL),
    OPT_COUNT("client-buffer", 0, client_buffer, 4096, (uint64_t)1 << 30,
              "a byte count from 4096 to 1073741824"),
    OPT_SECONDS("timeout", timeout_s, 86400, SECONDS_WANT),
    OPT_SECONDS("connect-timeout", connect_timeout_s, 86400, SECONDS_WANT),
    OPT_SECONDS("header-timeout", header_timeout_s, 86400, SECONDS_WANT),
    OPT_FLAG("no-content", 0, no_content),
    OPT_COUNT("max-requests", 0, max_requests, 1, UINT32_MAX,
              "a request count from 1"),
    OPT_COUNT("max-bytes", 0, max_bytes, 1, UINT64_MAX / 2,
              "a byte count from 1"),
    OPT_FLAG("no-compress", 0, no_compress),
    {.name = "chunk-time",
     .kind = OPT_ENUM,
     .at = AT(chunk_time_user),
     .names = chunk_times,
     .is_bool = true},
    OPT_FLAG("insecure", 0, insecure),
    OPT_FLAG("print-cline-settings", 0, print_cline),
    OPT_FLAG("quiet", 'q', quiet),
    {.name = "help",
     .short_name = 'h',
     .kind = OPT_STOP,
     .value = PROXY_CLI_HELP},
    {.name = "version", .kind = OPT_STOP, .value = PROXY_CLI_VERSION},
};

const struct opt_spec *proxy_cli_options(size_t *n)
{
    *n = sizeof proxy_opts / sizeof proxy_opts[0];
    return proxy_opts;
}

const char *proxy_cli_help_text(void)
{
    return help_text;
}

int proxy_cli_parse(int argc, char **argv, struct proxy_config *cfg, char *err,
                    size_t errlen)
{
    struct opt_table t = {proxy_opts, sizeof proxy_opts / sizeof proxy_opts[0],
                          NULL};
    struct opt_parser p = {.tables = &t, .n_tables = 1, .first = 1};
    int rc;
    memset(cfg, 0, sizeof *cfg);
    cfg->listen = PROXY_DEFAULT_LISTEN;
    cfg->api = "openai-chat";
    cfg->client_buffer = PROXY_DEFAULT_CLIENT_BUFFER;
    cfg->timeout_s = 600;
    cfg->connect_timeout_s = 10;
    cfg->header_timeout_s = 30;
    t.base = cfg;
    rc = opt_parse(&p, argc, argv, err, errlen);
    if (rc != OPT_OK)
        return rc == OPT_ERROR ? PROXY_CLI_USAGE : rc;
    if (!cfg->upstream && !cfg->print_cline)
        snprintf(err, errlen,
                 "-u UPSTREAM_BASE_URL is required "
                 "(https://api.openai.com/v1, http://host:8000)");
    else if (cfg->allow_remote && !cfg->token_env)
        snprintf(err, errlen,
                 "--allow-remote needs --token-env VAR: a proxy "
                 "others can reach must ask for a local token");
    else
        return PROXY_CLI_OK;
    return PROXY_CLI_USAGE;
}
