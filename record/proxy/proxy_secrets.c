/* proxy_secrets: the credentials of one client request. */
#include "proxy_secrets.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "proxy_access.h"
#include "proxy_route.h"
#include "sanitize.h"
#include "secret.h"

/* Keeps the n bytes at v as the next secret unless there is no room
 * (counted) or n is 0 (body_scrub ignores what is too short to be a
 * key). Two places stay for the injected key and the token. */
static void keep(struct proxy_secrets *ps, const char *v, size_t n)
{
    if (n == 0)
        return;
    if (n >= PROXY_SECRET_MAX || ps->n + 2 >= PROXY_SECRETS) {
        ps->dropped++;
        return;
    }
    memcpy(ps->copies[ps->n], v, n);
    ps->copies[ps->n][n] = '\0';
    ps->list[ps->n] = ps->copies[ps->n];
    ps->n++;
}

/* Every cookie value of a Cookie header ("a=V; b=W"). */
static void keep_cookies(struct proxy_secrets *ps, const char *h)
{
    while (h && *h) {
        const char *eq = strchr(h, '='), *end;
        if (!eq)
            return;
        end = eq + 1 + strcspn(eq + 1, ";");
        keep(ps, eq + 1, (size_t)(end - eq - 1));
        h = *end ? end + 1 : end;
        h += strspn(h, " ");
    }
}

int proxy_secrets_collect(struct proxy_secrets *ps, struct evkeyvalq *in,
                          const char *uri, const char *inject_key,
                          const char *token)
{
    struct sanitize_span span[PROXY_URL_SECRETS];
    size_t n_span;
    memset(ps, 0, sizeof *ps);
    ps->copies = malloc((PROXY_SECRETS - 2) * sizeof *ps->copies);
    if (!ps->copies)
        return -1;
    for (struct evkeyval *h = in->tqh_first; h; h = h->next.tqe_next) {
        size_t len;
        const char *c;
        if (strcasecmp(h->key, "Cookie") == 0) {
            keep_cookies(ps, h->value);
            continue;
        }
        if (!proxy_route_credential_header(h->key))
            continue;
        c = proxy_access_credential(h->value, &len);
        if (c)
            keep(ps, c, len);
    }
    n_span = uri ? sanitize_url_secrets(uri, span, PROXY_URL_SECRETS) : 0;
    for (size_t i = 0; i < n_span && i < PROXY_URL_SECRETS; i++)
        keep(ps, uri + span[i].off, span[i].len);
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
    if (ps->copies) {
        /* the used copies only: wiping all 90 KB was 5% of the proxy's
         * CPU at 1,000 streams */
        for (size_t i = 0; i < ps->n && ps->list[i] == ps->copies[i]; i++)
            secret_wipe(ps->copies[i], strlen(ps->copies[i]));
        free(ps->copies);
    }
    ps->copies = NULL;
}
