/* check_models: the gateway's model list and the closest model name. */
#include "check_models.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "printable.h"
#include "suggest.h"

#define MODELS_MAX_BODY ((size_t)2 << 20)
#define NAME_MAX_CMP 128

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* Edit distance of a and b, ignoring ASCII case (names are cut at
 * NAME_MAX_CMP bytes). */
static size_t distance(const char *a, const char *b)
{
    size_t prev[NAME_MAX_CMP + 1], cur[NAME_MAX_CMP + 1];
    size_t na = strlen(a), nb = strlen(b), i, j;
    if (na > NAME_MAX_CMP)
        na = NAME_MAX_CMP;
    if (nb > NAME_MAX_CMP)
        nb = NAME_MAX_CMP;
    for (j = 0; j <= nb; j++)
        prev[j] = j;
    for (i = 1; i <= na; i++) {
        cur[0] = i;
        for (j = 1; j <= nb; j++) {
            size_t sub = prev[j - 1] + (lower(a[i - 1]) != lower(b[j - 1]));
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] =
                sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, (nb + 1) * sizeof prev[0]);
    }
    return prev[nb];
}

/* The part after the last '/' ("openai/gpt-4o" -> "gpt-4o"). */
static const char *base_name(const char *s)
{
    const char *slash = strrchr(s, '/');
    return slash ? slash + 1 : s;
}

/* A closeness score of name to model, lower is closer; (size_t)-1 when
 * not close at all. */
static size_t closeness(const char *name, const char *model)
{
    size_t d, limit = strlen(model) / 3;
    if (strcasecmp(base_name(name), base_name(model)) == 0)
        return 0;
    d = distance(name, model);
    if (limit < 2)
        limit = 2;
    return d <= limit ? d : (size_t)-1;
}

/* The id of one entry of a model list. */
static const char *entry_name(const cJSON *e)
{
    const cJSON *v;
    if (cJSON_IsString(e))
        return e->valuestring;
    v = cJSON_GetObjectItemCaseSensitive(e, "id");
    if (!cJSON_IsString(v))
        v = cJSON_GetObjectItemCaseSensitive(e, "name");
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int check_models_parse(const char *body, size_t len, const char *model,
                       size_t max, char *out, size_t outlen, char *best,
                       size_t bestlen)
{
    cJSON *root = cJSON_ParseWithLength(body, len);
    const cJSON *list, *e;
    size_t best_score = (size_t)-1, pos = 0;
    int n = 0;
    out[0] = best[0] = '\0';
    list = cJSON_IsArray(root) ? root
                               : cJSON_GetObjectItemCaseSensitive(root, "data");
    if (!cJSON_IsArray(list))
        list = cJSON_GetObjectItemCaseSensitive(root, "models");
    if (!cJSON_IsArray(list)) {
        cJSON_Delete(root);
        return -1;
    }
    cJSON_ArrayForEach(e, list)
    {
        const char *name = entry_name(e);
        size_t score;
        if (!name || !*name)
            continue;
        if ((size_t)n < max && pos + 1 < outlen)
            pos += (size_t)snprintf(out + pos, outlen - pos, "%s%s",
                                    n ? ", " : "", name);
        if (pos >= outlen)
            pos = outlen - 1;
        score = closeness(name, model);
        if (score < best_score) {
            best_score = score;
            snprintf(best, bestlen, "%s", name);
        }
        n++;
    }
    if ((size_t)n > max && pos + 1 < outlen)
        snprintf(out + pos, outlen - pos, ", ...");
    cJSON_Delete(root);
    return n;
}

/* libcurl: collects the body (up to the buffer's cap). */
static size_t on_body(char *p, size_t size, size_t nmemb, void *ud)
{
    size_t n = size * nmemb;
    return buf_append(ud, p, n) == BUF_OK ? n : CURL_WRITEFUNC_ERROR;
}

/* GETs models_url into b (capped); returns the HTTP status, 0 when no
 * answer came. */
static long fetch_list(const char *models_url, const char *auth_header,
                       const char *proxy, bool anthropic, double timeout_s,
                       struct buf *b)
{
    CURL *e = curl_easy_init();
    struct curl_slist *h = NULL, *n;
    long status = 0;
    if (!e)
        return 0;
    if (auth_header && (n = curl_slist_append(h, auth_header)))
        h = n;
    if (anthropic && (n = curl_slist_append(h, "anthropic-version: "
                                               "2023-06-01")))
        h = n;
    curl_easy_setopt(e, CURLOPT_URL, models_url);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, b);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)(timeout_s * 1000));
    curl_easy_setopt(e, CURLOPT_USERAGENT, "tokentrace-record/" TT_VERSION);
    if (proxy) { /* the probes' proxy (no_proxy already applied) */
        curl_easy_setopt(e, CURLOPT_PROXY, proxy);
        curl_easy_setopt(e, CURLOPT_NOPROXY, "");
    }
    if (curl_easy_perform(e) != CURLE_OK ||
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status) != CURLE_OK)
        status = 0;
    curl_slist_free_all(h);
    curl_easy_cleanup(e);
    return status;
}

void check_models_hint(const char *models_url, const char *shown_url,
                       const char *auth_header, const char *proxy,
                       bool anthropic, const char *model, double timeout_s,
                       char *hint, size_t len)
{
    struct buf b;
    char names[600], best[160];
    int count = -1;
    buf_init(&b, MODELS_MAX_BODY);
    if (fetch_list(models_url, auth_header, proxy, anthropic, timeout_s, &b) ==
            200 &&
        b.len)
        count = check_models_parse(b.data, b.len, model, 12, names,
                                   sizeof names, best, sizeof best);
    if (count > 0)
        snprintf(hint, len, ": the gateway lists %d model%s: %s%s%s%s", count,
                 count == 1 ? "" : "s", names,
                 best[0] ? " (did you mean '" : "", best, best[0] ? "'?)" : "");
    else
        snprintf(hint, len, " (the gateway's list, if it has one: GET %s)",
                 shown_url);
    buf_free(&b);
}

/* The list of a models reply, or NULL (root is set for cJSON_Delete). */
static const cJSON *model_list(const char *body, size_t len, cJSON **root)
{
    const cJSON *list;
    *root = cJSON_ParseWithLength(body, len);
    list = cJSON_IsArray(*root)
               ? *root
               : cJSON_GetObjectItemCaseSensitive(*root, "data");
    if (!cJSON_IsArray(list))
        list = cJSON_GetObjectItemCaseSensitive(*root, "models");
    return cJSON_IsArray(list) ? list : NULL;
}

#define LISTED_MAX_RANK 8

int check_models_listed(const char *body, size_t len, const char *model,
                        size_t max, char *closest, size_t closest_len,
                        int *count)
{
    cJSON *root;
    const cJSON *list = model_list(body, len, &root), *e;
    const char *rank[LISTED_MAX_RANK];
    size_t dist[LISTED_MAX_RANK], n_rank = 0, pos = 0, limit, i;
    int n = 0, listed = 0;
    closest[0] = '\0';
    *count = 0;
    if (!list) {
        cJSON_Delete(root);
        return -1;
    }
    if (max > LISTED_MAX_RANK)
        max = LISTED_MAX_RANK;
    /* close enough to name: a third of the name, at least 3 edits */
    limit = strlen(model) / 3 < 3 ? 3 : strlen(model) / 3;
    cJSON_ArrayForEach(e, list)
    {
        const char *name = entry_name(e);
        size_t d, k;
        if (!name || !*name)
            continue;
        n++;
        if (strcasecmp(name, model) == 0 ||
            strcasecmp(base_name(name), base_name(model)) == 0)
            listed = 1;
        d = suggest_distance(name, model);
        if (d > limit)
            continue;
        /* insertion into the ranking, nearest first, ties in list order */
        for (k = n_rank; k > 0 && dist[k - 1] > d; k--)
            if (k < max) {
                rank[k] = rank[k - 1];
                dist[k] = dist[k - 1];
            }
        if (k < max) {
            rank[k] = name;
            dist[k] = d;
            if (n_rank < max)
                n_rank++;
        }
    }
    *count = n;
    for (i = 0; !listed && i < n_rank && pos + 1 < closest_len; i++) {
        char shown[120]; /* a server's text, shown on a terminal */
        pos += (size_t)snprintf(closest + pos, closest_len - pos, "%s'%s'",
                                i ? ", " : "",
                                printable_copy(shown, sizeof shown, rank[i]));
        if (pos >= closest_len)
            pos = closest_len - 1;
    }
    cJSON_Delete(root);
    return n == 0 ? -1 : listed;
}

void check_models_missing(const char *models_url, const char *shown_url,
                          const char *auth_header, const char *proxy,
                          bool anthropic, const char *model, double timeout_s,
                          char *out, size_t len)
{
    struct buf b;
    char closest[400];
    int count = 0;
    buf_init(&b, MODELS_MAX_BODY);
    out[0] = '\0';
    if (fetch_list(models_url, auth_header, proxy, anthropic, timeout_s, &b) ==
            200 &&
        b.len &&
        check_models_listed(b.data, b.len, model, 3, closest, sizeof closest,
                            &count) == 0)
        snprintf(out, len,
                 "GET %s lists %d model%s and not '%s'%s%s%s: the server "
                 "answered anyway, so it may ignore the name and serve "
                 "another model; the trace will say '%s' all the same",
                 shown_url, count, count == 1 ? "" : "s", model,
                 closest[0] ? " (closest: " : "", closest,
                 closest[0] ? ")" : "", model);
    buf_free(&b);
}
