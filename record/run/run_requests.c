/* run_requests: starting an attempt (request record) and ending it
 * (result record); the in-flight list. */
#include "run_requests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "captured_body.h"
#include "clock.h"
#include "error_classify.h"
#include "exact_prompt.h"
#include "log.h"
#include "reply_inspect.h"
#include "request_body.h"
#include "sanitize.h"
#include "tcp_rtt.h"

/* The head of an error reply's body, kept so the result's message can
 * carry the server's own words ("Incorrect API key provided") and not
 * only the status line. Bounded; only an error status (>= 400) fills it. */
#define REPLY_HEAD_MAX 4096
/* The server's part of a message: one line, at most this many bytes. */
#define SERVER_MESSAGE_MAX 200

struct reply_head {
    const struct transfer *t;
    struct reply_text *reply; /* a session's turn: its text, else NULL */
    size_t n;
    char data[REPLY_HEAD_MAX];
};

/* transfer observer: keeps the first bytes of an error reply's body. */
static void keep_head(void *ud, int64_t t_ns, const char *p, size_t n)
{
    struct reply_head *h = ud;
    (void)t_ns;
    if (h->reply && h->t->rx.resp.status < 300)
        reply_text_feed(h->reply, p, n);
    if (h->t->rx.resp.status < 400 || h->n == sizeof h->data)
        return;
    if (n > sizeof h->data - h->n)
        n = sizeof h->data - h->n;
    memcpy(h->data + h->n, p, n);
    h->n += n;
}

/* Frees the body head hung on t (NULL-safe, idempotent). */
static void drop_head(struct transfer *t)
{
    struct reply_head *h = t->observe_ud;
    if (t->observe != keep_head)
        return;
    reply_text_delete(h->reply);
    free(t->observe_ud);
    t->observe = NULL;
    t->observe_ud = NULL;
}

/* Appends the server's message from the JSON error body kept on t (the
 * key scrubbed, on one line, bounded) to the result's message. */
static void add_server_message(const struct run_requests *q,
                               const struct transfer *t, struct run_ended *e)
{
    const struct reply_head *h = t->observe_ud;
    struct reply_inspect_facts info;
    size_t len;
    if (t->observe != keep_head || !h->n || !e->res.error_message ||
        e->res.http_status < 400)
        return;
    reply_inspect(h->data, h->n, q->s->key, &info);
    if (!info.message[0])
        return;
    len = strlen(e->msg);
    snprintf(e->msg + len, sizeof e->msg - len, ": %.*s", SERVER_MESSAGE_MAX,
             info.message);
}

void run_requests_init(struct run_requests *q, const struct run_setup *s,
                       struct evloop *loop)
{
    const struct config *c = s->cfg;
    q->s = s;
    q->loop = loop;
    q->tc.url = s->url;
    q->tc.auth_header = s->auth_header;
    q->tc.api = c->api;
    q->tc.http2 = c->http2;
    q->tc.timeout_ms = (long)(c->timeout_s * 1000.0 + 0.5);
    q->tc.connect_timeout_ms = (long)(c->connect_timeout_s * 1000.0 + 0.5);
    q->tc.timeout_s = c->timeout_s;
    q->tc.idle_timeout_s = c->idle_timeout_s;
    q->tc.insecure = c->insecure;
    q->tc.cacert = c->cacert;
    q->tc.proxy = s->proxy ? s->proxy->url : NULL;
    q->tc.kernel_time = !c->chunk_time_user;
    q->env.writer = s->writer;
    q->env.receive_lag = &q->receive_lag;
}

int run_requests_note_write(struct run_requests *q, int err)
{
    if (!err)
        return RUN_OK;
    if (!q->env.write_err)
        q->env.write_err = err;
    return RUN_E_WRITE;
}

/* The max_tokens to send: --max-tokens, else the line's, else the class's,
 * else none (anthropic requires one: 1024). */
static int64_t pick_max_tokens(const struct config *cfg,
                               const struct workload_class *c,
                               const struct workload_item *it)
{
    if (cfg->max_tokens > 0)
        return cfg->max_tokens;
    if (it->max_tokens > 0)
        return it->max_tokens;
    if (c->default_max_tokens > 0)
        return c->default_max_tokens;
    return cfg->api == API_ANTHROPIC ? 1024 : -1;
}

static void link_transfer(struct run_requests *q, struct transfer *t)
{
    t->prev = NULL;
    t->next = q->inflight;
    if (q->inflight)
        q->inflight->prev = t;
    q->inflight = t;
    q->n_inflight++;
}

static void unlink_transfer(struct run_requests *q, struct transfer *t)
{
    if (t->prev)
        t->prev->next = t->next;
    else
        q->inflight = t->next;
    if (t->next)
        t->next->prev = t->prev;
    q->n_inflight--;
}

/* The max_tokens the body asks for: --extra-body's max_tokens,
 * max_completion_tokens or max_output_tokens (the Responses API's) replace
 * the recorder's, so the request record says what was sent. */
static int64_t sent_max_tokens(const cJSON *extra, int64_t recorder_s)
{
    static const char *const names[] = {"max_completion_tokens", "max_tokens",
                                        "max_output_tokens"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(extra, names[i]);
        if (cJSON_IsNumber(v) && v->valuedouble >= 1 && v->valuedouble < 1e15)
            return (int64_t)v->valuedouble;
    }
    return recorder_s;
}

/* Writes the request record of t, just started with body options bo for
 * item it of class c. Returns a run_err. */
static int write_request(struct run_requests *q, const struct transfer *t,
                         int64_t released_ns,
                         const struct request_body_opts *bo,
                         const struct workload_class *c,
                         const struct workload_item *it,
                         const struct run_session *sess, int64_t input_est,
                         const int64_t asked[2])
{
    const struct config *cfg = q->s->cfg;
    struct trace_request req;
    char *scrubbed = NULL;
    int rc;
    memset(&req, 0, sizeof req);
    req.id = t->id;
    req.model = bo->model;
    req.class_name = c->name;
    req.prompt_index = it->index;
    req.input_tokens_est = it->input_tokens_est;
    req.max_tokens = sent_max_tokens(q->s->extra_body, bo->max_tokens);
    req.warmup = t->warmup;
    req.scheduled_ns = t->scheduled_ns;
    req.start_ns = t->start_ns;
    req.attempt = t->attempt;
    req.retry_of = t->retry_of;
    req.stage = q->stage;
    req.cap_released_ns = released_ns;
    if (sess) {
        req.session = sess->id;
        req.turn = sess->turn + 1;
        req.think_ns = sess->turn ? sess->think_ns : 0;
        req.input_tokens_est = input_est;
        if (sess->ws->turns[sess->turn].body) /* a capture's turn */
            req.prompt_index = sess->ws->turns[sess->turn].captured_id;
    }
    req.asked_input_tokens = asked[0];
    req.asked_output_tokens = asked[1];
    if (asked[0] > 0)
        req.input_tokens_est = asked[0];
    req.request_id = cfg->no_request_id ? NULL : t->request_id;
    req.body = cfg->no_content ? NULL : t->body;
    req.body_len = cfg->no_content ? 0 : t->body_len;
    req.body_bytes = cfg->no_content ? (int64_t)t->body_len : 0;
    if (req.body && q->s->key && strstr(t->body, q->s->key)) {
        /* the key was put into the body (--extra-body): never store it */
        scrubbed = sanitize_key_only(t->body, q->s->key);
        if (!scrubbed)
            return RUN_E_NOMEM;
        req.body = scrubbed;
        req.body_len = strlen(scrubbed);
    }
    rc = run_requests_note_write(q, trace_write_request(q->s->writer, &req));
    free(scrubbed);
    return rc;
}

/* The body of a session's current turn: its history as messages.
 * Returns a malloc'd string (its input estimate in *est) or NULL. */
static char *session_body(const struct run_requests *q,
                          const struct request_body_opts *bo,
                          const struct run_session *sess, int64_t *est)
{
    struct workload_item tmp;
    cJSON *msgs = run_session_messages(sess, q->s->cfg->history);
    char *body;
    if (!msgs)
        return NULL;
    memset(&tmp, 0, sizeof tmp);
    tmp.messages = msgs;
    *est = workload_messages_chars(msgs) / 4;
    body = request_body_build(bo, &tmp);
    cJSON_Delete(msgs); /* references only: the history stays shared */
    return body;
}

/* Request k's length from l (salt: 1 input, 2 output); a first clamp
 * to 1 is said once. */
static int64_t draw(struct run_requests *q, const struct token_length *l,
                    uint64_t salt, uint64_t k)
{
    bool clamped;
    int64_t v = token_length_draw(l, q->s->cfg->seed, salt, k, &clamped);
    if (clamped && !q->clamp_said) {
        char spec[64];
        token_length_format(l, spec, sizeof spec);
        log_warn("--%s %s: a draw fell outside 1..%d and was clamped "
                 "(the request's asked_%s_tokens says what was asked)",
                 salt == 1 ? "input-tokens" : "output-tokens", spec,
                 TOKEN_LENGTH_MAX, salt == 1 ? "input" : "output");
        q->clamp_said = true;
    }
    return v;
}

/* --output-tokens: request k's M as max_tokens, with ignore_eos and
 * min_tokens M where the API kind has them (vLLM, SGLang and their kin
 * on the OpenAI paths). Returns M. */
static int64_t exact_output(struct run_requests *q, uint64_t k,
                            struct request_body_opts *bo)
{
    int64_t m = draw(q, &q->s->cfg->output_tokens, 2, k);
    bool openai =
        bo->api == API_OPENAI_CHAT || bo->api == API_OPENAI_COMPLETIONS;
    bo->max_tokens = m;
    if (openai) {
        bo->ignore_eos = true;
        bo->min_tokens = m;
    }
    return m;
}

/* A captured request's body (workload_captured.h), the item's or the
 * session turn's, with its model replaced: the rest as captured. NULL
 * when out of memory. */
static char *captured(const struct run_session *sess,
                      const struct workload_item *it, const char *model,
                      int64_t *est)
{
    const char *b = it->body;
    size_t len = it->body_len, out_len = 0;
    if (sess) {
        b = sess->ws->turns[sess->turn].body;
        len = sess->ws->turns[sess->turn].body_len;
    }
    *est = (int64_t)(len / 4);
    return captured_body_with_model(b, len, model, &out_len);
}

/* Hangs the observer on t: the head of an error body and, for a
 * session's turn, its reply text. Out of memory: the status line only. */
static void observe(struct transfer *t, bool reply)
{
    struct reply_head *h = calloc(1, sizeof *h);
    if (!h)
        return;
    h->t = t;
    if (reply)
        h->reply = reply_text_new();
    t->observe_ud = h;
    t->observe = keep_head;
}

int run_requests_start(struct run_requests *q, uint64_t k,
                       const struct schedule_slot *slot, int64_t scheduled_ns,
                       int64_t released_ns, uint32_t attempt, uint32_t retry_of,
                       struct run_session *sess)
{
    const struct config *cfg = q->s->cfg;
    const struct workload_class *c = &q->s->wl->classes[slot->cls];
    const struct workload_item *it = &c->items[slot->round % c->n_items];
    struct request_body_opts bo;
    struct transfer *t;
    char rid[48];
    struct workload_item exact;
    char *body;
    int64_t est = -1, asked[2] = {-1, -1};
    memset(&bo, 0, sizeof bo);
    memset(&exact, 0, sizeof exact);
    bo.api = cfg->api;
    bo.model = cfg->models[slot->model];
    bo.max_tokens = pick_max_tokens(cfg, c, it);
    bo.ignore_eos = cfg->ignore_eos;
    bo.extra = q->s->extra_body;
    if (cfg->output_tokens.kind != TOKEN_LENGTH_NONE)
        asked[1] = exact_output(q, k, &bo);
    if (it->exact && q->s->fits) {
        asked[0] = draw(q, &cfg->input_tokens, 1, k);
        exact = *it;
        /* numbered from 1: the calibration probes were request 0, and a
         * prefix cache must not find them in the first request */
        exact.prompt = exact_prompt_text(&q->s->fits[slot->model], k + 1,
                                         asked[0], cfg->shared_prefix);
        if (!exact.prompt)
            return RUN_E_NOMEM;
    }
    if (sess ? sess->ws->turns[sess->turn].body != NULL : it->body != NULL)
        body = captured(sess, it, bo.model, &est);
    else
        body = sess           ? session_body(q, &bo, sess, &est)
               : exact.prompt ? request_body_build(&bo, &exact)
                              : request_body_build(&bo, it);
    free(exact.prompt);
    if (!body)
        return RUN_E_NOMEM;
    q->next_id++;
    snprintf(rid, sizeof rid, "%s-%u", q->s->trace_id, (unsigned)q->next_id);
    if (transfer_new(&q->tc, &q->env, q->next_id,
                     cfg->no_request_id ? NULL : rid, body, &t))
        return RUN_E_NOMEM;
    t->slot_k = k;
    t->model = (uint32_t)slot->model;
    t->session = sess;
    t->attempt = attempt;
    t->retry_of = retry_of;
    t->scheduled_ns = scheduled_ns;
    t->warmup = slot->warmup;
    t->start_ns = clock_mono_ns();
    if (evloop_add(q->loop, t->easy)) {
        transfer_free(t);
        return RUN_E_NOMEM;
    }
    link_transfer(q, t);
    /* the reply is kept only when a later turn carries it */
    observe(t, sess && run_session_has_more(sess));
    return write_request(q, t, released_ns, &bo, c, it, sess, est, asked);
}

/* A connection that failed: the system's reason ("Connection refused")
 * after libcurl's words, which do not always name it. */
static void add_os_error(const struct transfer *t, struct run_ended *e)
{
    long os_errno = 0;
    size_t len;
    if (!e->res.error_message || strcmp(e->res.error_kind, "connect") != 0 ||
        curl_easy_getinfo(t->easy, CURLINFO_OS_ERRNO, &os_errno) != CURLE_OK ||
        os_errno <= 0)
        return;
    len = strlen(e->msg);
    snprintf(e->msg + len, sizeof e->msg - len, " (%s)",
             strerror((int)os_errno));
}

int run_requests_end(struct run_requests *q, struct transfer *t, CURLcode code,
                     int64_t end_ns, struct run_ended *e)
{
    unlink_transfer(q, t);
    if (q->env.write_err) {
        drop_head(t);
        return RUN_E_WRITE;
    }
    transfer_result(t, &q->tc, code, end_ns, &e->res, e->kind, sizeof e->kind,
                    e->msg, sizeof e->msg);
    add_server_message(q, t, e);
    add_os_error(t, e);
    e->sse_mislabelled = error_classify_sse_mislabelled(
        t->rx.resp.status, t->rx.resp.content_type, stream_rx_sse(&t->rx));
    snprintf(e->content_type, sizeof e->content_type, "%s",
             e->sse_mislabelled ? t->rx.resp.content_type : "");
    e->reply = NULL;
    if (t->observe == keep_head) {
        struct reply_head *h = t->observe_ud;
        e->reply = h->reply; /* handed to the caller */
        h->reply = NULL;
    }
    drop_head(t);
    return RUN_OK;
}

int run_requests_write_result(struct run_requests *q, const struct run_ended *e)
{
    return run_requests_note_write(q,
                                   trace_write_result(q->s->writer, &e->res));
}

void run_requests_stop(struct run_requests *q, struct transfer *t,
                       const char *kind)
{
    evloop_remove(q->loop, t->easy);
    t->forced_kind = kind;
}

void run_requests_free_all(struct run_requests *q)
{
    while (q->inflight) {
        struct transfer *t = q->inflight;
        evloop_remove(q->loop, t->easy);
        unlink_transfer(q, t);
        drop_head(t);
        transfer_free(t);
    }
    lag_samples_free(&q->receive_lag);
    tcp_socks_free(&q->env.socks);
}
