/* resp_headers: picks, lower-cases and redacts response headers. */
#include "resp_headers.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Kept verbatim. */
static const char *const kept[] = {
    "content-type", "content-length", "content-encoding",
    "transfer-encoding", "x-request-id", "request-id", "openai-processing-ms",
    "openai-version", "openai-model", "retry-after", "retry-after-ms",
    "server", "via", "cf-ray", "date", "x-amzn-requestid", "x-cache",
    "x-envoy-upstream-service-time", "age", "location",
};

/* Kept by prefix. */
static const char *const kept_prefixes[] = {
    "x-ratelimit-", "anthropic-ratelimit-", "ratelimit-",
};

/* Kept, but with the value "[redacted]". */
static const char *const redacted[] = {
    "authorization", "proxy-authorization", "cookie", "set-cookie",
    "x-api-key", "api-key",
};

static int name_in(const char *name, size_t len, const char *const *list,
                   size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strlen(list[i]) == len && strncasecmp(name, list[i], len) == 0)
            return 1;
    return 0;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int is_redacted(const char *name, size_t len)
{
    return name_in(name, len, redacted, COUNT(redacted));
}

int resp_headers_selected(const char *name, size_t len)
{
    size_t i;
    if (name_in(name, len, kept, COUNT(kept)) || is_redacted(name, len))
        return 1;
    for (i = 0; i < COUNT(kept_prefixes); i++) {
        size_t plen = strlen(kept_prefixes[i]);
        if (len > plen && strncasecmp(name, kept_prefixes[i], plen) == 0)
            return 1;
    }
    return 0;
}

void resp_headers_init(struct resp_headers *h)
{
    memset(h, 0, sizeof *h);
}

void resp_headers_free(struct resp_headers *h)
{
    size_t i;
    for (i = 0; i < h->n; i++) {
        free((char *)h->kv[i].key);
        free((char *)h->kv[i].value);
    }
    h->n = 0;
}

/* Parses "HTTP/x[.y] NNN reason". Returns 1 when line is a status line. */
static int status_line(struct resp_headers *h, const char *line, size_t len)
{
    size_t i = 5, r;
    int status = 0, digits = 0;
    if (len < 10 || strncmp(line, "HTTP/", 5) != 0)
        return 0;
    while (i < len && line[i] != ' ')
        i++;
    while (i < len && line[i] == ' ')
        i++;
    while (i < len && line[i] >= '0' && line[i] <= '9' && digits < 3) {
        status = status * 10 + (line[i++] - '0');
        digits++;
    }
    if (digits != 3)
        return 0;
    resp_headers_free(h);
    h->status = status;
    h->content_type[0] = '\0';
    while (i < len && line[i] == ' ')
        i++;
    r = 0;
    while (i < len && line[i] != '\r' && line[i] != '\n' &&
           r + 1 < sizeof h->reason)
        h->reason[r++] = line[i++];
    h->reason[r] = '\0';
    return 1;
}

/* Stores the media type of a Content-Type value, lower-cased. */
static void set_content_type(struct resp_headers *h, const char *v,
                             size_t len)
{
    size_t i, n = 0;
    for (i = 0; i < len && v[i] != ';' && v[i] != ' ' &&
                n + 1 < sizeof h->content_type; i++)
        h->content_type[n++] =
            (char)(v[i] >= 'A' && v[i] <= 'Z' ? v[i] + 32 : v[i]);
    h->content_type[n] = '\0';
}

int resp_headers_line(struct resp_headers *h, const char *line, size_t len)
{
    const char *colon, *v;
    size_t nlen, vlen, i;
    char *key, *val;
    if (status_line(h, line, len))
        return 0;
    colon = memchr(line, ':', len);
    if (!colon || colon == line)
        return 0;
    nlen = (size_t)(colon - line);
    v = colon + 1;
    vlen = len - nlen - 1;
    while (vlen && (*v == ' ' || *v == '\t'))
        v++, vlen--;
    while (vlen && (v[vlen - 1] == '\r' || v[vlen - 1] == '\n' ||
                    v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
        vlen--;
    if (nlen == 12 && strncasecmp(line, "content-type", 12) == 0)
        set_content_type(h, v, vlen);
    if (!resp_headers_selected(line, nlen) || h->n == RESP_HEADERS_MAX)
        return 0;
    if (is_redacted(line, nlen)) {
        v = "[redacted]";
        vlen = strlen(v);
    }
    if (vlen > RESP_HEADER_VALUE_MAX)
        vlen = RESP_HEADER_VALUE_MAX;
    key = strndup(line, nlen);
    val = strndup(v, vlen);
    if (!key || !val) {
        free(key);
        free(val);
        return -1;
    }
    for (i = 0; i < nlen; i++)
        key[i] = (char)(key[i] >= 'A' && key[i] <= 'Z' ? key[i] + 32 : key[i]);
    h->kv[h->n].key = key;
    h->kv[h->n].value = val;
    h->n++;
    return 0;
}
