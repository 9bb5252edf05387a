/* replay_faults: parses fault rules and picks the faults of a request. */
#include "replay_faults.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

static const char *const fault_names[FAULT_COUNT] = {
    [FAULT_HTTP_401] = "http-401",
    [FAULT_HTTP_403] = "http-403",
    [FAULT_HTTP_404] = "http-404",
    [FAULT_HTTP_429] = "http-429",
    [FAULT_HTTP_500] = "http-500",
    [FAULT_HTML] = "html",
    [FAULT_NO_STREAM] = "no-stream",
    [FAULT_RESET_MID_STREAM] = "reset-mid-stream",
    [FAULT_STALL] = "stall",
    [FAULT_SPLIT_UTF8] = "split-utf8",
    [FAULT_CRLF] = "crlf",
    [FAULT_ROLE_FIRST] = "role-first",
    [FAULT_MULTI_TOKEN_CHUNKS] = "multi-token-chunks",
    [FAULT_REASONING] = "reasoning",
    [FAULT_KEEPALIVE] = "keepalive",
    [FAULT_ERROR_MID_STREAM] = "error-mid-stream",
    [FAULT_NO_USAGE] = "no-usage",
    [FAULT_ACCEPT_NO_ANSWER] = "accept-no-answer",
    [FAULT_HEADERS_ONLY] = "headers-only",
    [FAULT_ENDLESS_LINE] = "endless-line",
    [FAULT_DATA_NOSPACE] = "data-nospace",
    [FAULT_LEAKY_HEADERS] = "leaky-headers",
    [FAULT_LEAKY_BODY] = "leaky-body",
    [FAULT_SSE_AS_JSON] = "sse-as-json",
    [FAULT_ERROR_FIELD] = "error-field",
    [FAULT_ERROR_FIRST] = "error-first",
    [FAULT_ERROR_OBJECT] = "error-object",
    [FAULT_NO_TOKENS] = "no-tokens",
    [FAULT_LLAMA_TIMINGS] = "llama-timings",
    [FAULT_RESPONSE_FAILED] = "response-failed",
};

const char *replay_fault_name(enum replay_fault kind)
{
    if ((int)kind < 0 || kind >= FAULT_COUNT)
        return "?";
    return fault_names[kind];
}

/* Returns every kind name separated by ", " (static). */
static const char *replay_fault_names(void)
{
    static char all[512];
    size_t used = 0;
    int i;

    if (all[0] != '\0')
        return all;
    for (i = 0; i < FAULT_COUNT; i++) {
        int w = snprintf(all + used, sizeof(all) - used, "%s%s", i ? ", " : "",
                         fault_names[i]);
        if (w < 0 || (size_t)w >= sizeof(all) - used)
            break;
        used += (size_t)w;
    }
    return all;
}

int replay_fault_parse(const char *text, struct replay_fault_rule *out,
                       char *err, size_t errlen)
{
    char kind[64];
    const char *at = strchr(text, '@');
    const char *colon;
    size_t kind_len;
    int i;

    memset(out, 0, sizeof(*out));
    out->fraction = 1.0;
    colon = strchr(text, ':');
    if (colon != NULL && at != NULL && colon > at)
        colon = NULL; /* a ':' inside the model name */
    kind_len = colon ? (size_t)(colon - text)
               : at  ? (size_t)(at - text)
                     : strlen(text);
    if (kind_len == 0 || kind_len >= sizeof(kind)) {
        snprintf(err, errlen, "bad fault '%s': want KIND[:FRACTION][@MODEL]",
                 text);
        return -1;
    }
    memcpy(kind, text, kind_len);
    kind[kind_len] = '\0';
    for (i = 0; i < FAULT_COUNT; i++) {
        if (strcmp(kind, fault_names[i]) == 0)
            break;
    }
    if (i == FAULT_COUNT) {
        snprintf(err, errlen, "unknown fault kind '%s' (known: %s)", kind,
                 replay_fault_names());
        return -1;
    }
    out->kind = (enum replay_fault)i;
    if (colon != NULL) {
        char num[64];
        size_t len = at ? (size_t)(at - colon - 1) : strlen(colon + 1);
        char *end = NULL;
        double v;
        if (len == 0 || len >= sizeof(num)) {
            snprintf(err, errlen, "bad fraction in fault '%s'", text);
            return -1;
        }
        memcpy(num, colon + 1, len);
        num[len] = '\0';
        errno = 0;
        v = strtod(num, &end);
        if (errno != 0 || end == num || *end != '\0' || !isfinite(v) || v < 0 ||
            v > 1) {
            snprintf(err, errlen, "bad fraction '%s' in fault '%s': want 0..1",
                     num, text);
            return -1;
        }
        out->fraction = v;
    }
    if (at != NULL) {
        size_t len = strlen(at + 1);
        if (len == 0 || len >= sizeof(out->model)) {
            snprintf(err, errlen, "bad model in fault '%s'", text);
            return -1;
        }
        memcpy(out->model, at + 1, len + 1);
    }
    return 0;
}

replay_fault_set replay_faults_pick(const struct replay_fault_rule *rules,
                                    size_t n_rules, const char *model,
                                    uint64_t *rng)
{
    replay_fault_set set = 0;
    size_t i;

    for (i = 0; i < n_rules; i++) {
        const struct replay_fault_rule *r = &rules[i];
        if (r->model[0] != '\0' &&
            (model == NULL || strcmp(r->model, model) != 0))
            continue;
        if (r->fraction < 1.0 && rng_unit(rng) >= r->fraction)
            continue;
        set |= FAULT_BIT(r->kind);
    }
    return set;
}
