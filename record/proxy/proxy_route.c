/* proxy_route: path -> API, base + path -> URL, header pass lists. */
#include "proxy_route.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* True when the path (up to '?' or '#') ends with suffix. */
static bool path_ends(const char *uri, size_t plen, const char *suffix)
{
    size_t n = strlen(suffix);
    return plen >= n && memcmp(uri + plen - n, suffix, n) == 0;
}

const char *proxy_route_api(const char *uri)
{
    size_t n;
    if (!uri)
        return NULL;
    n = strcspn(uri, "?#");
    while (n > 1 && uri[n - 1] == '/')
        n--;
    if (path_ends(uri, n, "/chat/completions"))
        return "openai-chat";
    if (path_ends(uri, n, "/completions"))
        return "openai-completions";
    if (path_ends(uri, n, "/responses"))
        return "openai-responses";
    if (path_ends(uri, n, "/messages"))
        return "anthropic";
    return NULL;
}

int proxy_route_url(const char *base, const char *uri, char *out, size_t cap)
{
    size_t b = strlen(base);
    int n;
    if (!uri || uri[0] != '/')
        return -1;
    while (b > 0 && base[b - 1] == '/')
        b--;
    if (b >= 3 && memcmp(base + b - 3, "/v1", 3) == 0 &&
        (strncmp(uri, "/v1/", 4) == 0 || strcmp(uri, "/v1") == 0 ||
         strncmp(uri, "/v1?", 4) == 0))
        uri += 3;
    n = snprintf(out, cap, "%.*s%s", (int)b, base, uri);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static bool in_list(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcasecmp(name, *list) == 0)
            return true;
    return false;
}

static const char *const hop_by_hop[] = {
    "Connection",
    "Keep-Alive",
    "TE",
    "Trailer",
    "Trailers",
    "Transfer-Encoding",
    "Upgrade",
    "Proxy-Connection",
    "Proxy-Authorization",
    "Proxy-Authenticate",
    NULL,
};

bool proxy_route_request_header(const char *name)
{
    static const char *const own[] = {
        "Host",
        "Content-Length",
        "Expect",
        "Accept-Encoding",
        PROXY_TOKEN_HEADER,
        NULL,
    };
    return !in_list(name, hop_by_hop) && !in_list(name, own);
}

bool proxy_route_response_header(const char *name)
{
    static const char *const own[] = {"Content-Length", NULL};
    return !in_list(name, hop_by_hop) && !in_list(name, own);
}

/* The one table of the headers a client's credential comes in. */
static const char *const credential_headers[] = {
    "Authorization",  "x-api-key",           "api-key",
    "x-goog-api-key", "Proxy-Authorization", NULL,
};

bool proxy_route_credential_header(const char *name)
{
    return in_list(name, credential_headers);
}
