/* sanitize_test: key redaction of command lines and strings, and the
 * selection/redaction of response headers, table-driven. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "resp_headers.h"
#include "sanitize.h"

static const struct {
    const char *in;
    bool secret;
} looks[] = {
    {"sk-test-SECRET123", true},
    {"sk-proj-abcDEF_123-xyz", true},
    {"sk_live_abcdef", true},
    {"token=sk-abc12345", true},
    {"Bearer abc.def.ghi", true},
    {"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc", true},
    {"a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8", true}, /* 36 hex: key-like */
    {"model-a", false},
    {"meta-llama/Llama-3.1-70B-Instruct", false},
    {"gpt-4o-mini", false},
    {"task-sk", false},
    {"https://gateway.example/api", false},
    {"abcdefghijklmnopqrstuvwxyzabcdefghij", false}, /* letters only */
    {"", false},
};

static const struct {
    const char *in;
    const char *key;
    const char *want;
} strings[] = {
    {"note=sk-test-SECRET123", NULL, "note=[redacted]"},
    {"a sk-abc12345 b", NULL, "a [redacted] b"},
    {"{\"api_key\":\"sk-x1234567\"}", NULL, "{\"api_key\":\"[redacted]\"}"},
    {"plain text", NULL, "plain text"},
    {"my-own-key-value!", "own-key-value", "my-[redacted]!"},
    {"abc", "", "abc"},
    {"Authorization: Bearer xyz123", NULL, "Authorization: [redacted]"},
};

/* URLs and messages quoting them: the key and "sk-" segments go, ids
 * and hosts that only resemble keys stay. */
static const struct {
    const char *in;
    const char *key;
    const char *want;
} urls[] = {
    {"https://gw.example/sk-proj-ABCDEFGHIJKLMNOP0123/api", NULL,
     "https://gw.example/[redacted]/api"},
    {"https://gw.example/sk_live_ABCDEFGHIJKLMNOP0123/v1/chat/completions",
     NULL, "https://gw.example/[redacted]/v1/chat/completions"},
    {"https://gw.example/sk-ant-api03-ABCDEFGHIJKLMN/v1", NULL,
     "https://gw.example/[redacted]/v1"},
    {"https://gw.example/Z9a8B7c6D5e4F3g2/v1", "Z9a8B7c6D5e4F3g2",
     "https://gw.example/[redacted]/v1"},
    {"https://gw.example/Z9a8B7c6D5e4F3g2/v1", NULL,
     "https://gw.example/Z9a8B7c6D5e4F3g2/v1"},
    {"https://gw.example/v1/0123456789abcdef0123456789abcdef/openai", NULL,
     "https://gw.example/v1/0123456789abcdef0123456789abcdef/openai"},
    {"https://sk-gw-01.example.com/sk-learn/v1", NULL,
     "https://sk-gw-01.example.com/sk-learn/v1"},
    {"https://gw.example/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc/v1", NULL,
     "https://gw.example/[redacted]/v1"},
    {"the base URL 'sk-proj-ABCDEFGHIJKLMNOP0123' has no scheme; did you mean "
     "https://sk-proj-ABCDEFGHIJKLMNOP0123 ?",
     NULL,
     "the base URL '[redacted]' has no scheme; did you mean https://[redacted] "
     "?"},
    /* credential query values and passwords; other parameters stay */
    {"/v1/chat/completions?key=AIzaQK12345678&alt=sse", NULL,
     "/v1/chat/completions?key=[redacted]&alt=sse"},
    {"https://x.example/v1?api-version=2024-02-01&API-KEY=abc12345678", NULL,
     "https://x.example/v1?api-version=2024-02-01&API-KEY=[redacted]"},
    {"Invalid URL (POST /v1/x?access_token=tok123456789)", NULL,
     "Invalid URL (POST /v1/x?access_token=[redacted])"},
    {"http://user:pw-secret-1@127.0.0.1:9/v1", NULL,
     "http://user:[redacted]@127.0.0.1:9/v1"},
    {"?key=&keyring=1&monkey=2", NULL, "?key=&keyring=1&monkey=2"},
    {"", NULL, ""},
};

/* sanitize_url_secrets: the spans of a request target's credentials. */
static const struct {
    const char *in;
    const char *want[3]; /* the credentials, in order */
} url_secrets[] = {
    {"/v1/chat/completions?key=QK1234567890&api-key=AK1234567890",
     {"QK1234567890", "AK1234567890", NULL}},
    {"/v1/sk-proj-ABCDEFGHIJKLMNOP0123/chat/completions",
     {"sk-proj-ABCDEFGHIJKLMNOP0123", NULL, NULL}},
    {"http://u:pass1234@h/v1?utm_source=x", {"pass1234", NULL, NULL}},
    {"/v1/chat/completions?stream=true", {NULL, NULL, NULL}},
};

/* Each url_secrets case gives its credentials, in order. */
static void check_url_secrets(void)
{
    for (size_t i = 0; i < sizeof url_secrets / sizeof *url_secrets; i++) {
        struct sanitize_span sp[4];
        size_t want = 0, n = sanitize_url_secrets(url_secrets[i].in, sp, 4);
        while (want < 3 && url_secrets[i].want[want])
            want++;
        CHECK_MSG(n == want, "sanitize_url_secrets('%s'): %zu, want %zu",
                  url_secrets[i].in, n, want);
        for (size_t j = 0; j < n && j < want; j++)
            CHECK_MSG(sp[j].len == strlen(url_secrets[i].want[j]) &&
                          memcmp(url_secrets[i].in + sp[j].off,
                                 url_secrets[i].want[j], sp[j].len) == 0,
                      "sanitize_url_secrets('%s') #%zu", url_secrets[i].in, j);
    }
    /* a short out: the count is still all of them */
    struct sanitize_span one;
    CHECK(sanitize_url_secrets(url_secrets[0].in, &one, 1) == 2);
}

static const struct {
    int argc;
    const char *argv[8];
    const char *key;
    const char *want;
} cmdlines[] = {
    {5,
     {"tokentrace-record", "-u", "https://g.example/api", "-m", "m1"},
     NULL,
     "tokentrace-record -u https://g.example/api -m m1"},
    {3, {"rec", "--api-key", "sk-abcdef123"}, NULL, "rec --api-key [redacted]"},
    {2, {"rec", "--api-key=sk-abcdef123"}, NULL, "rec --api-key=[redacted]"},
    {3,
     {"rec", "--api-key-env", "MY_KEY"},
     NULL,
     "rec --api-key-env [redacted]"},
    {3,
     {"rec", "--label", "note=sk-test-SECRET1"},
     NULL,
     "rec --label 'note=[redacted]'"},
    {3, {"rec", "--max-tokens", "64"}, NULL, "rec --max-tokens 64"},
    /* a URL's credentials (--server-metrics http://user:pw@host/metrics) */
    {3,
     {"rec", "--server-metrics", "http://scraper:pw1@h:9/metrics?a=b@c"},
     NULL,
     "rec --server-metrics 'http://[redacted]@h:9/metrics?a=b@c'"},
    {3,
     {"rec", "--access-token", "abc"},
     NULL,
     "rec --access-token [redacted]"},
    {3, {"rec", "--label", "it's here"}, NULL, "rec --label 'it'\\''s here'"},
    {3,
     {"rec", "--extra-body", "{\"a\":1}"},
     NULL,
     "rec --extra-body '{\"a\":1}'"},
    {3,
     {"rec", "--label", "x=hunter2hunter2"},
     "hunter2hunter2",
     "rec --label 'x=[redacted]'"},
};

static void test_headers(void)
{
    static const char *lines[] = {
        "HTTP/1.1 100 Continue\r\n",
        "X-Junk: before\r\n",
        "\r\n",
        "HTTP/1.1 429 Too Many Requests\r\n",
        "Content-Type: application/json; charset=utf-8\r\n",
        "Retry-After: 2\r\n",
        "Set-Cookie: session=abc\r\n",
        "X-RateLimit-Remaining-Requests: 0\r\n",
        "x-api-key: sk-leak\r\n",
        "X-Other: dropped\r\n",
        "X-Request-Id: abcd-1\r\n",
        "\r\n",
    };
    struct resp_headers h;
    size_t i;
    bool saw_cookie = false, saw_key = false, saw_rl = false;
    resp_headers_init(&h);
    for (i = 0; i < sizeof lines / sizeof lines[0]; i++)
        CHECK(resp_headers_line(&h, lines[i], strlen(lines[i])) == 0);
    CHECK(h.status == 429);
    CHECK(strcmp(h.reason, "Too Many Requests") == 0);
    CHECK(strcmp(h.content_type, "application/json") == 0);
    for (i = 0; i < h.n; i++) {
        const char *k = h.kv[i].key, *v = h.kv[i].value;
        CHECK_MSG(strstr(v, "sk-leak") == NULL && strstr(v, "session") == NULL,
                  "secret value kept for %s", k);
        CHECK_MSG(strcmp(k, "x-junk") && strcmp(k, "x-other"),
                  "unselected header %s kept", k);
        if (!strcmp(k, "set-cookie"))
            saw_cookie = !strcmp(v, "[redacted]");
        if (!strcmp(k, "x-api-key"))
            saw_key = !strcmp(v, "[redacted]");
        if (!strcmp(k, "x-ratelimit-remaining-requests"))
            saw_rl = !strcmp(v, "0");
    }
    CHECK(saw_cookie && saw_key && saw_rl);
    CHECK(h.n == 6); /* content-type retry-after set-cookie rl x-api-key rid */
    resp_headers_free(&h);
    resp_headers_init(&h);
    CHECK(resp_headers_line(&h, "HTTP/2 200\r\n", 12) == 0);
    CHECK(h.status == 200 && h.reason[0] == '\0');
    resp_headers_free(&h);
}

int main(void)
{
    size_t i;
    check_url_secrets();
    for (i = 0; i < sizeof looks / sizeof looks[0]; i++)
        CHECK_MSG(sanitize_looks_secret(looks[i].in) == looks[i].secret,
                  "looks_secret('%s') != %d", looks[i].in, looks[i].secret);
    for (i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        char *got = sanitize_string(strings[i].in, strings[i].key);
        CHECK_MSG(got && strcmp(got, strings[i].want) == 0,
                  "sanitize_string('%s') = '%s', want '%s'", strings[i].in,
                  got ? got : "(null)", strings[i].want);
        free(got);
    }
    for (i = 0; i < sizeof urls / sizeof urls[0]; i++) {
        char *got = sanitize_url(urls[i].in, urls[i].key);
        char small[256];
        size_t fit = strlen(urls[i].in) < 12 ? strlen(urls[i].in) + 1 : 12;
        CHECK_MSG(got && strcmp(got, urls[i].want) == 0,
                  "sanitize_url('%s') = '%s', want '%s'", urls[i].in,
                  got ? got : "(null)", urls[i].want);
        free(got);
        /* in place, in its buffer and in one that is too small */
        snprintf(small, sizeof small, "%s", urls[i].in);
        sanitize_url_in(small, sizeof small, urls[i].key);
        CHECK_MSG(strcmp(small, urls[i].want) == 0,
                  "sanitize_url_in('%s') = '%s'", urls[i].in, small);
        snprintf(small, sizeof small, "%s", urls[i].in);
        sanitize_url_in(small, fit, urls[i].key);
        CHECK_MSG(strlen(small) < fit &&
                      strncmp(small, urls[i].want, strlen(small)) == 0,
                  "sanitize_url_in('%s', %zu) = '%s'", urls[i].in, fit, small);
    }
    for (i = 0; i < sizeof cmdlines / sizeof cmdlines[0]; i++) {
        char *got = sanitize_command_line(
            cmdlines[i].argc, (char **)cmdlines[i].argv, cmdlines[i].key);
        CHECK_MSG(got && strcmp(got, cmdlines[i].want) == 0,
                  "command line %zu = '%s', want '%s'", i, got ? got : "(null)",
                  cmdlines[i].want);
        free(got);
    }
    test_headers();
    return CHECK_DONE();
}
