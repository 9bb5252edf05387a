/* proxy_secrets_test: the credentials of one client request, kept to be
 * masked: a bearer key, x-api-key, every cookie value, a key in the URL,
 * the injected key and the local token, in that order; past the room
 * (PROXY_SECRETS - 2 credentials) and over PROXY_SECRET_MAX they are
 * counted as dropped, never cut. A request holds only what it keeps: it
 * allocated 90 KB of copies per request (the heap's bytes in use, from
 * mallinfo2, plain builds only: ASan has its own heap). */
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "proxy_secrets.h"

#if defined(__SANITIZE_ADDRESS__)
#define HEAP_COUNTED 0
#else
#define HEAP_COUNTED 1
#endif

static void headers_init(struct evkeyvalq *h)
{
    h->tqh_first = NULL;
    h->tqh_last = &h->tqh_first;
}

int main(void)
{
    struct evkeyvalq h;
    struct proxy_secrets ps;
    char cookies[2048], *long_key;
    size_t len = 0;

    headers_init(&h);
    evhttp_add_header(&h, "Authorization", "Bearer sk-test-aaaaaaaaaaaaaaaa");
    evhttp_add_header(&h, "x-api-key", "sk-ant-bbbbbbbbbbbbbbbb");
    evhttp_add_header(&h, "Content-Type", "application/json");
    evhttp_add_header(&h, "Cookie", "session=c1c1c1c1c1c1; other=d2d2d2d2");
    {
        size_t before = mallinfo2().uordblks, used;
        CHECK(proxy_secrets_collect(&ps, &h,
                                    "/v1/chat/completions?key=AIzaSyEEEEEEEE",
                                    "sk-inject-ffffffff", "local-token") == 0);
        used = mallinfo2().uordblks - before;
        if (HEAP_COUNTED)
            CHECK_MSG(used < 4096, "%zu heap bytes for 5 short secrets", used);
    }
    CHECK(ps.n == 7);
    CHECK(ps.dropped == 0);
    if (ps.n == 7) {
        CHECK(strcmp(ps.list[0], "sk-test-aaaaaaaaaaaaaaaa") == 0);
        CHECK(strcmp(ps.list[1], "sk-ant-bbbbbbbbbbbbbbbb") == 0);
        CHECK(strcmp(ps.list[2], "c1c1c1c1c1c1") == 0);
        CHECK(strcmp(ps.list[3], "d2d2d2d2") == 0);
        CHECK(strcmp(ps.list[4], "AIzaSyEEEEEEEE") == 0);
        CHECK(strcmp(ps.list[5], "sk-inject-ffffffff") == 0);
        CHECK(strcmp(ps.list[6], "local-token") == 0);
    }
    proxy_secrets_free(&ps);
    proxy_secrets_free(&ps); /* twice: nothing left to free */
    evhttp_clear_headers(&h);

    /* 30 cookies: 22 kept (two places stay for the key and the token),
     * 8 dropped; a credential of 5,000 bytes dropped, not cut */
    for (int i = 0; i < 30; i++)
        len += (size_t)snprintf(cookies + len, sizeof cookies - len,
                                "%sc%d=value-%02d", i ? "; " : "", i, i);
    long_key = malloc(5001);
    memset(long_key, 'k', 5000);
    long_key[5000] = '\0';
    headers_init(&h);
    evhttp_add_header(&h, "Cookie", cookies);
    evhttp_add_header(&h, "x-api-key", long_key);
    CHECK(proxy_secrets_collect(&ps, &h, NULL, "K", "T") == 0);
    CHECK_MSG(ps.n == PROXY_SECRETS, "%zu kept", ps.n);
    CHECK_MSG(ps.dropped == 9, "%zu dropped", ps.dropped);
    CHECK(strcmp(ps.list[0], "value-00") == 0);
    CHECK(strcmp(ps.list[PROXY_SECRETS - 3], "value-21") == 0);
    CHECK(strcmp(ps.list[PROXY_SECRETS - 1], "T") == 0);
    proxy_secrets_free(&ps);
    evhttp_clear_headers(&h);
    free(long_key);
    return CHECK_DONE();
}
