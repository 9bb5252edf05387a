/* retry_test: the --retry policy: which statuses are retried, the
 * Retry-After forms (delay-seconds, HTTP-date, retry-after-ms), the cap,
 * and the backoff with jitter when the server names no wait. */
#include <curl/curl.h>
#include <string.h>

#include "check.h"
#include "retry.h"

static const struct {
    const char *value;
    int64_t want; /* ms; -1: not a Retry-After */
} after_cases[] = {
    {"2", 2000},
    {" 2 ", 2000},
    {"0", 0},
    {"60", 60000},
    {"61", 60000},
    {"86400", 60000},
    {"99999999999999999999", 60000},
    {"1.5", -1},
    {"-1", -1},
    {"", -1},
    {"  ", -1},
    {"2s", -1},
    {"soon", -1},
    {NULL, -1},
};

static const struct {
    const char *value;
    int64_t want;
} ms_cases[] = {
    {"1500", 1500},   {"1500.7", 1500}, {"0", 0}, {" 20 ", 20},
    {"60001", 60000}, {"x", -1},        {"", -1}, {"-5", -1},
    {"12ms", -1},     {NULL, -1},
};

int main(void)
{
    const char *date = "Wed, 21 Oct 2026 07:28:00 GMT";
    time_t at = curl_getdate(date, NULL);
    uint64_t rng = 42, rng2 = 42;
    bool from_server;
    size_t i;
    int64_t w, w2;

    CHECK(retry_status_retryable(429) && retry_status_retryable(503));
    CHECK(!retry_status_retryable(500) && !retry_status_retryable(502) &&
          !retry_status_retryable(200) && !retry_status_retryable(0) &&
          !retry_status_retryable(401));

    for (i = 0; i < sizeof after_cases / sizeof after_cases[0]; i++) {
        w = retry_after_parse(after_cases[i].value, at);
        CHECK_MSG(w == after_cases[i].want,
                  "Retry-After '%s': %lld, want "
                  "%lld",
                  after_cases[i].value ? after_cases[i].value : "NULL",
                  (long long)w, (long long)after_cases[i].want);
    }
    /* HTTP-date: the distance from now, 0 when past, capped when far */
    CHECK(at != (time_t)-1);
    CHECK(retry_after_parse(date, at - 5) == 5000);
    CHECK(retry_after_parse(date, at) == 0);
    CHECK(retry_after_parse(date, at + 3600) == 0);
    CHECK(retry_after_parse(date, at - 3600) == RETRY_MAX_WAIT_MS);
    CHECK(retry_after_parse("Sunday, 06-Nov-94 08:49:37 GMT", 784111770) ==
          7000); /* the obsolete RFC 850 form */

    for (i = 0; i < sizeof ms_cases / sizeof ms_cases[0]; i++) {
        w = retry_after_ms_parse(ms_cases[i].value);
        CHECK_MSG(w == ms_cases[i].want,
                  "retry-after-ms '%s': %lld, want "
                  "%lld",
                  ms_cases[i].value ? ms_cases[i].value : "NULL", (long long)w,
                  (long long)ms_cases[i].want);
    }

    /* the server's wait wins, retry-after-ms before Retry-After */
    CHECK(retry_wait_ms("3", NULL, 2, at, &rng, &from_server) == 3000 &&
          from_server);
    CHECK(retry_wait_ms("3", "250", 2, at, &rng, &from_server) == 250 &&
          from_server);
    CHECK(retry_wait_ms("junk", "junk", 2, at, &rng, &from_server) < 500 &&
          !from_server);

    /* backoff: base doubling per retry, capped, jitter in [50%, 100%) */
    for (i = 0; i < 200; i++) {
        w = retry_wait_ms(NULL, NULL, 2, at, &rng, &from_server);
        CHECK(!from_server && w >= 250 && w < 500);
        w = retry_wait_ms(NULL, NULL, 3, at, &rng, &from_server);
        CHECK(w >= 500 && w < 1000);
        w = retry_wait_ms(NULL, NULL, 20, at, &rng, &from_server);
        CHECK(w >= RETRY_BACKOFF_MAX_MS / 2 && w < RETRY_BACKOFF_MAX_MS);
    }
    /* jitter varies, and a seed repeats */
    rng = 7;
    w = retry_wait_ms(NULL, NULL, 4, at, &rng, &from_server);
    w2 = retry_wait_ms(NULL, NULL, 4, at, &rng, &from_server);
    CHECK(w != w2);
    rng = rng2 = 9;
    CHECK(retry_wait_ms(NULL, NULL, 5, at, &rng, &from_server) ==
          retry_wait_ms(NULL, NULL, 5, at, &rng2, &from_server));
    return CHECK_DONE();
}
