/* proxy_check: header size, Content-Length, dot segments, URL length. */
#include "proxy_check.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static int refuse(struct proxy_check *c, int status, const char *reason,
                  enum proxy_limit kind, const char *why)
{
    c->status = status;
    c->reason = reason;
    c->kind = kind;
    snprintf(c->why, sizeof c->why, "%s", why);
    return -1;
}

/* True when every Content-Length value is the same plain number: "5,
 * 70" or two headers of 5 and 70 would let the upstream read a body
 * other than the one the proxy read (request smuggling). */
static int content_length_ok(const struct evkeyvalq *in)
{
    const char *first = NULL;
    for (const struct evkeyval *h = in->tqh_first; h; h = h->next.tqe_next) {
        size_t n;
        if (strcasecmp(h->key, "Content-Length") != 0)
            continue;
        n = strlen(h->value);
        if (n == 0 || strspn(h->value, "0123456789") != n)
            return 0;
        if (first && strcmp(first, h->value) != 0)
            return 0;
        first = h->value;
    }
    return 1;
}

/* True when the path (up to '?' or '#') has a "." or ".." segment, plain
 * or percent-encoded ("%2e"): the upstream would resolve it above -u's
 * base path. */
static int has_dot_segment(const char *uri)
{
    size_t end = strcspn(uri, "?#"), i = 0;
    while (i < end) {
        size_t seg = i, dots = 0, other = 0;
        while (i < end && uri[i] != '/') {
            if (uri[i] == '.') {
                dots++;
                i++;
            } else if (uri[i] == '%' && i + 2 < end && uri[i + 1] == '2' &&
                       (uri[i + 2] == 'e' || uri[i + 2] == 'E')) {
                dots++;
                i += 3;
            } else {
                other++;
                i++;
            }
        }
        if (i > seg && other == 0 && dots <= 2)
            return 1;
        i++; /* the '/' */
    }
    return 0;
}

int proxy_check_request(const struct evkeyvalq *in, const char *uri,
                        const char *base, struct proxy_check *c)
{
    size_t bytes = 0;
    char why[160];
    for (const struct evkeyval *h = in->tqh_first; h; h = h->next.tqe_next)
        bytes += strlen(h->key) + strlen(h->value) + 4;
    if (bytes > PROXY_MAX_HEADER) {
        snprintf(why, sizeof why,
                 "the request headers are %zu bytes, over the proxy's limit "
                 "of %zu",
                 bytes, PROXY_MAX_HEADER);
        return refuse(c, 431, "Request Header Fields Too Large",
                      PROXY_LIMIT_HEADER, why);
    }
    if (!content_length_ok(in))
        return refuse(c, 400, "Bad Request", PROXY_LIMIT_CONTENT_LENGTH,
                      "the request's Content-Length is not one plain number");
    if (!uri || uri[0] != '/')
        return refuse(c, 400, "Bad Request", PROXY_LIMIT_DOT_SEGMENTS,
                      "the request target is not a path");
    if (has_dot_segment(uri))
        return refuse(c, 400, "Bad Request", PROXY_LIMIT_DOT_SEGMENTS,
                      "the request path has a '.' or '..' segment: it "
                      "would leave the -u base path");
    if (strlen(base) + strlen(uri) >= PROXY_MAX_URL) {
        snprintf(why, sizeof why,
                 "the upstream URL would be %zu bytes, over the proxy's "
                 "limit of %d",
                 strlen(base) + strlen(uri), PROXY_MAX_URL - 1);
        return refuse(c, 414, "URI Too Long", PROXY_LIMIT_URL, why);
    }
    return 0;
}
