/* waterfall_text: one request's waterfall as one line of words. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "waterfall.h"

/* Appends to out (at *n of len), cutting at the end. */
static void add(char *out, size_t len, size_t *n, const char *fmt, ...)
{
    va_list ap;
    int k;
    if (*n >= len)
        return;
    va_start(ap, fmt);
    k = vsnprintf(out + *n, len - *n, fmt, ap);
    va_end(ap);
    if (k > 0)
        *n = *n + (size_t)k < len ? *n + (size_t)k : len - 1;
}

/* A duration, or "not measured". */
static void dur(char *b, size_t len, double ms)
{
    if (isnan(ms))
        snprintf(b, len, "not measured");
    else
        snprintf(b, len, "%.1f ms", ms);
}

void waterfall_describe(const struct waterfall *w, char *out, size_t len)
{
    char a[32], b[32], c[32];
    size_t n = 0;
    out[0] = '\0';
    if (!w->measured) {
        snprintf(out, len, "not measured (no libcurl phases or no token)");
        return;
    }
    dur(a, sizeof a, w->rtt_ms);
    add(out, len, &n, "client %.1f ms, network %.1f ms (RTT %s", w->client_ms,
        w->network_ms, a);
    if (w->conn && strcmp(w->conn, "reused") == 0)
        add(out, len, &n, ", reused connection: no connect");
    else if (w->conn) {
        dur(a, sizeof a, w->dns_ms);
        dur(b, sizeof b, w->connect_ms);
        dur(c, sizeof c, w->tls_ms);
        add(out, len, &n, ", DNS %s, connect %s, TLS %s", a, b,
            isnan(w->tls_ms) ? "none" : c);
        if (w->connect_late_ms >= 0.5)
            add(out, len, &n,
                "; %.1f ms of the connect beyond one RTT is the client "
                "noticing it late",
                w->connect_late_ms);
    }
    add(out, len, &n,
        "), gateway/unaccounted %.1f ms before the server's "
        "response, ",
        w->gateway_ms);
    if (isnan(w->server_ms))
        add(out, len, &n, "server processing not reported");
    else
        add(out, len, &n, "server processing %.1f ms (%s)", w->server_ms,
            waterfall_server_name(w->server_source));
    add(out, len, &n, "; headers -> first token %.1f ms", w->after_headers_ms);
    if (w->role_chunks || w->comments || w->pings)
        add(out, len, &n,
            " (%u role-only chunks, %llu comments, %llu pings "
            "before it)",
            w->role_chunks, (unsigned long long)w->comments,
            (unsigned long long)w->pings);
    if (w->clocks_disagree)
        add(out, len, &n, "; the clocks disagree: a part came out negative");
}
