/* replay_cli: tokentrace-replay's command line and --help. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "replay_config.h"
#include "rng.h"
#include "suggest.h"
#include "version.h"

static const char usage_text[] =
    "Usage: tokentrace-replay --listen HOST:PORT [--port-file FILE]\n"
    "         (--synthetic SPEC | --trace FILE [--speed X])\n"
    "         [--fault KIND[:FRACTION][@MODEL]]... [--seed S]\n"
    "         [--log-sends FILE] [--expect-key-env VAR]\n"
    "         [--keep-awake MODE | --no-keep-awake] [--keep-awake-cpu N] [-q]\n"
    "\n"
    "An OpenAI-compatible streaming (SSE) server for testing LLM clients and\n"
    "tokentrace-record: it synthesizes streams with exact timing, or serves\n"
    "the streams of a recorded trace back with their recorded timing.\n"
    "\n"
    "Endpoints (any path prefix, so a base URL such as http://H:P/api works):\n"
    "  POST .../v1/chat/completions   OpenAI chat (chat.completion.chunk)\n"
    "  POST .../v1/completions        OpenAI completions (choices[0].text)\n"
    "  POST .../v1/messages           Anthropic messages (event: ... lines)\n"
    "  POST .../v1/responses          OpenAI Responses (response.* events)\n"
    "  GET  .../v1/models             the models this server knows\n"
    "  GET  /_replay/stats            {\"requests\",\"active_streams\",...}\n"
    "  \"stream\": true gets SSE; otherwise one JSON reply after the whole\n"
    "  generation time. stream_options.include_usage adds the usage chunk.\n"
    "  Replies echo X-Request-Id and add X-Replay-Request-Id: rr-<n>.\n"
    "\n"
    "Options:\n"
    "  --listen HOST:PORT   address to listen on; port 0 picks a free port\n"
    "  --port-file FILE     write the port actually bound (decimal + newline)\n"
    "                       to FILE, atomically, once listening\n"
    "  --synthetic SPEC     synthesize replies; SPEC is comma-separated\n"
    "                       key=value, profiles separated by ';':\n"
    "                         ttft=DUR          time to first token (200ms)\n"
    "                         tpot=DUR          time per output token (20ms)\n"
    "                         tokens=N          output length (128), capped "
    "by\n"
    "                                           the request's max_tokens /\n"
    "                                           max_completion_tokens, at\n"
    "                                           least the request's\n"
    "                                           min_tokens\n"
    "                         jitter=F          each token moves by up to\n"
    "                                           +-F/2 of tpot, seeded (0)\n"
    "                         ttft_per_1k=DUR   extra TTFT per 1000 input\n"
    "                                           tokens (chars/4) (0)\n"
    "                         tokens_per_chunk=N  tokens per SSE event (1)\n"
    "                         keepalive=DUR     \": keep-alive\" comment "
    "every\n"
    "                                           DUR until the first token (0:\n"
    "                                           off; the keepalive fault: "
    "200ms)\n"
    "                         capacity=N        at most N streams decode at\n"
    "                                           once, the rest queue (TTFT\n"
    "                                           grows); 0: unlimited (0)\n"
    "                         batch_tpot=DUR    extra TPOT per other stream\n"
    "                                           decoding when one starts (0)\n"
    "                         cache=N           a prefix cache of N tokens "
    "per\n"
    "                                           model: cached input skips\n"
    "                                           ttft_per_1k; usage reports\n"
    "                                           cached_tokens (0: none)\n"
    "                         count=chars|words how usage counts input\n"
    "                                           tokens: characters / 4\n"
    "                                           (chars), or words and\n"
    "                                           punctuation plus 4 a message\n"
    "                                           and 3 a prompt (words: a\n"
    "                                           tokenizer of its own, for\n"
    "                                           --input-tokens tests)\n"
    "                         align=DUR         the first token waits for\n"
    "                                           the next multiple of DUR on\n"
    "                                           the server's clock: with\n"
    "                                           tpot=DUR every stream sends\n"
    "                                           in phase, as a batching\n"
    "                                           server's steps (0: off)\n"
    "                       DUR is a number with a unit ns, us, ms, s, m\n"
    "                       (minutes) or h (80ms, 1.5s); only 0 needs none,\n"
    "                       at most 1h. A profile starting with model=NAME\n"
    "                       applies to that model only and inherits unset\n"
    "                       keys from the default profile.\n"
    "                       Token i leaves at arrival + TTFT + i*TPOT.\n"
    "  --trace FILE         serve a tokentrace trace: a request for model M\n"
    "                       gets the next recorded request of M (round\n"
    "                       robin; all recorded requests if M is unknown),\n"
    "                       its status, content type and exact chunk bytes\n"
    "                       at their recorded times\n"
    "  --speed X            with --trace: divide recorded delays by X (1)\n"
    "  --fault KIND[:FRACTION][@MODEL]\n"
    "                       misbehave on purpose, for every request, or a\n"
    "                       seeded random FRACTION of them, or only for\n"
    "                       MODEL; repeatable. KIND is one of:\n"
    "                         http-401 http-403 http-404 http-429 http-500\n"
    "                                   error status with error JSON\n"
    "                                   (429 carries Retry-After: 2)\n"
    "                         html      200 text/html web page\n"
    "                         no-stream 200 JSON reply despite stream:true\n"
    "                         reset-mid-stream  TCP RST after 3 chunks\n"
    "                         stall     3 chunks, then silence (left open)\n"
    "                         error-mid-stream  3 chunks, an error event, end\n"
    "                         error-field  3 chunks, then llama.cpp's\n"
    "                                   \"error: {...}\" line and [DONE]\n"
    "                         error-first  no token: at once an \"error:\"\n"
    "                                   line (prompt over the context) and\n"
    "                                   [DONE], as llama.cpp sends it\n"
    "                         response-failed  3 chunks, then\n"
    "                                   response.failed (Responses API; the\n"
    "                                   others: as error-mid-stream)\n"
    "                         error-object  3 chunks, then vLLM's bare\n"
    "                                   {\"object\":\"error\",...} data event\n"
    "                                   and [DONE]\n"
    "                         no-tokens  a whole stream with no text: the\n"
    "                                   finish event, usage 0, [DONE]\n"
    "                         split-utf8  multibyte tokens, each write split\n"
    "                                   inside a character, 3 ms apart\n"
    "                         crlf      \\r\\n line ends in the SSE stream\n"
    "                         role-first  role-only chunk at arrival\n"
    "                         llama-timings  the last chunk carries\n"
    "                                   llama.cpp's \"timings\" (prompt_n,\n"
    "                                   prompt_ms, predicted_n, predicted_ms)\n"
    "                         multi-token-chunks  4 tokens per chunk\n"
    "                         reasoning first half of tokens as reasoning\n"
    "                                   (reasoning_content / thinking /\n"
    "                                   reasoning_summary_text.delta)\n"
    "                         keepalive \": keep-alive\" every 200 ms until\n"
    "                                   the first token\n"
    "                         no-usage  never report usage\n"
    "                         accept-no-answer  read the request, never reply\n"
    "                         headers-only  200 + SSE headers, then nothing\n"
    "                         endless-line  \"data: \" then 64 KiB of line\n"
    "                                   every 10 ms, never a newline\n"
    "                         data-nospace  \"data:{...}\" lines without the\n"
    "                                   space after the colon (valid SSE)\n"
    "                         leaky-headers  echo the request's key in\n"
    "                                   Set-Cookie, x-api-key, api-key,\n"
    "                                   Proxy-Authorization, Authorization\n"
    "                         leaky-body  echo the request's key in the\n"
    "                                   body: error message, error event,\n"
    "                                   token text (split in two writes)\n"
    "                         sse-as-json  the stream under Content-Type:\n"
    "                                   application/json\n"
    "  --seed S             seed of jitter and fault fractions, 0 to\n"
    "                       18446744073709551615 (1)\n"
    "  --log-sends FILE     one TSV line per body write: request id (or -),\n"
    "                       chunk seq from 0, CLOCK_MONOTONIC ns just before\n"
    "                       the write, bytes, cumulative body bytes\n"
    "  --expect-key-env VAR require 'Authorization: Bearer $VAR' (or\n"
    "                       x-api-key on /v1/messages), else 401\n"
    "  --keep-awake MODE    keep the sending loop's CPU out of idle, so\n"
    "                       writes leave on time: spin (the loop and a\n"
    "                       SCHED_IDLE spinner pinned to one CPU; it runs\n"
    "                       only when nothing else wants that CPU), poll\n"
    "                       (the loop never sleeps), off, or auto (default:\n"
    "                       spin unless the load average is at or above the\n"
    "                       CPUs). Off by itself inside a CPU quota (cgroup\n"
    "                       cpu.max)\n"
    "  --no-keep-awake      the same as --keep-awake off\n"
    "  --keep-awake-cpu N   the CPU to pin to (default: the one it starts\n"
    "                       on; give the recorder another)\n"
    "  -q, --quiet          no notes on stderr\n"
    "  -h, --help           this text;  --version  the version\n"
    "\n"
    "Examples:\n"
    "  tokentrace-replay --listen 127.0.0.1:8000 \\\n"
    "      --synthetic 'ttft=200ms,tpot=20ms,tokens=128'\n"
    "  tokentrace-replay --listen 127.0.0.1:0 --port-file port \\\n"
    "      --synthetic 'ttft=80ms,tpot=4ms,ttft_per_1k=30ms;"
    "model=slow,ttft=250ms,tpot=9ms'\n"
    "  tokentrace-replay --listen 127.0.0.1:8000 --synthetic tokens=32 \\\n"
    "      --fault http-429:0.1 --fault reset-mid-stream@flaky-model\n"
    "  tokentrace-replay --listen 127.0.0.1:8000 --trace week48.ttrace "
    "--speed 2\n"
    "  curl -sN http://127.0.0.1:8000/v1/chat/completions -d \\\n"
    "      '{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\","
    "\"content\":\"hi\"}]}'\n"
    "\n"
    "SIGINT/SIGTERM stop it cleanly (exit 0). Exit 2: usage error; 1: "
    "failure.\n";

enum {
    OPT_LISTEN = 256,
    OPT_PORT_FILE,
    OPT_SYNTHETIC,
    OPT_TRACE,
    OPT_SPEED,
    OPT_FAULT,
    OPT_SEED,
    OPT_LOG_SENDS,
    OPT_EXPECT_KEY_ENV,
    OPT_KEEP_AWAKE,
    OPT_NO_KEEP_AWAKE,
    OPT_KEEP_AWAKE_CPU,
    OPT_VERSION,
};

/* Prints a one-line usage error; returns 2 for the caller to pass on. */
static int usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    char msg[768];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    log_error("%s (see --help)", msg);
    return 2;
}

/* A usage error for the unknown option arg, naming the closest long option
 * of opts (ended by a NULL name) when it looks like a typo of it. */
static int unknown_option(const struct option *opts, const char *arg)
{
    char word[SUGGEST_MAX_LEN + 1], names[64][32];
    const char *cands[64], *near = NULL, *eq = strchr(arg, '=');
    size_t n = 0;
    for (; n < 64 && opts[n].name; n++) {
        snprintf(names[n], sizeof names[n], "--%s", opts[n].name);
        cands[n] = names[n];
    }
    snprintf(word, sizeof word, "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg),
             arg);
    if (arg[0] == '-' && arg[1] == '-')
        near = suggest_closest(word, cands, n);
    if (near)
        return usage_error("unknown option '%s' (did you mean %s?)", arg, near);
    return usage_error("unknown option '%s'", arg);
}

/* Splits HOST:PORT ([v6]:PORT too) into cfg. Returns 0 or -1. */
static int parse_listen(const char *text, struct replay_config *cfg)
{
    const char *colon = strrchr(text, ':');
    const char *host = text;
    size_t host_len;
    char *end = NULL;
    long port;

    if (colon == NULL || colon[1] == '\0')
        return -1;
    host_len = (size_t)(colon - text);
    if (host_len >= 2 && text[0] == '[' && text[host_len - 1] == ']') {
        host++;
        host_len -= 2;
    }
    if (host_len == 0 || host_len >= sizeof(cfg->listen_host))
        return -1;
    errno = 0;
    port = strtol(colon + 1, &end, 10);
    if (errno != 0 || *end != '\0' || port < 0 || port > 65535)
        return -1;
    memcpy(cfg->listen_host, host, host_len);
    cfg->listen_host[host_len] = '\0';
    cfg->listen_port = (int)port;
    return 0;
}

/* Applies one option. Returns 0, or 2 on a usage error. */
static int apply_option(int opt, const char *arg, struct replay_config *cfg,
                        int *have_listen, int *have_speed)
{
    char err[512];
    char *end = NULL;

    switch (opt) {
    case OPT_LISTEN:
        if (parse_listen(arg, cfg) != 0)
            return usage_error("--listen wants HOST:PORT, got '%s'", arg);
        *have_listen = 1;
        return 0;
    case OPT_PORT_FILE:
        cfg->port_file = arg;
        return 0;
    case OPT_SYNTHETIC:
        if (synth_spec_parse(arg, &cfg->synth, err, sizeof(err)) != 0)
            return usage_error("--synthetic: %s", err);
        cfg->synthetic = true;
        return 0;
    case OPT_TRACE:
        cfg->trace_path = arg;
        return 0;
    case OPT_SPEED:
        errno = 0;
        cfg->speed = strtod(arg, &end);
        if (errno != 0 || end == arg || *end != '\0' || !isfinite(cfg->speed) ||
            cfg->speed <= 0 || cfg->speed > 1e6)
            return usage_error("--speed wants a number > 0, got '%s'", arg);
        *have_speed = 1;
        return 0;
    case OPT_FAULT:
        if (cfg->n_faults == REPLAY_MAX_FAULTS)
            return usage_error("too many --fault options");
        if (replay_fault_parse(arg, &cfg->faults[cfg->n_faults], err,
                               sizeof(err)) != 0)
            return usage_error("--fault: %s", err);
        cfg->n_faults++;
        return 0;
    case OPT_SEED:
        if (rng_seed_parse(arg, &cfg->seed) != 0)
            return usage_error("--seed: '%s' is not " RNG_SEED_WANT, arg);
        return 0;
    case OPT_LOG_SENDS:
        cfg->log_sends_path = arg;
        return 0;
    case OPT_EXPECT_KEY_ENV:
        cfg->key_env = arg;
        return 0;
    case OPT_KEEP_AWAKE:
        if (keep_awake_parse_mode(arg, &cfg->keep_awake) != 0)
            return usage_error(
                "--keep-awake: '%s' is not auto, spin, poll or off", arg);
        return 0;
    case OPT_NO_KEEP_AWAKE:
        cfg->keep_awake = KEEP_AWAKE_OFF;
        return 0;
    case OPT_KEEP_AWAKE_CPU: {
        long cpu;
        errno = 0;
        cpu = strtol(arg, &end, 10);
        if (errno != 0 || end == arg || *end != '\0' || cpu < 0 || cpu > 4095)
            return usage_error("--keep-awake-cpu: '%s' is not a CPU number",
                               arg);
        cfg->keep_awake_cpu = (int)cpu;
        return 0;
    }
    case 'q':
        cfg->quiet = true;
        return 0;
    }
    return 2;
}

int replay_cli_parse(int argc, char **argv, struct replay_config *cfg)
{
    static const struct option opts[] = {
        {"listen", required_argument, NULL, OPT_LISTEN},
        {"port-file", required_argument, NULL, OPT_PORT_FILE},
        {"synthetic", required_argument, NULL, OPT_SYNTHETIC},
        {"trace", required_argument, NULL, OPT_TRACE},
        {"speed", required_argument, NULL, OPT_SPEED},
        {"fault", required_argument, NULL, OPT_FAULT},
        {"seed", required_argument, NULL, OPT_SEED},
        {"log-sends", required_argument, NULL, OPT_LOG_SENDS},
        {"expect-key-env", required_argument, NULL, OPT_EXPECT_KEY_ENV},
        {"keep-awake", required_argument, NULL, OPT_KEEP_AWAKE},
        {"no-keep-awake", no_argument, NULL, OPT_NO_KEEP_AWAKE},
        {"keep-awake-cpu", required_argument, NULL, OPT_KEEP_AWAKE_CPU},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int have_listen = 0, have_speed = 0, opt, rc;

    memset(cfg, 0, sizeof(*cfg));
    synth_spec_defaults(&cfg->synth);
    cfg->speed = 1.0;
    cfg->seed = 1;
    cfg->keep_awake = KEEP_AWAKE_AUTO;
    cfg->keep_awake_cpu = -1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":qh", opts, NULL)) != -1) {
        if (opt == 'h') {
            fputs(usage_text, stdout);
            return 1;
        }
        if (opt == OPT_VERSION) {
            version_print(stdout, "tokentrace-replay");
            return 1;
        }
        if (opt == ':')
            return usage_error("option %s needs a value", argv[optind - 1]);
        if (opt == '?')
            return unknown_option(opts, argv[optind - 1]);
        rc = apply_option(opt, optarg, cfg, &have_listen, &have_speed);
        if (rc != 0)
            return rc;
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    if (!have_listen)
        return usage_error("--listen HOST:PORT is required");
    if (cfg->synthetic == (cfg->trace_path != NULL))
        return usage_error("give exactly one of --synthetic SPEC and "
                           "--trace FILE");
    if (have_speed && cfg->trace_path == NULL)
        return usage_error("--speed only applies to --trace");
    if (cfg->key_env != NULL) {
        cfg->expected_key = getenv(cfg->key_env);
        if (cfg->expected_key == NULL || cfg->expected_key[0] == '\0')
            return usage_error("--expect-key-env: environment variable %s "
                               "is unset or empty",
                               cfg->key_env);
    }
    return 0;
}
