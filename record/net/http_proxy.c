/* http_proxy: the proxy a request URL goes through, from the environment,
 * decided as libcurl 7.88 decides it (lib/url.c detect_proxy and
 * lib/noproxy.c), so it can be named and then set explicitly. */
#include "http_proxy.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Copies the host of url (without brackets for IPv6, lowercase) into
 * host; "" when url has none. */
static void url_host(const char *url, char *host, size_t cap)
{
    const char *p = strstr(url, "://"), *end, *at;
    size_t n;
    p = p ? p + 3 : url;
    end = p + strcspn(p, "/?#");
    at = memchr(p, '@', (size_t)(end - p));
    if (at) /* user:password@ */
        p = at + 1;
    if (*p == '[') {
        const char *close = memchr(p, ']', (size_t)(end - p));
        p++;
        end = close ? close : end;
    } else {
        const char *colon = memchr(p, ':', (size_t)(end - p));
        if (colon)
            end = colon;
    }
    n = (size_t)(end - p);
    if (n >= cap)
        n = cap - 1;
    for (size_t i = 0; i < n; i++)
        host[i] = (char)tolower((unsigned char)p[i]);
    host[n] = '\0';
}

/* The url's scheme, lowercase, into out ("http" when it has none). */
static void url_scheme(const char *url, char *out, size_t cap)
{
    const char *sep = strstr(url, "://");
    size_t n = sep ? (size_t)(sep - url) : 0;
    if (!n || n >= cap) {
        snprintf(out, cap, "http");
        return;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = (char)tolower((unsigned char)url[i]);
    out[n] = '\0';
}

/* Writes proxy without "user:password@" into out. */
static void strip_credentials(const char *proxy, char *out, size_t cap)
{
    const char *sep = strstr(proxy, "://");
    const char *auth = sep ? sep + 3 : proxy;
    const char *end = auth + strcspn(auth, "/?#");
    const char *at = NULL;
    for (const char *c = auth; c < end; c++)
        if (*c == '@')
            at = c; /* the last '@' ends the user info */
    if (!at) {
        snprintf(out, cap, "%s", proxy);
        return;
    }
    snprintf(out, cap, "%.*s%s", (int)(auth - proxy), proxy, at + 1);
}

/* An address of host in bin (4 or 16 bytes): its length, 0 when host is a
 * name. */
static size_t parse_addr(const char *host, unsigned char bin[16])
{
    if (inet_pton(AF_INET, host, bin) == 1)
        return 4;
    if (inet_pton(AF_INET6, host, bin) == 1)
        return 16;
    return 0;
}

/* True when the first bits bits of a and b agree. */
static bool prefix_equal(const unsigned char *a, const unsigned char *b,
                         unsigned bits)
{
    unsigned whole = bits / 8, rest = bits % 8;
    if (memcmp(a, b, whole) != 0)
        return false;
    if (!rest)
        return true;
    unsigned char mask = (unsigned char)(0xffu << (8 - rest));
    return (a[whole] & mask) == (b[whole] & mask);
}

/* True when the no_proxy entry tok (len bytes, no separators) covers the
 * host (addr_len > 0 when it is an address, in addr). */
static bool entry_covers(const char *tok, size_t len, const char *host,
                         const unsigned char *addr, size_t addr_len)
{
    char e[256];
    size_t hlen = strlen(host);
    while (len && *tok == '.') { /* ".example.com" == "example.com" */
        tok++;
        len--;
    }
    while (len && tok[len - 1] == '.')
        len--;
    if (!len || len >= sizeof e)
        return false;
    memcpy(e, tok, len);
    e[len] = '\0';
    if (addr_len) {
        unsigned char net[16];
        char *slash = strchr(e, '/');
        unsigned bits = (unsigned)addr_len * 8;
        if (e[0] == '[' && e[len - 1] == ']') { /* [::1] */
            memmove(e, e + 1, len - 2);
            e[len - 2] = '\0';
        }
        if (slash) {
            char *endp;
            long b;
            *slash = '\0';
            b = strtol(slash + 1, &endp, 10);
            if (*endp || b < 0 || b > (long)bits)
                return false;
            bits = (unsigned)b;
        }
        return parse_addr(e, net) == addr_len && prefix_equal(addr, net, bits);
    }
    if (len == hlen)
        return strcasecmp(e, host) == 0;
    return len < hlen && host[hlen - len - 1] == '.' &&
           strcasecmp(e, host + hlen - len) == 0;
}

bool http_proxy_exempt(const char *host, const char *list)
{
    char h[256];
    unsigned char addr[16];
    size_t addr_len, n;
    const char *p = list;
    if (!list || !host)
        return false;
    while (*p == ' ' || *p == '\t')
        p++;
    n = strlen(p);
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
        n--;
    if (n == 1 && p[0] == '*')
        return true;
    snprintf(h, sizeof h, "%s", host);
    n = strlen(h);
    if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
        memmove(h, h + 1, n - 2);
        h[n - 2] = '\0';
    }
    n = strlen(h);
    while (n && h[n - 1] == '.') /* "example.com." */
        h[--n] = '\0';
    addr_len = parse_addr(h, addr);
    while (*p) {
        size_t len = strcspn(p, ", \t");
        if (len && entry_covers(p, len, h, addr, addr_len))
            return true;
        p += len;
        p += strspn(p, ", \t");
    }
    return false;
}

/* getenv through get, "" and NULL both NULL-safe: returns the value or
 * NULL; *set tells a variable that is set (even to ""). */
static const char *lookup(http_proxy_getenv_fn get, const char *name, bool *set)
{
    const char *v = get(name);
    *set = v != NULL;
    return v;
}

int http_proxy_choose(const char *request_url, bool no_proxy,
                      http_proxy_getenv_fn get, struct http_proxy_choice *out)
{
    char scheme[16], var[32], host[256];
    const char *proxy, *np, *from;
    bool set;
    memset(out, 0, sizeof(*out));
    url_scheme(request_url, scheme, sizeof scheme);
    url_host(request_url, host, sizeof host);
    /* <scheme>_proxy; the upper-case form too, except HTTP_PROXY (which a
     * CGI server sets from a request's "Proxy:" header). */
    snprintf(var, sizeof var, "%s_proxy", scheme);
    from = var;
    proxy = lookup(get, var, &set);
    if (!set && strcmp(scheme, "http") != 0) {
        for (char *c = var; *c; c++)
            *c = (char)toupper((unsigned char)*c);
        proxy = lookup(get, var, &set);
    }
    if (!set) {
        from = "all_proxy";
        proxy = lookup(get, from, &set);
    }
    if (!set) {
        from = "ALL_PROXY";
        proxy = lookup(get, from, &set);
    }
    if (!proxy || !*proxy) /* none, or set to "": direct */
        return 0;
    if (no_proxy) {
        snprintf(out->from, sizeof out->from, "--no-proxy");
        return 0;
    }
    np = lookup(get, "no_proxy", &set);
    if (!set)
        np = lookup(get, "NO_PROXY", &set);
    if (np && http_proxy_exempt(host, np)) {
        snprintf(out->from, sizeof out->from, "%s",
                 get("no_proxy") ? "no_proxy" : "NO_PROXY");
        return 0;
    }
    if (strlen(proxy) >= sizeof out->url)
        return -1;
    snprintf(out->url, sizeof out->url, "%s", proxy);
    strip_credentials(proxy, out->shown, sizeof out->shown);
    snprintf(out->from, sizeof out->from, "%s", from);
    return 0;
}

const char *http_proxy_process(const char *name)
{
    return getenv(name);
}

const char *http_proxy_describe(const struct http_proxy_choice *c, char *buf,
                                size_t cap)
{
    if (c->url[0])
        snprintf(buf, cap, "via proxy %s (from %s)", c->shown, c->from);
    else if (strcmp(c->from, "--no-proxy") == 0)
        snprintf(buf, cap, "direct (--no-proxy)");
    else if (c->from[0])
        snprintf(buf, cap, "direct (the host is in %s)", c->from);
    else if (cap)
        buf[0] = '\0';
    return buf;
}
