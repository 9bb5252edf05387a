/* proxy_secrets: every credential one client request carries, to be
 * masked in everything the proxy stores. An upstream may echo any of them
 * (a 404 quoting the path, as OpenAI's does). */
#ifndef TT_PROXY_SECRETS_H
#define TT_PROXY_SECRETS_H

#include <event2/keyvalq_struct.h>
#include <stddef.h>

/* Secrets kept per request: the client's credentials (up to
 * PROXY_SECRETS - 2, each shorter than PROXY_SECRET_MAX), the injected
 * key, the local token; of them credentials inside its URL. */
#define PROXY_SECRETS 24
#define PROXY_SECRET_MAX 4097 /* BODY_SCRUB_MAX_SECRET and its NUL */
#define PROXY_URL_SECRETS 8

struct proxy_secrets {
    const char *list[PROXY_SECRETS]; /* n of them, NUL-terminated */
    size_t n;
    /* credentials found and not kept (no room, too long): not masked;
     * the caller warns and counts */
    size_t dropped;
    /* list[i]'s own copy (NULL: borrowed), each as long as its secret;
     * wiped when freed */
    char *copies[PROXY_SECRETS];
};

/* Collects the secrets of a request (its headers in, its uri, may be
 * NULL): the value of every credential header (proxy_route.h's table),
 * every cookie value, credential query parameters and key-looking path
 * segments of the URL (sanitize_url_secrets), then inject_key and token
 * (borrowed, either NULL). Returns 0 or -1 (out of memory; nothing to
 * free). */
int proxy_secrets_collect(struct proxy_secrets *ps, struct evkeyvalq *in,
                          const char *uri, const char *inject_key,
                          const char *token);

/* Wipes and frees the copies. Twice is fine. */
void proxy_secrets_free(struct proxy_secrets *ps);

#endif
