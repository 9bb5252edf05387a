/* replay_cli: tokentrace-replay's command line and --help. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "replay_config.h"
#include "rng.h"

static const char help_text[] =
    "usage: tokentrace-replay --listen HOST:PORT --synthetic SPEC [options]\n"
    "       tokentrace-replay --listen HOST:PORT --trace FILE [--speed X] "
    "[options]\n"
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
    "                       spin while it hurts no one, as the recorder's).\n"
    "                       Nothing spins or polls while no stream is open.\n"
    "                       Off by itself inside a CPU quota (cgroup\n"
    "                       cpu.max)\n"
    "  --no-keep-awake      the same as --keep-awake off\n"
    "  --keep-awake-cpu N   the CPU to pin to (default: the one it starts\n"
    "                       on; give the recorder another)\n"
    "  -q, --quiet          no notes on stderr (warnings still print)\n"
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

/* Splits HOST:PORT ([v6]:PORT too) into cfg. Returns 0 or -1. */
static int parse_listen(const char *text, void *base,
                        const struct opt_spec *spec, char *err, size_t errlen)
{
    struct replay_config *cfg = base;
    const char *colon = strrchr(text, ':');
    const char *host = text;
    size_t host_len;
    char *end = NULL;
    long port;

    (void)spec, (void)err, (void)errlen;
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

/* --synthetic SPEC: the profiles (replay_synth_spec.h says why not). */
static int parse_synthetic(const char *v, void *base,
                           const struct opt_spec *spec, char *err,
                           size_t errlen)
{
    struct replay_config *cfg = base;
    char why[512];
    (void)spec;
    if (synth_spec_parse(v, &cfg->synth, why, sizeof why) != 0) {
        snprintf(err, errlen, "--synthetic: %s", why);
        return -1;
    }
    cfg->synthetic = true;
    return 0;
}

/* --fault RULE, repeatable (replay_faults.h says why not). */
static int parse_fault(const char *v, void *base, const struct opt_spec *spec,
                       char *err, size_t errlen)
{
    struct replay_config *cfg = base;
    char why[512];
    (void)spec;
    if (cfg->n_faults == REPLAY_MAX_FAULTS) {
        snprintf(err, errlen, "--fault: at most %d faults", REPLAY_MAX_FAULTS);
        return -1;
    }
    if (replay_fault_parse(v, &cfg->faults[cfg->n_faults], why, sizeof why)) {
        snprintf(err, errlen, "--fault: %s", why);
        return -1;
    }
    cfg->n_faults++;
    return 0;
}

static int parse_seed(const char *v, void *base, const struct opt_spec *spec,
                      char *err, size_t errlen)
{
    (void)spec, (void)err, (void)errlen;
    return rng_seed_parse(v, &((struct replay_config *)base)->seed);
}

static int parse_keep_awake(const char *v, void *base,
                            const struct opt_spec *spec, char *err,
                            size_t errlen)
{
    (void)spec, (void)err, (void)errlen;
    return keep_awake_parse_mode(v,
                                 &((struct replay_config *)base)->keep_awake);
}

/* What replay_cli_parse sees on top of the config. */
struct replay_cli {
    struct replay_config cfg; /* first: the table's offsets are the same */
    bool have_listen, have_speed;
};

#define OPT_BASE struct replay_cli
#define AT(f) OPT_AT(OPT_BASE, cfg.f)
#define GIVEN(f) OPT_GIVEN(struct replay_cli, f)
static const struct opt_spec replay_opts[] = {
    {.name = "listen",
     .kind = OPT_CUSTOM,
     .parse = parse_listen,
     .given = GIVEN(have_listen),
     .want = "HOST:PORT (port 0 to 65535)"},
    OPT_TEXT("port-file", 0, cfg.port_file, NULL),
    OPT_CALL("synthetic", 0, parse_synthetic, NULL),
    OPT_TEXT("trace", 0, cfg.trace_path, NULL),
    {.name = "speed",
     .kind = OPT_DOUBLE,
     .at = AT(speed),
     .lo = 0,
     .hi = 1e6,
     .lo_open = true,
     .given = GIVEN(have_speed),
     .want = "a factor above 0 (2: twice as fast)"},
    OPT_CALL("fault", 0, parse_fault, NULL),
    OPT_CALL("seed", 0, parse_seed, RNG_SEED_WANT),
    OPT_TEXT("log-sends", 0, cfg.log_sends_path, NULL),
    OPT_TEXT("expect-key-env", 0, cfg.key_env, NULL),
    OPT_CALL("keep-awake", 0, parse_keep_awake, "auto, spin, poll or off"),
    {.name = "no-keep-awake",
     .kind = OPT_SET,
     .at = AT(keep_awake),
     .value = KEEP_AWAKE_OFF},
    OPT_COUNT("keep-awake-cpu", 0, cfg.keep_awake_cpu, 0, 4095, "a CPU number"),
    OPT_FLAG("quiet", 'q', cfg.quiet),
    {.name = "help", .short_name = 'h', .kind = OPT_STOP, .value = 1},
    {.name = "version", .kind = OPT_STOP, .value = 3},
};

const struct opt_spec *replay_cli_options(size_t *n)
{
    *n = sizeof replay_opts / sizeof replay_opts[0];
    return replay_opts;
}

const char *replay_cli_help_text(void)
{
    return help_text;
}

/* The flags together, once all are read. */
static int check_replay(const struct replay_cli *c, struct replay_config *cfg,
                        char *err, size_t errlen)
{
    if (!c->have_listen)
        snprintf(err, errlen, "--listen HOST:PORT is required");
    else if (cfg->synthetic == (cfg->trace_path != NULL))
        snprintf(err, errlen,
                 "give exactly one of --synthetic SPEC and --trace FILE");
    else if (c->have_speed && cfg->trace_path == NULL)
        snprintf(err, errlen, "--speed only applies to --trace");
    else if (cfg->key_env != NULL &&
             ((cfg->expected_key = getenv(cfg->key_env)) == NULL ||
              cfg->expected_key[0] == '\0'))
        snprintf(err, errlen,
                 "--expect-key-env: environment variable %s is unset or "
                 "empty",
                 cfg->key_env);
    else
        return REPLAY_CLI_OK;
    return REPLAY_CLI_USAGE;
}

int replay_cli_parse(int argc, char **argv, struct replay_config *cfg,
                     char *err, size_t errlen)
{
    struct replay_cli c;
    struct opt_table t = {replay_opts,
                          sizeof replay_opts / sizeof replay_opts[0], &c};
    struct opt_parser p = {.tables = &t, .n_tables = 1, .first = 1};
    int rc;

    memset(&c, 0, sizeof c);
    synth_spec_defaults(&c.cfg.synth);
    c.cfg.speed = 1.0;
    c.cfg.seed = 1;
    c.cfg.keep_awake = KEEP_AWAKE_AUTO;
    c.cfg.keep_awake_cpu = -1;
    rc = opt_parse(&p, argc, argv, err, errlen);
    if (rc == OPT_OK)
        rc = check_replay(&c, &c.cfg, err, errlen);
    else if (rc == OPT_ERROR)
        rc = REPLAY_CLI_USAGE;
    *cfg = c.cfg;
    return rc;
}
