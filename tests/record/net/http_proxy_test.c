/* http_proxy_test: the proxy chosen for a URL from a table of environments,
 * as libcurl 7.88 chooses it: which variable wins for http and https,
 * HTTP_PROXY ignored, "" meaning direct, no_proxy names, domains, addresses
 * and CIDR ranges, --no-proxy, and credentials kept for libcurl but never
 * in the shown form. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "http_proxy.h"

/* The environment of the case being run: "NAME=VALUE" strings. */
static const char *const *env_now;

static const char *fake_getenv(const char *name)
{
    size_t n = strlen(name);
    for (const char *const *e = env_now; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

static const struct {
    const char *url;
    bool no_proxy_flag;
    const char *env[6];
    const char *want_url, *want_shown, *want_from;
} cases[] = {
    {"http://gw.example/v1", false, {NULL}, "", "", ""},
    {"http://gw.example/v1",
     false,
     {"http_proxy=http://p:3128"},
     "http://p:3128",
     "http://p:3128",
     "http_proxy"},
    /* HTTP_PROXY is never read (CGI "Proxy:" header), all_proxy is */
    {"http://gw.example/v1", false, {"HTTP_PROXY=http://bad:1"}, "", "", ""},
    {"http://gw.example/v1",
     false,
     {"HTTP_PROXY=http://bad:1", "all_proxy=socks5://s:1080"},
     "socks5://s:1080",
     "socks5://s:1080",
     "all_proxy"},
    {"https://gw.example/v1",
     false,
     {"HTTPS_PROXY=http://P:8080", "ALL_PROXY=http://a:1"},
     "http://P:8080",
     "http://P:8080",
     "HTTPS_PROXY"},
    {"https://gw.example/v1",
     false,
     {"https_proxy=http://low:1", "HTTPS_PROXY=http://up:1"},
     "http://low:1",
     "http://low:1",
     "https_proxy"},
    /* http_proxy does not apply to https */
    {"https://gw.example/v1", false, {"http_proxy=http://p:3128"}, "", "", ""},
    {"https://gw.example/v1",
     false,
     {"http_proxy=http://p:1", "ALL_PROXY=http://all:2"},
     "http://all:2",
     "http://all:2",
     "ALL_PROXY"},
    /* set to "": direct, and the search stops there (as libcurl) */
    {"https://gw.example/v1",
     false,
     {"https_proxy=", "all_proxy=http://a:1"},
     "",
     "",
     ""},
    /* credentials go to libcurl, not to the shown form */
    {"https://gw.example/v1",
     false,
     {"https_proxy=http://user:s3cr%40t@p.example:3128/"},
     "http://user:s3cr%40t@p.example:3128/",
     "http://p.example:3128/",
     "https_proxy"},
    {"https://gw.example/v1",
     false,
     {"https_proxy=u:pw@p.example:3128"},
     "u:pw@p.example:3128",
     "p.example:3128",
     "https_proxy"},
    /* no_proxy */
    {"https://api.gw.example/v1",
     false,
     {"https_proxy=http://p:1", "no_proxy=localhost,.gw.example"},
     "",
     "",
     "no_proxy"},
    {"https://api.gw.example/v1",
     false,
     {"https_proxy=http://p:1", "NO_PROXY=gw.example"},
     "",
     "",
     "NO_PROXY"},
    {"https://notgw.example/v1",
     false,
     {"https_proxy=http://p:1", "no_proxy=gw.example"},
     "http://p:1",
     "http://p:1",
     "https_proxy"},
    {"http://127.0.0.1:8080/v1",
     false,
     {"http_proxy=http://p:1", "no_proxy=10.0.0.0/8 127.0.0.0/8"},
     "",
     "",
     "no_proxy"},
    {"http://[::1]:8080/v1",
     false,
     {"http_proxy=http://p:1", "no_proxy=::1"},
     "",
     "",
     "no_proxy"},
    {"http://user:pw@HOST.example:80/v1",
     false,
     {"http_proxy=http://p:1", "no_proxy=*"},
     "",
     "",
     "no_proxy"},
    /* --no-proxy wins, and says so only when a proxy was set */
    {"https://gw.example/v1",
     true,
     {"https_proxy=http://p:1"},
     "",
     "",
     "--no-proxy"},
    {"https://gw.example/v1", true, {NULL}, "", "", ""},
};

static const struct {
    const char *host, *list;
    bool exempt;
} exempt_cases[] = {
    {"localhost", "localhost", true},
    {"LOCALHOST", "localhost", true},
    {"a.b.example", "example", true},
    {"a.b.example", ".b.example", true},
    {"a.b.example", "b.example.", true},
    {"ab.example", "b.example", false},
    {"example.com.", "example.com", true},
    {"host", " , host , ", true},
    {"host", "", false},
    {"host", "*,x", false}, /* only a lone "*" means every host */
    {"host", "  *  ", true},
    {"10.1.2.3", "10.0.0.0/8", true},
    {"11.1.2.3", "10.0.0.0/8", false},
    {"10.1.2.3", "10.1.2.3", true},
    {"10.1.2.3", "10.1.2.0/33", false},
    {"192.168.1.7", "192.168.1.0/25", true},
    {"192.168.1.200", "192.168.1.0/25", false},
    {"[fe80::1]", "fe80::/16", true},
    {"fe80::1", "[fe80::1]", true},
    {"10.1.2.3", "10.1.2", false}, /* names are not address prefixes */
};

int main(void)
{
    struct http_proxy_choice c;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        env_now = cases[i].env;
        CHECK(http_proxy_choose(cases[i].url, cases[i].no_proxy_flag,
                                fake_getenv, &c) == 0);
        CHECK_MSG(strcmp(c.url, cases[i].want_url) == 0, "case %zu url '%s'", i,
                  c.url);
        CHECK_MSG(strcmp(c.shown, cases[i].want_shown) == 0,
                  "case %zu shown '%s'", i, c.shown);
        CHECK_MSG(strcmp(c.from, cases[i].want_from) == 0, "case %zu from '%s'",
                  i, c.from);
    }
    for (size_t i = 0; i < sizeof exempt_cases / sizeof exempt_cases[0]; i++)
        CHECK_MSG(
            http_proxy_exempt(exempt_cases[i].host, exempt_cases[i].list) ==
                exempt_cases[i].exempt,
            "exempt case %zu (%s in '%s')", i, exempt_cases[i].host,
            exempt_cases[i].list);
    /* a proxy too long to hold is an error, never a silent direct run */
    {
        static char big[HTTP_PROXY_URL_MAX + 40];
        static const char *env[2];
        memcpy(big, "https_proxy=http://", 19);
        memset(big + 19, 'x', sizeof big - 20);
        env[0] = big;
        env_now = env;
        CHECK(http_proxy_choose("https://gw/", false, fake_getenv, &c) == -1);
    }
    return CHECK_DONE();
}
