/* proxy_access: listen address rules and the local token check. */
#include "proxy_access.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base_url.h"

int proxy_access_listen(const char *listen, char *host, size_t cap,
                        unsigned *port)
{
    const char *colon, *h = listen;
    size_t hl;
    char *end = NULL;
    unsigned long p;
    if (!listen || !*listen)
        return -1;
    if (listen[0] == '[') {
        const char *close = strchr(listen, ']');
        if (!close || close[1] != ':')
            return -1;
        h = listen + 1;
        hl = (size_t)(close - h);
        colon = close + 1;
    } else {
        colon = strrchr(listen, ':');
        if (!colon)
            return -1;
        hl = (size_t)(colon - listen);
    }
    if (hl == 0 || hl >= cap || !colon[1])
        return -1;
    p = strtoul(colon + 1, &end, 10);
    if (*end || colon[1] == '-' || colon[1] == '+' || p > 65535)
        return -1;
    memcpy(host, h, hl);
    host[hl] = '\0';
    *port = (unsigned)p;
    return 0;
}

bool proxy_access_loopback(const char *host)
{
    char url[300];
    int n;
    if (strchr(host, ':')) /* an IPv6 literal */
        n = snprintf(url, sizeof url, "http://[%s]/", host);
    else
        n = snprintf(url, sizeof url, "http://%s/", host);
    return n > 0 && (size_t)n < sizeof url && base_url_is_loopback(url);
}

const char *proxy_access_credential(const char *value, size_t *len)
{
    size_t n;
    if (!value)
        return NULL;
    value += strspn(value, " \t");
    if (strncasecmp(value, "Bearer ", 7) == 0)
        value += 7 + strspn(value + 7, " \t");
    n = strlen(value);
    while (n > 0 && (value[n - 1] == ' ' || value[n - 1] == '\t'))
        n--;
    *len = n;
    return n ? value : NULL;
}

bool proxy_access_token_ok(const char *sent, size_t n, const char *token)
{
    size_t t = token ? strlen(token) : 0, i;
    unsigned char diff = (unsigned char)(n != t);
    if (!sent || t == 0)
        return false;
    for (i = 0; i < n; i++)
        diff |= (unsigned char)(sent[i] ^ token[i < t ? i : 0]);
    return diff == 0;
}
