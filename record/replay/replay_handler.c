/* replay_handler: routes each HTTP request (API endpoints, models, stats),
 * checks the key and the body, picks faults and starts its stream. */
#include <event2/buffer.h>
#include <event2/http.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "clock.h"
#include "json_escape.h"
#include "replay_bodies.h"
#include "replay_prefix.h"
#include "replay_request.h"
#include "replay_send_log.h"
#include "replay_server.h"
#include "replay_stream.h"
#include "replay_synth_stream.h"
#include "replay_trace_source.h"
#include "replay_trace_stream.h"

enum route {
    ROUTE_NONE,
    ROUTE_API,
    ROUTE_MODELS,
    ROUTE_STATS,
};

/* Faults that replace the whole reply; in trace mode they are served
 * synthetically, the others do not apply. */
#define SHAPE_FAULTS                                                           \
    (FAULT_BIT(FAULT_HTTP_401) | FAULT_BIT(FAULT_HTTP_403) |                   \
     FAULT_BIT(FAULT_HTTP_404) | FAULT_BIT(FAULT_HTTP_429) |                   \
     FAULT_BIT(FAULT_HTTP_500) | FAULT_BIT(FAULT_HTML) |                       \
     FAULT_BIT(FAULT_NO_STREAM) | FAULT_BIT(FAULT_ACCEPT_NO_ANSWER) |          \
     FAULT_BIT(FAULT_HEADERS_ONLY) | FAULT_BIT(FAULT_ENDLESS_LINE))

/* True when s ends with suffix. */
static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Maps a path to its route; any prefix before /v1/... is accepted so base
 * URLs like http://host/api work. */
static enum route route_of(const char *path, enum api_kind *api)
{
    if (path == NULL)
        return ROUTE_NONE;
    if (strcmp(path, "/_replay/stats") == 0)
        return ROUTE_STATS;
    for (int k = 0; k < API_KIND_COUNT; k++) {
        if (ends_with(path, api_kind_path((enum api_kind)k))) {
            *api = (enum api_kind)k;
            return ROUTE_API;
        }
    }
    if (ends_with(path, "/v1/models"))
        return ROUTE_MODELS;
    return ROUTE_NONE;
}

/* Compares without an early exit, so timing does not leak the key. */
static bool same_secret(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), i;
    unsigned char diff = na != nb;

    for (i = 0; i < na && i < nb; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

/* True when the request carries the expected key (or none is expected). */
static bool key_ok(const struct replay_config *cfg, struct evhttp_request *req,
                   enum api_kind api)
{
    struct evkeyvalq *in = evhttp_request_get_input_headers(req);
    const char *auth, *xkey;

    if (cfg->expected_key == NULL)
        return true;
    auth = evhttp_find_header(in, "Authorization");
    if (auth != NULL && strncasecmp(auth, "Bearer ", 7) == 0 &&
        same_secret(auth + 7, cfg->expected_key))
        return true;
    xkey = evhttp_find_header(in, "x-api-key");
    return api == API_ANTHROPIC && xkey != NULL &&
           same_secret(xkey, cfg->expected_key);
}

/* The key the request carried (Bearer, else x-api-key), "no-key-sent"
 * without one; *bearer tells which (NULL: not asked). */
static const char *request_key(struct evhttp_request *req, bool *bearer)
{
    struct evkeyvalq *in = evhttp_request_get_input_headers(req);
    const char *auth = evhttp_find_header(in, "Authorization");
    const char *key = evhttp_find_header(in, "x-api-key");
    bool b = auth != NULL && strncasecmp(auth, "Bearer ", 7) == 0;

    if (bearer != NULL)
        *bearer = b;
    if (b)
        return auth + 7;
    return key != NULL ? key : "no-key-sent";
}

/* leaky-headers: echoes the key the request carried (Bearer or
 * x-api-key) in the response headers that carry credentials, and inside
 * the values of ordinary ones (Location, x-amzn-requestid), as a broken
 * gateway might; clients must not store them. */
static void leak_credentials(struct evhttp_request *req)
{
    struct evkeyvalq *out = evhttp_request_get_output_headers(req);
    const char *key = request_key(req, NULL);
    char line[1024];

    snprintf(line, sizeof(line), "session=%s; Path=/; HttpOnly", key);
    evhttp_add_header(out, "Set-Cookie", line);
    evhttp_add_header(out, "x-api-key", key);
    evhttp_add_header(out, "api-key", key);
    snprintf(line, sizeof(line), "Bearer %s", key);
    evhttp_add_header(out, "Proxy-Authorization", line);
    evhttp_add_header(out, "Authorization", line);
    snprintf(line, sizeof(line), "https://gateway.invalid/v1/s?key=%s&x=1",
             key);
    evhttp_add_header(out, "Location", line);
    snprintf(line, sizeof(line), "gw-%s-%s", key, key);
    evhttp_add_header(out, "x-amzn-requestid", line);
}

/* Sends an error reply with an error JSON body. */
static void reply_error(struct replay_server *srv, struct evhttp_request *req,
                        const char *log_id, enum api_kind api, int status,
                        const char *message)
{
    struct buf b;

    buf_init(&b, 0);
    replay_body_error(&b, api, status, message, NULL);
    replay_streams_reply(srv->streams, req, log_id, status, "application/json",
                         NULL, NULL, b.data, b.len);
    buf_free(&b);
}

/* GET /v1/models: the profile (or recorded) model names. */
static void reply_models(struct replay_server *srv, struct evhttp_request *req,
                         const char *log_id)
{
    const struct synth_spec *sp = &srv->cfg->synth;
    struct buf b;
    size_t i, n = 0;
    int count = 0;

    buf_init(&b, 0);
    buf_puts(&b, "{\"object\":\"list\",\"data\":[");
    if (srv->trace != NULL) {
        const char *m = replay_trace_source_model(srv->trace, 0, &n);
        for (i = 0; m != NULL;
             m = replay_trace_source_model(srv->trace, ++i, &n)) {
            buf_printf(&b, "%s{\"id\":\"", count++ ? "," : "");
            json_escape_cstr(&b, m);
            buf_puts(&b, "\",\"object\":\"model\",\"owned_by\":\"replay\"}");
        }
    } else {
        for (i = 0; i < sp->n_models; i++) {
            buf_printf(&b, "%s{\"id\":\"", count++ ? "," : "");
            json_escape_cstr(&b, sp->models[i].model);
            buf_puts(&b, "\",\"object\":\"model\",\"owned_by\":\"replay\"}");
        }
    }
    if (count == 0)
        buf_puts(&b, "{\"id\":\"" REPLAY_DEFAULT_MODEL
                     "\",\"object\":\"model\",\"owned_by\":\"replay\"}");
    buf_puts(&b, "]}");
    replay_streams_reply(srv->streams, req, log_id, 200, "application/json",
                         NULL, NULL, b.data, b.len);
    buf_free(&b);
}

/* GET /_replay/stats: counters for tests and demos. */
static void reply_stats(struct replay_server *srv, struct evhttp_request *req,
                        const char *log_id)
{
    char body[256];
    int n = snprintf(body, sizeof(body),
                     "{\"requests\":%llu,\"active_streams\":%zu,"
                     "\"aborted_streams\":%llu,\"images\":%llu}",
                     (unsigned long long)srv->n_requests,
                     replay_streams_active(srv->streams),
                     (unsigned long long)replay_streams_aborted(srv->streams),
                     (unsigned long long)srv->n_images);
    replay_streams_reply(srv->streams, req, log_id, 200, "application/json",
                         NULL, NULL, body, (size_t)n);
}

/* Faults whose reply takes no decode slot (no generation happens). */
#define NO_SLOT_FAULTS                                                         \
    (FAULT_BIT(FAULT_HTTP_401) | FAULT_BIT(FAULT_HTTP_403) |                   \
     FAULT_BIT(FAULT_HTTP_404) | FAULT_BIT(FAULT_HTTP_429) |                   \
     FAULT_BIT(FAULT_HTTP_500) | FAULT_BIT(FAULT_HTML) |                       \
     FAULT_BIT(FAULT_ACCEPT_NO_ANSWER) | FAULT_BIT(FAULT_HEADERS_ONLY) |       \
     FAULT_BIT(FAULT_ENDLESS_LINE))

/* The profile the request is served with: its model's, or with the batch
 * model (capacity=N) a copy in *timed whose TTFT includes the wait for a
 * decode slot and whose TPOT is that of the batch it joined. */
static const struct synth_profile *
admitted(struct replay_server *srv, const struct replay_req_info *info,
         replay_fault_set faults, int64_t arrival, struct synth_profile *timed)
{
    const struct synth_spec *sp = &srv->cfg->synth;
    const struct synth_profile *p = synth_spec_lookup(sp, info->model);
    size_t slot = p == &sp->def ? SYNTH_MAX_MODELS : (size_t)(p - sp->models);
    struct replay_admit a;
    if (p->capacity == 0 || (faults & NO_SLOT_FAULTS) != 0)
        return p;
    *timed = *p;
    timed->ttft_ns =
        p->ttft_ns + p->ttft_per_1k_ns *
                         (info->input_tokens -
                          (info->cached_tokens > 0 ? info->cached_tokens : 0)) /
                         1000;
    timed->ttft_per_1k_ns = 0;
    replay_capacity_admit(
        &srv->capacity[slot], arrival, timed->ttft_ns,
        replay_synth_output_tokens(p, info->max_tokens, info->min_tokens),
        p->tpot_ns, p->batch_tpot_ns, &a);
    timed->ttft_ns += a.queue_ns;
    timed->tpot_ns = a.tpot_ns;
    return timed;
}

/* --synthetic cache=N: how many of the request's input tokens the
 * model's prefix cache holds (info->cached_tokens; -1 without a cache),
 * and the request's blocks are cached from now on. Out of memory: none
 * cached. */
static void look_up_cache(struct replay_server *srv,
                          struct replay_req_info *info, const char *body,
                          size_t len)
{
    const struct synth_profile *p =
        synth_spec_lookup(&srv->cfg->synth, info->model);
    struct replay_prefix_cache *c;
    uint64_t *blocks;
    size_t n, hit;
    info->cached_tokens = -1;
    if (p->cache_tokens <= 0)
        return;
    info->cached_tokens = 0;
    c = replay_prefix_caches_get(
        &srv->caches, info->model,
        (size_t)(p->cache_tokens / REPLAY_PREFIX_BLOCK_TOKENS) + 1);
    if (!c || replay_prefix_blocks(info->api, body, len, &blocks, &n))
        return;
    hit = replay_prefix_cache_use(c, blocks, n);
    free(blocks);
    info->cached_tokens = (int64_t)hit * REPLAY_PREFIX_BLOCK_TOKENS;
    if (info->cached_tokens > info->input_tokens)
        info->cached_tokens = info->input_tokens;
}

/* Parses the body and starts the synthetic or recorded stream. */
static void serve_api(struct replay_server *srv, struct evhttp_request *req,
                      const char *log_id, enum api_kind api, uint64_t rr,
                      int64_t arrival)
{
    const struct replay_config *cfg = srv->cfg;
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t len = evbuffer_get_length(in);
    const char *body = len ? (const char *)evbuffer_pullup(in, -1) : "";
    struct replay_req_info info;
    replay_fault_set faults;
    char err[256], leak[SYNTH_LEAK_MAX] = "";
    struct synth_leak leak_to = {NULL, NULL};
    struct synth_profile timed;
    void *state = NULL;

    if (evhttp_request_get_command(req) != EVHTTP_REQ_POST) {
        reply_error(srv, req, log_id, api, 405, "Use POST on this endpoint");
        return;
    }
    if (!key_ok(cfg, req, api)) {
        reply_error(srv, req, log_id, api, 401,
                    api == API_ANTHROPIC
                        ? "invalid x-api-key"
                        : "Incorrect API key provided (expected "
                          "'Authorization: Bearer <key>')");
        return;
    }
    if (replay_request_parse(api, body, len, &info, err, sizeof(err)) != 0) {
        reply_error(srv, req, log_id, api, 400, err);
        return;
    }
    srv->n_images += (uint64_t)info.images;
    if (synth_spec_lookup(&cfg->synth, info.model)->count_words)
        info.input_tokens = info.input_words;
    faults = replay_faults_pick(cfg->faults, cfg->n_faults, info.model,
                                &srv->fault_rng);
    if (FAULT_HAS(faults, FAULT_LEAKY_HEADERS))
        leak_credentials(req);
    if (srv->trace != NULL && (faults & SHAPE_FAULTS) == 0) {
        const struct replay_recording *rec =
            replay_trace_source_pick(srv->trace, info.model);
        if (replay_trace_stream_new(rec, cfg->speed, arrival, &state) == 0)
            replay_stream_start(srv->streams, req, log_id,
                                &replay_trace_producer, state);
        else
            reply_error(srv, req, log_id, api, 500, "out of memory");
        return;
    }
    look_up_cache(srv, &info, body, len);
    if (FAULT_HAS(faults, FAULT_LEAKY_BODY)) {
        const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
        const char *path = uri ? evhttp_uri_get_path(uri) : NULL;
        bool bearer;
        const char *key = request_key(req, &bearer);
        snprintf(leak, sizeof(leak), "%s%s", bearer ? "Bearer " : "", key);
        leak_to.credential = leak;
        leak_to.path = path ? path : "/";
    }
    if (replay_synth_stream_new(
            &info, admitted(srv, &info, faults, arrival, &timed), faults, rr,
            cfg->seed, arrival, leak_to.credential ? &leak_to : NULL,
            &state) != 0) {
        reply_error(srv, req, log_id, api, 500, "out of memory");
        return;
    }
    replay_stream_start(srv->streams, req, log_id, &replay_synth_producer,
                        state);
}

/* Entry point for every request: ids, then routing. */
void replay_handle_request(struct evhttp_request *req, void *arg)
{
    struct replay_server *srv = arg;
    int64_t arrival = clock_mono_ns();
    uint64_t rr = ++srv->n_requests;
    struct evkeyvalq *in = evhttp_request_get_input_headers(req);
    struct evkeyvalq *out = evhttp_request_get_output_headers(req);
    const char *xid = evhttp_find_header(in, "X-Request-Id");
    const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
    enum api_kind api = API_OPENAI_CHAT;
    char rrid[32];

    snprintf(rrid, sizeof(rrid), "rr-%llu", (unsigned long long)rr);
    if (xid != NULL)
        evhttp_add_header(out, "X-Request-Id", xid);
    evhttp_add_header(out, "X-Replay-Request-Id", rrid);
    switch (route_of(uri ? evhttp_uri_get_path(uri) : NULL, &api)) {
    case ROUTE_API:
        serve_api(srv, req, xid, api, rr, arrival);
        return;
    case ROUTE_MODELS:
        reply_models(srv, req, xid);
        return;
    case ROUTE_STATS:
        reply_stats(srv, req, xid);
        return;
    case ROUTE_NONE:
        break;
    }
    reply_error(srv, req, xid, API_OPENAI_CHAT, 404,
                "Unknown path: this server serves POST /v1/chat/completions, "
                "/v1/completions and /v1/messages");
}
