/* check_api_alt: probes the other API kinds' paths after a 404. */
#include "check_api_alt.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "request_body.h"

/* libcurl: the status line is all that is wanted: stop at the body. */
static size_t stop_at_body(char *p, size_t size, size_t nmemb, void *ud)
{
    (void)p;
    (void)size;
    (void)nmemb;
    (void)ud;
    return 0;
}

/* POSTs body to url as kind would send it; returns the HTTP status, 0
 * when no answer came. */
static long post_status(const struct check_api_alt *a, enum api_kind kind,
                        const char *url, const char *body)
{
    CURL *e = curl_easy_init();
    struct curl_slist *h = NULL, *n;
    char auth[600];
    long status = 0;
    if (!e)
        return 0;
    if ((n = curl_slist_append(h, "Content-Type: application/json")))
        h = n;
    if (a->key && a->key[0] && strlen(a->key) < 500) {
        snprintf(auth, sizeof auth, "%s%s",
                 kind == API_ANTHROPIC ? "x-api-key: "
                                       : "Authorization: Bearer ",
                 a->key);
        if ((n = curl_slist_append(h, auth)))
            h = n;
        memset(auth, 0, sizeof auth);
    }
    if (kind == API_ANTHROPIC &&
        (n = curl_slist_append(h, "anthropic-version: 2023-06-01")))
        h = n;
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, stop_at_body);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)(a->timeout_s * 1000));
    curl_easy_setopt(e, CURLOPT_USERAGENT, "tokentrace-record/" TT_VERSION);
    if (a->insecure) {
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (a->cacert)
        curl_easy_setopt(e, CURLOPT_CAINFO, a->cacert);
    if (a->proxy && a->proxy[0]) {
        curl_easy_setopt(e, CURLOPT_PROXY, a->proxy);
        curl_easy_setopt(e, CURLOPT_NOPROXY, "");
    } else {
        curl_easy_setopt(e, CURLOPT_PROXY, "");
    }
    /* a write error after the headers still leaves the status */
    curl_easy_perform(e);
    if (curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status) != CURLE_OK)
        status = 0;
    curl_slist_free_all(h);
    curl_easy_cleanup(e);
    return status;
}

int check_api_alt_find(const struct check_api_alt *a, const char *model,
                       const char **kind, char *url, size_t url_len)
{
    long best = 0;
    *kind = NULL;
    url[0] = '\0';
    for (int k = 0; k < API_KIND_COUNT && !(best >= 200 && best < 300); k++) {
        struct request_body_opts bo;
        struct base_url bu;
        char *body;
        long st;
        if ((enum api_kind)k == a->api ||
            base_url_normalize(a->base_url, api_kind_path((enum api_kind)k),
                               a->key, &bu) != BASE_URL_OK)
            continue;
        memset(&bo, 0, sizeof bo);
        bo.api = (enum api_kind)k;
        bo.model = model;
        bo.max_tokens = a->max_tokens;
        body = request_body_build(&bo, a->item);
        if (!body)
            continue;
        st = post_status(a, (enum api_kind)k, bu.url, body);
        free(body);
        if (st == 0 || st == 404 || st == 405)
            continue;
        /* a 2xx beats any other answer; the first of each wins */
        if (best == 0 || (st >= 200 && st < 300)) {
            best = st;
            *kind = api_kind_name((enum api_kind)k);
            snprintf(url, url_len, "%s", bu.shown_url);
        }
    }
    return (int)best;
}
