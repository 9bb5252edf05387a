/* share_headers: the response headers a shared trace keeps: what helps a
 * vendor find the request in its logs and see limits, routing and buffering,
 * and the content type the analyzer reads; every other value is dropped
 * (location, and the redacted credentials' "[redacted]" markers). */
#include <string.h>
#include <strings.h>

#include "share.h"

static const char *const kept[] = {
    "content-type",
    "content-length",
    "content-encoding",
    "transfer-encoding",
    "x-request-id",
    "request-id",
    "x-amzn-requestid",
    "cf-ray",
    "openai-processing-ms",
    "openai-version",
    "openai-model",
    "retry-after",
    "retry-after-ms",
    "server",
    "via",
    "date",
    "x-cache",
    "x-envoy-upstream-service-time",
    "age",
};

static const char *const kept_prefixes[] = {
    "x-ratelimit-",
    "anthropic-ratelimit-",
    "ratelimit-",
};

bool share_header_kept(const char *name)
{
    for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
        if (strcasecmp(name, kept[i]) == 0)
            return true;
    for (size_t i = 0; i < sizeof(kept_prefixes) / sizeof(kept_prefixes[0]);
         i++)
        if (strncasecmp(name, kept_prefixes[i], strlen(kept_prefixes[i])) == 0)
            return true;
    return false;
}
