/* check_probe: one --check probe. A short streaming request sent with the
 * recorder's own transfer code (same headers, same timestamps, the same
 * receive path, stream_rx.h, recorded to a trace when there is a writer),
 * its stream's facts as the analyzer's parser found them
 * (common/stream_events.h, with every token event kept), and the facts a
 * verdict needs. */
#ifndef TT_RECORD_CHECK_PROBE_H
#define TT_RECORD_CHECK_PROBE_H

#include <curl/curl.h>
#include <stdint.h>

#include "buf.h"
#include "check_verdict.h"
#include "reply_inspect.h"
#include "stream_events.h"
#include "trace.h"
#include "transfer.h"

#define CHECK_BODY_MAX ((size_t)64 << 10)

struct check_probe_setup {
    const struct transfer_config *tc; /* its api: how events are read */
    struct transfer_env *env;         /* env->writer NULL: nothing recorded */
    double idle_timeout_s;
    const char *key; /* scrubbed from the server's messages; may be NULL */
};

/* What one probe saw; owns the strings its facts point to. */
struct check_probe {
    struct stream_state stream; /* the transfer's, moved out at its end */
    struct buf body;            /* the first CHECK_BODY_MAX body bytes */
    struct reply_inspect_facts info;
    char kind[32];
    char curl_error[CURL_ERROR_SIZE];
    char content_type[128];
    char retry_after[64];
    char location[512];
    char host[256];
    char stream_message[256]; /* the stream's error message, key scrubbed */
    char waterfall[512];      /* waterfall_describe of the probe */
    int64_t start_ns;
    uint64_t chunks; /* receives (chunk records) */
    uint64_t bytes;  /* body bytes */
};

/* Sends body (malloc'd; ownership taken) for the request described by req
 * (the caller fills model, ids and sizes; start_ns, body and body_len are
 * set here; store_body false leaves the body out of the trace) and waits
 * for the end. Writes the request, chunk and result records when there is
 * a writer. Fills the transfer and stream parts of *f (the caller fills
 * what was sent and the key). Returns 0, or -1 when out of memory or when
 * the trace could not be written. Call check_probe_free afterwards in every
 * case. */
int check_probe_run(const struct check_probe_setup *s, char *body,
                    bool store_body, struct trace_request *req,
                    struct check_probe *p, struct probe_facts *f);

/* Frees the probe's memory. */
void check_probe_free(struct check_probe *p);

#endif
