/* check_api_alt: after a 404, asks whether the server speaks another API
 * kind: one short POST to each other kind's path, stopped at the first
 * body byte, so a --api anthropic check of an OpenAI-only server can say
 * "use --api openai-chat". */
#ifndef TT_RECORD_CHECK_API_ALT_H
#define TT_RECORD_CHECK_API_ALT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "api_kind.h"
#include "base_url.h"
#include "workload.h"

/* What the probes of the other kinds send. Everything borrowed. */
struct check_api_alt {
    const char *base_url; /* as the user gave it (normalized per kind) */
    enum api_kind api;    /* the kind that got the 404 */
    const char *key;      /* NULL: no key; never shown */
    const char *proxy;    /* NULL or "" direct */
    const char *cacert;
    bool insecure;
    double timeout_s; /* per probe */
    const struct workload_item *item;
    long long max_tokens;
};

/* The first other kind whose path answers 2xx (else one that answers any
 * status but 404/405, as a weaker sign): its name in *kind (static), its
 * shown URL in url and the status; returns the status, or 0 when no other
 * kind answers (url ""). */
int check_api_alt_find(const struct check_api_alt *a, const char *model,
                       const char **kind, char *url, size_t url_len);

#endif
