/* proxy_rules_test: tokentrace-proxy's pure rules, table-driven: the API
 * of a path, the upstream URL, the headers passed each way, the listen
 * address and loopback rule, credentials and the local token, and the
 * drain ring that says which chunks have left for the client. */
#include <stdio.h>
#include <string.h>

#include <sys/queue.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "check.h"
#include "proxy_access.h"
#include "proxy_check.h"
#include "proxy_drain.h"
#include "proxy_route.h"

static void test_api(void)
{
    static const struct {
        const char *uri, *api;
    } cases[] = {
        {"/v1/chat/completions", "openai-chat"},
        {"/api/v1/chat/completions?x=1", "openai-chat"},
        {"/chat/completions/", "openai-chat"},
        {"/v1/completions", "openai-completions"},
        {"/v1/responses", "openai-responses"},
        {"/v1/messages", "anthropic"},
        {"/anthropic/v1/messages#f", "anthropic"},
        {"/v1/models", NULL},
        {"/v1/messagesx", NULL},
        {"/", NULL},
        {"", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *got = proxy_route_api(cases[i].uri);
        CHECK_MSG((got == NULL && cases[i].api == NULL) ||
                      (got && cases[i].api && strcmp(got, cases[i].api) == 0),
                  "%s -> %s", cases[i].uri, got ? got : "NULL");
    }
    CHECK(proxy_route_api(NULL) == NULL);
}

static void test_url(void)
{
    static const struct {
        const char *base, *uri, *want;
    } cases[] = {
        {"http://h:1", "/v1/chat/completions",
         "http://h:1/v1/chat/completions"},
        {"http://h:1/", "/v1/messages", "http://h:1/v1/messages"},
        {"https://gw/v1", "/v1/chat/completions",
         "https://gw/v1/chat/completions"},
        {"https://gw/v1/", "/v1?q", "https://gw/v1?q"},
        {"https://gw/v1", "/chat/completions",
         "https://gw/v1/chat/completions"},
        {"https://gw/openai", "/v1/models", "https://gw/openai/v1/models"},
        {"https://gw/v1", "/v1x", "https://gw/v1/v1x"},
    };
    char out[256];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        CHECK(proxy_route_url(cases[i].base, cases[i].uri, out, sizeof out) ==
              0);
        CHECK_MSG(strcmp(out, cases[i].want) == 0, "%s + %s -> %s",
                  cases[i].base, cases[i].uri, out);
    }
    CHECK(proxy_route_url("http://h", "v1", out, sizeof out) == -1);
    CHECK(proxy_route_url("http://h", "/abcdef", out, 10) == -1);
}

static void test_headers(void)
{
    static const char *const pass[] = {"Content-Type", "Authorization",
                                       "x-api-key",    "anthropic-version",
                                       "User-Agent",   "X-Request-Id"};
    static const char *const drop[] = {"Connection",
                                       "keep-alive",
                                       "Transfer-Encoding",
                                       "Host",
                                       "content-length",
                                       "Expect",
                                       "Accept-Encoding",
                                       "Upgrade",
                                       "Proxy-Authorization",
                                       "x-tokentrace-token",
                                       "TE"};
    for (size_t i = 0; i < sizeof pass / sizeof *pass; i++)
        CHECK_MSG(proxy_route_request_header(pass[i]), "%s", pass[i]);
    for (size_t i = 0; i < sizeof drop / sizeof *drop; i++)
        CHECK_MSG(!proxy_route_request_header(drop[i]), "%s", drop[i]);
    CHECK(proxy_route_response_header("Content-Type"));
    CHECK(proxy_route_response_header("Retry-After"));
    CHECK(proxy_route_response_header("Set-Cookie")); /* the client's */
    CHECK(!proxy_route_response_header("Content-Length"));
    CHECK(!proxy_route_response_header("transfer-encoding"));
    CHECK(!proxy_route_response_header("Connection"));
    CHECK(proxy_route_credential_header("authorization"));
    CHECK(proxy_route_credential_header("X-API-Key"));
    CHECK(!proxy_route_credential_header("Content-Type"));
}

static void test_access(void)
{
    static const struct {
        const char *listen, *host;
        int port; /* -1: refused */
        int loopback;
    } cases[] = {
        {"127.0.0.1:8088", "127.0.0.1", 8088, 1},
        {"localhost:0", "localhost", 0, 1},
        {"[::1]:9", "::1", 9, 1},
        {"127.3.2.1:1", "127.3.2.1", 1, 1},
        {"0.0.0.0:80", "0.0.0.0", 80, 0},
        {"192.168.1.5:80", "192.168.1.5", 80, 0},
        {"[::]:80", "::", 80, 0},
        {"127.0.0.1", "", -1, 0},
        {":80", "", -1, 0},
        {"h:", "", -1, 0},
        {"h:70000", "", -1, 0},
        {"h:-1", "", -1, 0},
        {"h:1x", "", -1, 0},
        {"[::1:80", "", -1, 0},
    };
    char host[64];
    unsigned port;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int rc = proxy_access_listen(cases[i].listen, host, sizeof host, &port);
        if (cases[i].port < 0) {
            CHECK_MSG(rc == -1, "%s accepted", cases[i].listen);
            continue;
        }
        CHECK_MSG(rc == 0 && strcmp(host, cases[i].host) == 0 &&
                      port == (unsigned)cases[i].port,
                  "%s -> %s %u", cases[i].listen, host, port);
        CHECK_MSG(proxy_access_loopback(host) == (cases[i].loopback != 0),
                  "%s loopback", host);
    }
    {
        size_t n = 0;
        const char *c = proxy_access_credential(" Bearer  sk-abc ", &n);
        CHECK(c && n == 6 && memcmp(c, "sk-abc", 6) == 0);
        c = proxy_access_credential("sk-xyz", &n);
        CHECK(c && n == 6 && memcmp(c, "sk-xyz", 6) == 0);
        CHECK(proxy_access_credential("Bearer ", &n) == NULL);
        CHECK(proxy_access_credential(NULL, &n) == NULL);
    }
    CHECK(proxy_access_token_ok("tok-123", 7, "tok-123"));
    CHECK(!proxy_access_token_ok("tok-124", 7, "tok-123"));
    CHECK(!proxy_access_token_ok("tok-12", 6, "tok-123"));
    CHECK(!proxy_access_token_ok("tok-1234", 8, "tok-123"));
    CHECK(!proxy_access_token_ok("", 0, ""));
    CHECK(!proxy_access_token_ok(NULL, 0, "x"));
}

static void test_relay(void)
{
    struct proxy_drain r;
    struct proxy_drain_mark m;
    size_t i;
    proxy_drain_init(&r);
    CHECK(!proxy_drain_pop(&r, &m));
    /* 10 header bytes queued, then chunks of 5, 7 and 3 bytes */
    CHECK(proxy_drain_push(&r, 10 + 5, 100) == 0);
    CHECK(proxy_drain_push(&r, 10 + 12, 200) == 0);
    CHECK(proxy_drain_push(&r, 10 + 15, 300) == 0);
    proxy_drain_drained(&r, 14);
    CHECK(!proxy_drain_pop(&r, &m)); /* one byte of the first still queued */
    proxy_drain_drained(&r, 1);
    CHECK(proxy_drain_pop(&r, &m) && m.chunk == 0 && m.recv_ns == 100);
    CHECK(!proxy_drain_pop(&r, &m));
    proxy_drain_drained(&r, 10);
    CHECK(proxy_drain_pop(&r, &m) && m.chunk == 1 && m.recv_ns == 200);
    CHECK(proxy_drain_pop(&r, &m) && m.chunk == 2 && m.recv_ns == 300);
    CHECK(!proxy_drain_pop(&r, &m) && r.n == 0);
    /* the cap, and wrapping around the ring */
    for (i = 0; i < PROXY_DRAIN_MAX_MARKS; i++)
        CHECK(proxy_drain_push(&r, i + 1, (int64_t)i) == 0);
    CHECK(proxy_drain_full(&r));
    CHECK(proxy_drain_push(&r, 1, 0) == -1);
    proxy_drain_drained(&r, PROXY_DRAIN_MAX_MARKS);
    for (i = 0; i < PROXY_DRAIN_MAX_MARKS; i++)
        CHECK(proxy_drain_pop(&r, &m) && m.chunk == 3 + i);
    CHECK(!proxy_drain_full(&r) && r.n == 0);
    proxy_drain_free(&r);
}

/* The request checks: dot segments, Content-Length, URL length. */
static void test_check(void)
{
    static const struct {
        const char *uri, *cl1, *cl2;
        int status;
    } cases[] = {
        {"/v1/chat/completions", "5", NULL, 0},
        {"/v1/chat/completions?x=../y", NULL, NULL, 0}, /* the query: fine */
        {"/v1/a.b/chat/completions", NULL, NULL, 0},
        {"/v1/.../chat/completions", NULL, NULL, 0},
        {"/../../etc/passwd/chat/completions", NULL, NULL, 400},
        {"/v1/./chat/completions", NULL, NULL, 400},
        {"/v1/%2e%2E/chat/completions", NULL, NULL, 400},
        {"/v1/%2e/chat/completions", NULL, NULL, 400},
        {"/v1/chat/completions/..", NULL, NULL, 400},
        {"/v1/chat/completions", "5, 70", NULL, 400},
        {"/v1/chat/completions", "5", "70", 400},
        {"/v1/chat/completions", "5", "5", 0},
        {"/v1/chat/completions", "", NULL, 400},
        {"v1/chat", NULL, NULL, 400},
    };
    char big[PROXY_MAX_URL + 8];
    struct proxy_check c;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct evkeyvalq h;
        TAILQ_INIT(&h);
        if (cases[i].cl1)
            evhttp_add_header(&h, "Content-Length", cases[i].cl1);
        if (cases[i].cl2)
            evhttp_add_header(&h, "Content-Length", cases[i].cl2);
        c.status = 0;
        if (proxy_check_request(&h, cases[i].uri, "http://u/v1", &c) == 0)
            c.status = 0;
        if (c.status != cases[i].status)
            fprintf(stderr, "case %zu %s: %d\n", i, cases[i].uri, c.status);
        CHECK(c.status == cases[i].status);
        evhttp_clear_headers(&h);
    }
    memset(big, 'a', sizeof big - 1);
    big[0] = '/';
    big[sizeof big - 1] = '\0';
    {
        struct evkeyvalq h;
        TAILQ_INIT(&h);
        CHECK(proxy_check_request(&h, big, "http://u", &c) == -1 &&
              c.status == 414 && c.kind == PROXY_LIMIT_URL);
    }
}

int main(void)
{
    test_check();
    test_api();
    test_url();
    test_headers();
    test_access();
    test_relay();
    CHECK_DONE();
}
