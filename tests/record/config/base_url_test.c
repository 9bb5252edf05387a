/* base_url_test: base URL normalization, table-driven. */
#include <string.h>

#include "base_url.h"
#include "check.h"

struct url_case {
    const char *in;
    const char *api_path;
    int rc;
    const char *endpoint; /* on success */
    const char *url;      /* on success */
    const char *message;  /* substring of the message ("" = empty) */
};

#define CHAT "/v1/chat/completions"
#define COMP "/v1/completions"
#define MSGS "/v1/messages"

static const struct url_case cases[] = {
    /* unchanged */
    {"https://gateway.example/api", CHAT, BASE_URL_OK,
     "https://gateway.example/api", "https://gateway.example/api" CHAT, ""},
    {"http://127.0.0.1:8080", COMP, BASE_URL_OK, "http://127.0.0.1:8080",
     "http://127.0.0.1:8080" COMP, ""},
    {"https://gateway.example", MSGS, BASE_URL_OK, "https://gateway.example",
     "https://gateway.example" MSGS, ""},
    /* trailing slashes are removed with a note */
    {"https://gateway.example/api/", CHAT, BASE_URL_OK,
     "https://gateway.example/api", "https://gateway.example/api" CHAT,
     "trailing slash"},
    {"https://gateway.example///", CHAT, BASE_URL_OK, "https://gateway.example",
     "https://gateway.example" CHAT, "trailing slash"},
    /* surrounding whitespace (pasted from a config file) */
    {"  https://gateway.example/api\n", CHAT, BASE_URL_OK,
     "https://gateway.example/api", "https://gateway.example/api" CHAT,
     "spaces"},
    /* the scheme is lower-cased */
    {"HTTPS://Gateway.example/api", CHAT, BASE_URL_OK,
     "https://Gateway.example/api", "https://Gateway.example/api" CHAT, ""},
    /* a base that already ends in /v1 gets no second /v1 */
    {"https://api.openai.com/v1", CHAT, BASE_URL_OK,
     "https://api.openai.com/v1", "https://api.openai.com/v1/chat/completions",
     ""},
    {"https://api.openai.com/v1/", MSGS, BASE_URL_OK,
     "https://api.openai.com/v1", "https://api.openai.com/v1/messages",
     "trailing slash"},
    /* a pasted full endpoint is cut back to the base */
    {"https://gateway.example/api/v1/chat/completions", CHAT, BASE_URL_OK,
     "https://gateway.example/api", "https://gateway.example/api" CHAT,
     "API path"},
    {"https://api.openai.com/v1/chat/completions/", CHAT, BASE_URL_OK,
     "https://api.openai.com", "https://api.openai.com" CHAT, "API path"},
    {"https://gateway.example/v1/messages", MSGS, BASE_URL_OK,
     "https://gateway.example", "https://gateway.example" MSGS, "API path"},
    /* query strings and fragments are refused, with the corrected URL */
    {"https://gateway.example/api?utm_source=newsletter&utm_medium=mail", CHAT,
     BASE_URL_E_QUERY, NULL, NULL, "Use: https://gateway.example/api"},
    {"https://gateway.example/api/?utm_source=x", CHAT, BASE_URL_E_QUERY, NULL,
     NULL, "Use: https://gateway.example/api"},
    {"https://gateway.example/api#docs", CHAT, BASE_URL_E_QUERY, NULL, NULL,
     "Use: https://gateway.example/api"},
    {"https://gateway.example?x=1", CHAT, BASE_URL_E_QUERY, NULL, NULL,
     "Use: https://gateway.example"},
    /* other refusals */
    {"", CHAT, BASE_URL_E_EMPTY, NULL, NULL, "empty"},
    {"   ", CHAT, BASE_URL_E_EMPTY, NULL, NULL, "empty"},
    {"gateway.example/api", CHAT, BASE_URL_E_SCHEME, NULL, NULL,
     "did you mean https://gateway.example/api"},
    {"ftp://gateway.example", CHAT, BASE_URL_E_SCHEME, NULL, NULL,
     "http:// or https://"},
    {"https://", CHAT, BASE_URL_E_HOST, NULL, NULL, "no host"},
    {"https:///api", CHAT, BASE_URL_E_HOST, NULL, NULL, "no host"},
    {"https://user:secret@gateway.example/api", CHAT, BASE_URL_E_USERINFO, NULL,
     NULL, "https://gateway.example/api"},
    {"https://gateway.example/my api", CHAT, BASE_URL_E_SPACE, NULL, NULL,
     "space"},
};

int main(void)
{
    size_t i;
    struct base_url out;
    char long_url[BASE_URL_MAX + 16];
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct url_case *c = &cases[i];
        int rc = base_url_normalize(c->in, c->api_path, &out);
        CHECK_MSG(rc == c->rc, "case %zu '%s': rc %d, want %d (%s)", i, c->in,
                  rc, c->rc, out.message);
        if (rc == BASE_URL_OK && c->rc == BASE_URL_OK) {
            CHECK_MSG(strcmp(out.endpoint, c->endpoint) == 0,
                      "case %zu: endpoint '%s', want '%s'", i, out.endpoint,
                      c->endpoint);
            CHECK_MSG(strcmp(out.url, c->url) == 0,
                      "case %zu: url '%s', want '%s'", i, out.url, c->url);
        }
        if (c->message[0] == '\0')
            CHECK_MSG(out.message[0] == '\0',
                      "case %zu: unexpected message "
                      "'%s'",
                      i, out.message);
        else
            CHECK_MSG(strstr(out.message, c->message) != NULL,
                      "case %zu: message '%s' lacks '%s'", i, out.message,
                      c->message);
        /* a key-bearing URL never shows its credentials in the message */
        CHECK_MSG(strstr(out.message, "secret") == NULL,
                  "case %zu: message repeats credentials", i);
    }
    memset(long_url, 'a', sizeof long_url - 1);
    memcpy(long_url, "https://", 8);
    long_url[sizeof long_url - 1] = '\0';
    CHECK(base_url_normalize(long_url, CHAT, &out) == BASE_URL_E_LONG);
    return CHECK_DONE();
}
