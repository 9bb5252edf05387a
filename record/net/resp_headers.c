/* resp_headers: picks, lower-cases and redacts response headers. */
#include "resp_headers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Kept verbatim. */
static const char *const kept[] = {
    "content-type",
    "content-length",
    "content-encoding",
    "transfer-encoding",
    "x-request-id",
    "request-id",
    "openai-processing-ms",
    "openai-version",
    "openai-model",
    "retry-after",
    "retry-after-ms",
    "server",
    "via",
    "cf-ray",
    "date",
    "x-amzn-requestid",
    "x-cache",
    "x-envoy-upstream-service-time",
    "server-timing",
    "age",
    "location",
};

/* Kept by prefix. */
static const char *const kept_prefixes[] = {
    "x-ratelimit-",
    "anthropic-ratelimit-",
    "ratelimit-",
};

/* Kept, but with the value "[redacted]". */
static const char *const redacted[] = {
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    "api-key",       "x-goog-api-key",
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

/* True when a header of this name (case-insensitive) is kept. */
static int resp_headers_selected(const char *name, size_t len)
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

void resp_headers_set_secret(struct resp_headers *h, const char *secret)
{
    h->secret = secret && *secret ? secret : NULL;
}

/* Where secret (non-empty) first occurs in v[0..len), NULL when it does
 * not. */
static const char *find_secret(const char *v, size_t len, const char *secret)
{
    size_t slen = strlen(secret), i;
    for (i = 0; slen <= len && i <= len - slen; i++)
        if (v[i] == secret[0] && memcmp(v + i, secret, slen) == 0)
            return v + i;
    return NULL;
}

/* A new string holding v[0..len) with every occurrence of secret (NULL:
 * none) replaced by "[redacted]"; NULL when out of memory. The secret is
 * never copied, not even in part. */
static char *copy_redacted(const char *v, size_t len, const char *secret)
{
    static const char mark[] = "[redacted]";
    const char *end = v + len, *hit;
    size_t slen, hits = 0, out_len;
    char *out, *o;
    if (!secret)
        return strndup(v, len);
    slen = strlen(secret);
    for (hit = v; (hit = find_secret(hit, (size_t)(end - hit), secret));
         hit += slen)
        hits++;
    if (hits == 0)
        return strndup(v, len);
    out_len = len - hits * slen + hits * (sizeof mark - 1);
    if (!(o = out = malloc(out_len + 1)))
        return NULL;
    while ((hit = find_secret(v, (size_t)(end - v), secret))) {
        memcpy(o, v, (size_t)(hit - v));
        o += hit - v;
        memcpy(o, mark, sizeof mark - 1);
        o += sizeof mark - 1;
        v = hit + slen;
    }
    memcpy(o, v, (size_t)(end - v));
    o[end - v] = '\0';
    return out;
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
    char *reason;
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
    r = i;
    while (r < len && line[r] != '\r' && line[r] != '\n')
        r++;
    /* redacted whole, then cut: no part of the key survives the cut */
    reason = copy_redacted(line + i, r - i, h->secret);
    snprintf(h->reason, sizeof h->reason, "%s", reason ? reason : "");
    free(reason);
    return 1;
}

/* Stores the media type of a Content-Type value, lower-cased. */
static void set_content_type(struct resp_headers *h, const char *v, size_t len)
{
    size_t i, n = 0;
    for (i = 0; i < len && v[i] != ';' && v[i] != ' ' &&
                n + 1 < sizeof h->content_type;
         i++)
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
    key = strndup(line, nlen);
    /* the key redacted before the value is cut, so no part of it stays */
    val = copy_redacted(v, vlen, h->secret);
    if (!key || !val) {
        free(key);
        free(val);
        return -1;
    }
    if (strlen(val) > RESP_HEADER_VALUE_MAX)
        val[RESP_HEADER_VALUE_MAX] = '\0';
    for (i = 0; i < nlen; i++)
        key[i] = (char)(key[i] >= 'A' && key[i] <= 'Z' ? key[i] + 32 : key[i]);
    h->kv[h->n].key = key;
    h->kv[h->n].value = val;
    h->n++;
    return 0;
}
