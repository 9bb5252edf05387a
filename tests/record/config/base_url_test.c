/* base_url_test: base URL normalization, and the key hidden from what is
 * shown of a URL that holds it, table-driven. */
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

/* A URL with a key in it: the request goes to the URL as given, the
 * shown forms and the message have the key as [redacted]. */
struct key_case {
    const char *in;
    const char *key; /* the run's key, NULL: none */
    int rc;
    const char *shown_endpoint; /* on success */
    const char *message;        /* substring of the message ("" = empty) */
};

#define SKP "sk-proj-ABCDEFGHIJKLMNOP0123"
#define HEX "Z9a8B7c6D5e4F3g2h1"

static const struct key_case key_cases[] = {
    /* a key-looking path segment, with and without the key known */
    {"https://gw.example/" SKP "/api/", NULL, BASE_URL_OK,
     "https://gw.example/[redacted]/api", "trailing slash"},
    {"https://gw.example/" SKP "/api", SKP, BASE_URL_OK,
     "https://gw.example/[redacted]/api", ""},
    {"https://gw.example/sk-ant-api03-ABCDEFGHIJKLMNOP/v1/chat/completions",
     NULL, BASE_URL_OK, "https://gw.example/[redacted]",
     "using the base https://gw.example/[redacted]"},
    /* a key that looks like nothing: hidden when it is the run's key */
    {"https://gw.example/" HEX "/v1/", HEX, BASE_URL_OK,
     "https://gw.example/[redacted]/v1", "trailing slash"},
    {"https://gw.example/" HEX "/v1", NULL, BASE_URL_OK,
     "https://gw.example/" HEX "/v1", ""},
    /* ids, hosts and short names that only resemble keys stay */
    {"https://gateway.ai.cloudflare.com/v1/0123456789abcdef0123456789abcdef/"
     "gw/openai",
     NULL, BASE_URL_OK,
     "https://gateway.ai.cloudflare.com/v1/0123456789abcdef0123456789abcdef/"
     "gw/openai",
     ""},
    {"https://sk-gw-01.example.com/v1", NULL, BASE_URL_OK,
     "https://sk-gw-01.example.com/v1", ""},
    {"https://gw.example/sk-learn/v1", NULL, BASE_URL_OK,
     "https://gw.example/sk-learn/v1", ""},
    /* refusals that quote the URL */
    {"https://gw.example/" SKP "/api?x=1", NULL, BASE_URL_E_QUERY, NULL,
     "Use: https://gw.example/[redacted]/api"},
    {"https://gw.example/" HEX "/api#x", HEX, BASE_URL_E_QUERY, NULL,
     "Use: https://gw.example/[redacted]/api"},
    {"gw.example/" SKP, NULL, BASE_URL_E_SCHEME, NULL,
     "did you mean https://gw.example/[redacted]"},
    {SKP, NULL, BASE_URL_E_SCHEME, NULL, "the base URL '[redacted]'"},
    {HEX, HEX, BASE_URL_E_SCHEME, NULL, "https://[redacted] ?"},
    {"https://gw.example/my api/" SKP, NULL, BASE_URL_E_SPACE, NULL, "space"},
    {"ftp://gw.example/" HEX, HEX, BASE_URL_E_SCHEME, NULL,
     "'ftp://gw.example/[redacted]'"},
};

/* Each key case: the raw URL kept for the request, the key nowhere in
 * what is shown. */
static void test_keys(void)
{
    size_t i;
    struct base_url out;
    for (i = 0; i < sizeof key_cases / sizeof key_cases[0]; i++) {
        const struct key_case *c = &key_cases[i];
        int rc = base_url_normalize(c->in, CHAT, c->key, &out);
        CHECK_MSG(rc == c->rc, "key case %zu: rc %d, want %d (%s)", i, rc,
                  c->rc, out.message);
        if (rc == BASE_URL_OK && c->rc == BASE_URL_OK) {
            size_t n = strlen(c->shown_endpoint);
            CHECK_MSG(strcmp(out.shown_endpoint, c->shown_endpoint) == 0,
                      "key case %zu: shown '%s', want '%s'", i,
                      out.shown_endpoint, c->shown_endpoint);
            CHECK_MSG(strncmp(out.shown_url, c->shown_endpoint, n) == 0 &&
                          (strcmp(out.shown_url + n, CHAT) == 0 ||
                           strcmp(out.shown_url + n, "/chat/completions") == 0),
                      "key case %zu: shown url '%s'", i, out.shown_url);
            CHECK_MSG(strncmp(out.endpoint, c->in, strlen(out.endpoint)) == 0,
                      "key case %zu: endpoint '%s' is not the URL given", i,
                      out.endpoint);
        }
        if (c->message[0] == '\0')
            CHECK_MSG(out.message[0] == '\0', "key case %zu: message '%s'", i,
                      out.message);
        else
            CHECK_MSG(strstr(out.message, c->message) != NULL,
                      "key case %zu: message '%s' lacks '%s'", i, out.message,
                      c->message);
        CHECK_MSG(!strstr(out.message, "ABCDEFGH") &&
                      !strstr(out.message, "Z9a8B7") &&
                      !strstr(out.shown_endpoint, "ABCDEFGH") &&
                      !strstr(out.shown_url, "ABCDEFGH") &&
                      (!c->key || !strstr(out.shown_url, c->key)),
                  "key case %zu: the key is shown: %s | %s", i, out.message,
                  out.shown_url);
    }
}

/* Which hosts are this machine (no no-key warning for them). */
static const struct {
    const char *url;
    bool loopback;
} loopback_cases[] = {
    {"http://127.0.0.1:8080", true},
    {"http://127.1.2.3/v1", true},
    {"http://localhost:11434/v1", true},
    {"http://LOCALHOST", true},
    {"http://api.localhost:8000", true},
    {"http://[::1]:8080/v1", true},
    {"http://user@127.0.0.1:9", true},
    {"https://api.openai.com/v1", false},
    {"http://127.0.0.1.example.com", false},
    {"http://10.0.0.1:8000", false},
    {"http://[::2]:80", false},
    {"http://notlocalhost", false},
    {"127.0.0.1", false},
};

int main(void)
{
    size_t i;
    struct base_url out;
    for (i = 0; i < sizeof loopback_cases / sizeof loopback_cases[0]; i++)
        CHECK_MSG(base_url_is_loopback(loopback_cases[i].url) ==
                      loopback_cases[i].loopback,
                  "loopback %s", loopback_cases[i].url);
    char long_url[BASE_URL_MAX + 16];
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct url_case *c = &cases[i];
        int rc = base_url_normalize(c->in, c->api_path, NULL, &out);
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
    CHECK(base_url_normalize(long_url, CHAT, NULL, &out) == BASE_URL_E_LONG);
    test_keys();
    return CHECK_DONE();
}
