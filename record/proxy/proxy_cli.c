/* proxy_cli: getopt_long over tokentrace-proxy's flags, with "did you
 * mean" for a mistyped one. */
#include "proxy_cli.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_kind.h"
#include "duration.h"
#include "suggest.h"
#include "version.h"

static const char usage_text[] =
    "Usage: tokentrace-proxy -u UPSTREAM_BASE_URL [--listen HOST:PORT]\n"
    "         [-o FILE] [--api KIND] [--key-env VAR] [--allow-remote\n"
    "         --token-env VAR] [options]\n"
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
    "  -o, --output FILE    the trace (tokentrace-proxy-<UTC>.ttrace); a\n"
    "                       name ending in .zst is compressed\n"
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

enum {
    OPT_LISTEN = 256,
    OPT_PORT_FILE,
    OPT_API,
    OPT_KEY_ENV,
    OPT_ALLOW_REMOTE,
    OPT_TOKEN_ENV,
    OPT_CLIENT_BUFFER,
    OPT_TIMEOUT,
    OPT_CONNECT_TIMEOUT,
    OPT_NO_CONTENT,
    OPT_CHUNK_TIME,
    OPT_INSECURE,
    OPT_PRINT_CLINE,
    OPT_VERSION,
};

static const struct option opts[] = {
    {"upstream", required_argument, NULL, 'u'},
    {"listen", required_argument, NULL, OPT_LISTEN},
    {"port-file", required_argument, NULL, OPT_PORT_FILE},
    {"output", required_argument, NULL, 'o'},
    {"force", no_argument, NULL, 'f'},
    {"api", required_argument, NULL, OPT_API},
    {"key-env", required_argument, NULL, OPT_KEY_ENV},
    {"allow-remote", no_argument, NULL, OPT_ALLOW_REMOTE},
    {"token-env", required_argument, NULL, OPT_TOKEN_ENV},
    {"client-buffer", required_argument, NULL, OPT_CLIENT_BUFFER},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT},
    {"no-content", no_argument, NULL, OPT_NO_CONTENT},
    {"chunk-time", required_argument, NULL, OPT_CHUNK_TIME},
    {"insecure", no_argument, NULL, OPT_INSECURE},
    {"print-cline-settings", no_argument, NULL, OPT_PRINT_CLINE},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

static int usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("tokentrace-proxy: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\ntry --help\n", stderr);
    return 2;
}

/* An unknown flag, with the closest known one. */
static int unknown_option(const char *arg)
{
    const char *names[sizeof opts / sizeof opts[0]];
    char flags[sizeof opts / sizeof opts[0]][40];
    const char *best;
    size_t i, n = 0;
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)strcspn(arg, "="), arg);
    for (i = 0; opts[i].name; i++) {
        snprintf(flags[i], sizeof flags[i], "--%s", opts[i].name);
        names[n++] = flags[i];
    }
    best = suggest_closest(word, names, n);
    if (best)
        return usage_error("unknown option '%s'; did you mean %s?", word, best);
    return usage_error("unknown option '%s'", word);
}

/* A duration flag in seconds, > 0 and at most a day. */
static int parse_seconds(const char *flag, const char *arg, double *out)
{
    double v;
    if (duration_parse(arg, DURATION_S, DURATION_S, &v) != 0 || !(v > 0) ||
        v > 86400)
        return usage_error("%s wants a duration up to 24h (600s, 2m), got "
                           "'%s'",
                           flag, arg);
    *out = v;
    return 0;
}

static int apply(int opt, const char *arg, struct proxy_config *cfg)
{
    char *end = NULL;
    enum api_kind k;
    unsigned long long n;
    switch (opt) {
    case 'u':
        cfg->upstream = arg;
        return 0;
    case OPT_LISTEN:
        cfg->listen = arg;
        return 0;
    case OPT_PORT_FILE:
        cfg->port_file = arg;
        return 0;
    case 'o':
        cfg->output = arg;
        return 0;
    case 'f':
        cfg->force = true;
        return 0;
    case OPT_API:
        if (api_kind_from_name(arg, &k) != 0 &&
            strcmp(arg, "openai-responses") != 0)
            return usage_error("--api: '%s' is not one of %s, "
                               "openai-responses",
                               arg, api_kind_names());
        cfg->api = arg;
        return 0;
    case OPT_KEY_ENV:
        cfg->key_env = arg;
        return 0;
    case OPT_ALLOW_REMOTE:
        cfg->allow_remote = true;
        return 0;
    case OPT_TOKEN_ENV:
        cfg->token_env = arg;
        return 0;
    case OPT_CLIENT_BUFFER:
        n = strtoull(arg, &end, 10);
        if (end == arg || *end || arg[0] == '-' || n < 4096 ||
            n > ((unsigned long long)1 << 30))
            return usage_error("--client-buffer wants bytes from 4096 to "
                               "1073741824, got '%s'",
                               arg);
        cfg->client_buffer = (size_t)n;
        return 0;
    case OPT_TIMEOUT:
        return parse_seconds("--timeout", arg, &cfg->timeout_s);
    case OPT_CONNECT_TIMEOUT:
        return parse_seconds("--connect-timeout", arg, &cfg->connect_timeout_s);
    case OPT_NO_CONTENT:
        cfg->no_content = true;
        return 0;
    case OPT_CHUNK_TIME:
        if (strcmp(arg, "kernel") != 0 && strcmp(arg, "user") != 0)
            return usage_error("--chunk-time: '%s' is not kernel or user", arg);
        cfg->chunk_time_user = strcmp(arg, "user") == 0;
        return 0;
    case OPT_INSECURE:
        cfg->insecure = true;
        return 0;
    case OPT_PRINT_CLINE:
        cfg->print_cline = true;
        return 0;
    case 'q':
        cfg->quiet = true;
        return 0;
    default:
        return usage_error("unexpected option");
    }
}

int proxy_cli_parse(int argc, char **argv, struct proxy_config *cfg)
{
    int opt, rc;
    memset(cfg, 0, sizeof *cfg);
    cfg->listen = PROXY_DEFAULT_LISTEN;
    cfg->api = "openai-chat";
    cfg->client_buffer = PROXY_DEFAULT_CLIENT_BUFFER;
    cfg->timeout_s = 600;
    cfg->connect_timeout_s = 10;
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":u:o:fqh", opts, NULL)) != -1) {
        if (opt == 'h') {
            fputs(usage_text, stdout);
            return 1;
        }
        if (opt == OPT_VERSION) {
            version_print(stdout, "tokentrace-proxy");
            return 1;
        }
        if (opt == ':')
            return usage_error("option %s needs a value", argv[optind - 1]);
        if (opt == '?')
            return unknown_option(argv[optind - 1]);
        rc = apply(opt, optarg, cfg);
        if (rc)
            return rc;
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    if (!cfg->upstream && !cfg->print_cline)
        return usage_error("-u UPSTREAM_BASE_URL is required "
                           "(https://api.openai.com/v1, http://host:8000)");
    if (cfg->allow_remote && !cfg->token_env)
        return usage_error("--allow-remote needs --token-env VAR: a proxy "
                           "others can reach must ask for a local token");
    return 0;
}
