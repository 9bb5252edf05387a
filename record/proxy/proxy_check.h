/* proxy_check: the proxy's own checks of a client request, before it is
 * forwarded: what it will not pass on (a header block over its limit, a
 * body length the upstream could read differently, a path that climbs
 * out of -u's base, a URL too long for it). Pure: no I/O. */
#ifndef TT_PROXY_CHECK_H
#define TT_PROXY_CHECK_H

#include <event2/keyvalq_struct.h>
#include <stddef.h>

#include "proxy_record.h"

/* Request headers the proxy takes, in bytes ("Name: value\r\n" each);
 * evhttp itself refuses a block over PROXY_MAX_HEADER_HARD (413) before
 * the proxy sees it, which bounds what is buffered. */
#define PROXY_MAX_HEADER ((size_t)64 << 10)
#define PROXY_MAX_HEADER_HARD ((size_t)1 << 20)
/* The upstream URL (-u's base and the request target). */
#define PROXY_MAX_URL 4096

/* Why a request is refused. */
struct proxy_check {
    int status;         /* 400, 414, 431 */
    const char *reason; /* the status line's words */
    enum proxy_limit kind;
    char why[160]; /* for the client, the log and the result */
};

/* Checks a request (its headers in, its target uri) forwarded to base.
 * Returns 0 when it may be forwarded, else -1 with c filled. */
int proxy_check_request(const struct evkeyvalq *in, const char *uri,
                        const char *base, struct proxy_check *c);

#endif
