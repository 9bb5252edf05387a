/* waterfall_server: the server-reported processing time of a response. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "waterfall.h"

const char *waterfall_server_name(enum waterfall_server s)
{
    switch (s) {
    case WF_SERVER_OPENAI:
        return "openai-processing-ms";
    case WF_SERVER_TIMING:
        return "server-timing";
    case WF_SERVER_ENVOY:
        return "x-envoy-upstream-service-time";
    case WF_SERVER_LLAMA:
        return "timings.prompt_ms";
    case WF_SERVER_NONE:
        break;
    }
    return "";
}

/* A header's value, NULL when not kept. */
static const char *header(const struct trace_kv *h, size_t n, const char *k)
{
    for (size_t i = 0; i < n; i++)
        if (h[i].key && strcasecmp(h[i].key, k) == 0)
            return h[i].value;
    return NULL;
}

/* A whole non-negative number of ms ("95", "12.5"), NAN otherwise. */
static double ms_value(const char *v)
{
    char *end;
    double x;
    if (!v)
        return NAN;
    x = strtod(v, &end);
    while (*end == ' ')
        end++;
    return end != v && !*end && x >= 0 && isfinite(x) ? x : NAN;
}

/* Skips spaces and tabs. */
static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* The dur parameter of one Server-Timing metric [p, end) ("app;dur=47.2;
 * desc=x"), NAN without one; *is_total when the metric is named total. */
static double metric_dur(const char *p, const char *end, bool *is_total)
{
    const char *name = skip_ws(p, end);
    size_t name_len = (size_t)(end - name);
    const char *semi = memchr(name, ';', name_len);
    if (semi)
        name_len = (size_t)(semi - name);
    while (name_len &&
           (name[name_len - 1] == ' ' || name[name_len - 1] == '\t'))
        name_len--;
    *is_total = name_len == 5 && strncasecmp(name, "total", 5) == 0;
    while (semi) {
        const char *q = skip_ws(semi + 1, end);
        if (q >= end)
            break;
        semi = memchr(q, ';', (size_t)(end - q));
        if (end - q > 4 && strncasecmp(q, "dur=", 4) == 0) {
            char *e;
            double d = strtod(q + 4, &e);
            return e > q + 4 && e <= end && isfinite(d) && d >= 0 ? d : NAN;
        }
    }
    return NAN;
}

/* W3C Server-Timing ("db;dur=53, app;desc=x;dur=47.2"): the dur of the
 * metric named total, else the largest dur (metrics may nest, so they are
 * never summed); NAN without one. */
static double server_timing(const char *v)
{
    double best = NAN, total = NAN;
    while (v && *v) {
        const char *end = v + strcspn(v, ",");
        bool is_total;
        double d = metric_dur(v, end, &is_total);
        if (!isnan(d) && is_total)
            total = d;
        if (!isnan(d) && (isnan(best) || d > best))
            best = d;
        v = *end ? end + 1 : end;
    }
    return isnan(total) ? best : total;
}

double waterfall_server_time(const struct trace_kv *h, size_t n,
                             const struct stream_state *s,
                             enum waterfall_server *src)
{
    double x = ms_value(header(h, n, "openai-processing-ms"));
    *src = WF_SERVER_OPENAI;
    if (!isnan(x))
        return x;
    *src = WF_SERVER_TIMING;
    x = server_timing(header(h, n, "server-timing"));
    if (!isnan(x))
        return x;
    *src = WF_SERVER_ENVOY;
    x = ms_value(header(h, n, "x-envoy-upstream-service-time"));
    if (!isnan(x))
        return x;
    *src = WF_SERVER_LLAMA;
    if (s && s->server_timings.present && isfinite(s->server_timings.prompt_ms))
        return s->server_timings.prompt_ms;
    *src = WF_SERVER_NONE;
    return NAN;
}
