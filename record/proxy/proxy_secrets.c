/* proxy_secrets: the credentials of one client request. */
#include "proxy_secrets.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "proxy_access.h"
#include "proxy_route.h"
#include "sanitize.h"
#include "secret.h"

/* Keeps a copy of the n bytes at v as the next secret unless there is no
 * room (counted) or n is 0 (body_scrub ignores what is too short to be a
 * key). Two places stay for the injected key and the token. Returns 0, or
 * -1 out of memory. */
static int keep(struct proxy_secrets *ps, const char *v, size_t n)
{
    char *c;
    if (n == 0)
        return 0;
    if (n >= PROXY_SECRET_MAX || ps->n + 2 >= PROXY_SECRETS) {
        ps->dropped++;
        return 0;
    }
    c = malloc(n + 1);
    if (!c)
        return -1;
    memcpy(c, v, n);
    c[n] = '\0';
    ps->copies[ps->n] = c;
    ps->list[ps->n++] = c;
    return 0;
}

/* Every cookie value of a Cookie header ("a=V; b=W"). Returns 0 or -1
 * (out of memory). */
static int keep_cookies(struct proxy_secrets *ps, const char *h)
{
    while (h && *h) {
        const char *eq = strchr(h, '='), *end;
        if (!eq)
            return 0;
        end = eq + 1 + strcspn(eq + 1, ";");
        if (keep(ps, eq + 1, (size_t)(end - eq - 1)))
            return -1;
        h = *end ? end + 1 : end;
        h += strspn(h, " ");
    }
    return 0;
}

int proxy_secrets_collect(struct proxy_secrets *ps, struct evkeyvalq *in,
                          const char *uri, const char *inject_key,
                          const char *token)
{
    struct sanitize_span span[PROXY_URL_SECRETS];
    size_t n_span;
    int err = 0;
    memset(ps, 0, sizeof *ps);
    for (struct evkeyval *h = in->tqh_first; h && !err; h = h->next.tqe_next) {
        size_t len;
        const char *c;
        if (strcasecmp(h->key, "Cookie") == 0) {
            err = keep_cookies(ps, h->value);
            continue;
        }
        if (!proxy_route_credential_header(h->key))
            continue;
        c = proxy_access_credential(h->value, &len);
        if (c)
            err = keep(ps, c, len);
    }
    n_span = uri ? sanitize_url_secrets(uri, span, PROXY_URL_SECRETS) : 0;
    for (size_t i = 0; i < n_span && i < PROXY_URL_SECRETS && !err; i++)
        err = keep(ps, uri + span[i].off, span[i].len);
    if (err) {
        proxy_secrets_free(ps);
        return -1;
    }
    if (n_span > PROXY_URL_SECRETS)
        ps->dropped += n_span - PROXY_URL_SECRETS;
    if (inject_key)
        ps->list[ps->n++] = inject_key;
    if (token)
        ps->list[ps->n++] = token;
    return 0;
}

void proxy_secrets_free(struct proxy_secrets *ps)
{
    for (size_t i = 0; i < PROXY_SECRETS; i++)
        if (ps->copies[i]) {
            secret_wipe(ps->copies[i], strlen(ps->copies[i]));
            free(ps->copies[i]);
            ps->copies[i] = NULL;
        }
}
