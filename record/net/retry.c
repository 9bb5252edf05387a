/* retry: which attempts are re-sent and the wait before each. */
#include "retry.h"

#include <curl/curl.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

bool retry_status_retryable(int http_status)
{
    return http_status == 429 || http_status == 503;
}

static int64_t cap_ms(double ms)
{
    if (ms <= 0)
        return 0;
    return ms >= (double)RETRY_MAX_WAIT_MS ? RETRY_MAX_WAIT_MS : (int64_t)ms;
}

/* Skips spaces and tabs. */
static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

int64_t retry_after_parse(const char *value, time_t now)
{
    const char *s, *p;
    time_t when;
    if (!value)
        return -1;
    s = skip_ws(value);
    if (*s >= '0' && *s <= '9') {
        /* delay-seconds: digits only (RFC 9110 10.2.3) */
        double secs = 0;
        for (p = s; *p >= '0' && *p <= '9'; p++)
            if (secs < 1e9)
                secs = secs * 10 + (*p - '0');
        if (*skip_ws(p) != '\0')
            return -1;
        return cap_ms(secs * 1000.0);
    }
    if (*s == '\0')
        return -1;
    when = curl_getdate(s, &now);
    if (when == (time_t)-1)
        return -1;
    return when <= now ? 0 : cap_ms((double)(when - now) * 1000.0);
}

int64_t retry_after_ms_parse(const char *value)
{
    char *end;
    double ms;
    if (!value)
        return -1;
    errno = 0;
    ms = strtod(value, &end);
    if (end == value || errno || !isfinite(ms) || ms < 0 ||
        *skip_ws(end) != '\0')
        return -1;
    return cap_ms(ms);
}

int64_t retry_wait_ms(const char *retry_after, const char *retry_after_ms,
                      uint32_t next_attempt, time_t now, uint64_t *rng,
                      bool *from_server)
{
    int64_t ms = retry_after_ms_parse(retry_after_ms);
    double backoff, u;
    uint32_t i;
    if (ms < 0)
        ms = retry_after_parse(retry_after, now);
    *from_server = ms >= 0;
    if (ms >= 0)
        return ms;
    backoff = RETRY_BACKOFF_BASE_MS;
    for (i = 2; i < next_attempt && backoff < RETRY_BACKOFF_MAX_MS; i++)
        backoff *= 2;
    if (backoff > RETRY_BACKOFF_MAX_MS)
        backoff = RETRY_BACKOFF_MAX_MS;
    /* jitter: many clients rejected at once must not come back at once */
    u = rng_unit(rng);
    return (int64_t)(backoff * (0.5 + 0.5 * u));
}
