/* run_requests: starting requests (request records) and finishing them
 * (result records, counts). */
#include "run_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "request_body.h"
#include "retry.h"
#include "sanitize.h"

/* The max_tokens to send: --max-tokens, else the line's, else the class's,
 * else none (anthropic requires one: 1024). */
static int64_t pick_max_tokens(const struct run *r,
                               const struct workload_class *c,
                               const struct workload_item *it)
{
    if (r->cfg->max_tokens > 0)
        return r->cfg->max_tokens;
    if (it->max_tokens > 0)
        return it->max_tokens;
    if (c->default_max_tokens > 0)
        return c->default_max_tokens;
    return r->cfg->api == API_ANTHROPIC ? 1024 : -1;
}

static void link_transfer(struct run *r, struct transfer *t)
{
    t->prev = NULL;
    t->next = r->inflight;
    if (r->inflight)
        r->inflight->prev = t;
    r->inflight = t;
    r->n_inflight++;
    r->progress.in_flight = r->n_inflight;
}

void run_unlink_transfer(struct run *r, struct transfer *t)
{
    if (t->prev)
        t->prev->next = t->next;
    else
        r->inflight = t->next;
    if (t->next)
        t->next->prev = t->prev;
    r->n_inflight--;
    r->progress.in_flight = r->n_inflight;
}

/* Requests in flight plus those waiting to retry. */
uint64_t run_busy(const struct run *r)
{
    return r->n_inflight + r->n_waiting;
}

/* Starts the next request of the schedule; scheduled_ns is its intended
 * send time (-1 in a closed loop). */
void run_start_next(struct run *r, int64_t scheduled_ns)
{
    struct schedule_slot slot;
    if (!schedule_slot(&r->sched, r->next_k, &slot))
        return;
    r->next_k++;
    run_start_attempt(r, r->next_k - 1, scheduled_ns, 1, 0);
}

/* Starts one attempt of schedule slot k and writes its request record. */
void run_start_attempt(struct run *r, uint64_t k, int64_t scheduled_ns,
                       uint32_t attempt, uint32_t retry_of)
{
    struct schedule_slot slot;
    const struct workload_class *c;
    const struct workload_item *it;
    struct request_body_opts bo;
    struct trace_request req;
    struct transfer *t;
    char rid[48];
    char *body, *scrubbed = NULL;
    if (!schedule_slot(&r->sched, k, &slot))
        return;
    c = &r->s->wl->classes[slot.cls];
    it = &c->items[slot.round % c->n_items];
    memset(&bo, 0, sizeof bo);
    bo.api = r->cfg->api;
    bo.model = r->cfg->models[slot.model];
    bo.max_tokens = pick_max_tokens(r, c, it);
    bo.ignore_eos = r->cfg->ignore_eos;
    bo.extra = r->s->extra_body;
    body = request_body_build(&bo, it);
    if (!body) {
        run_set_fatal(r, RUN_E_NOMEM);
        return;
    }
    r->next_id++;
    snprintf(rid, sizeof rid, "%s-%u", r->s->trace_id, (unsigned)r->next_id);
    if (transfer_new(&r->tc, &r->env, r->next_id,
                     r->cfg->no_request_id ? NULL : rid, body, &t)) {
        run_set_fatal(r, RUN_E_NOMEM);
        return;
    }
    t->slot_k = k;
    t->attempt = attempt;
    t->retry_of = retry_of;
    t->scheduled_ns = scheduled_ns;
    t->warmup = slot.warmup;
    t->start_ns = clock_mono_ns();
    if (evloop_add(r->loop, t->easy)) {
        transfer_free(t);
        run_set_fatal(r, RUN_E_NOMEM);
        return;
    }
    link_transfer(r, t);
    memset(&req, 0, sizeof req);
    req.id = t->id;
    req.model = bo.model;
    req.class_name = c->name;
    req.prompt_index = it->index;
    req.input_tokens_est = it->input_tokens_est;
    req.max_tokens = bo.max_tokens;
    req.warmup = slot.warmup;
    req.scheduled_ns = scheduled_ns;
    req.start_ns = t->start_ns;
    req.attempt = attempt;
    req.retry_of = retry_of;
    req.request_id = r->cfg->no_request_id ? NULL : t->request_id;
    req.body = r->cfg->no_content ? NULL : t->body;
    req.body_len = r->cfg->no_content ? 0 : t->body_len;
    if (req.body && r->s->key && strstr(t->body, r->s->key)) {
        /* the key was put into the body (--extra-body): never store it */
        scrubbed = sanitize_key_only(t->body, r->s->key);
        if (!scrubbed) {
            run_set_fatal(r, RUN_E_NOMEM);
            return;
        }
        req.body = scrubbed;
        req.body_len = strlen(scrubbed);
    }
    run_check_write(r, trace_write_request(r->s->writer, &req));
    free(scrubbed);
}

/* Counts a failure of kind. */
static void count_kind(struct run_outcome *o, const char *kind)
{
    size_t i;
    for (i = 0; i < o->n_kinds; i++) {
        if (strcmp(o->kinds[i].kind, kind) == 0) {
            o->kinds[i].count++;
            return;
        }
    }
    if (o->n_kinds == RUN_MAX_KINDS)
        return;
    snprintf(o->kinds[o->n_kinds].kind, sizeof o->kinds[0].kind, "%s", kind);
    o->kinds[o->n_kinds++].count = 1;
}

/* Counts a final failure of kind (outcome and progress). */
void run_count_failure(struct run *r, const char *kind)
{
    r->out->failed++;
    r->progress.errors++;
    r->progress.done++;
    count_kind(r->out, kind);
}

/* Writes the result of a finished (or stopped) transfer and frees it. A
 * failed attempt that --retry sends again is counted as retried, not as a
 * request: the request ends with its last attempt. */
static void finish(struct run *r, struct transfer *t, CURLcode code)
{
    struct trace_result res;
    struct run_retry *again;
    char kind_buf[32], msg[CURL_ERROR_SIZE + 128];
    int64_t end_ns = clock_mono_ns();
    run_unlink_transfer(r, t);
    if (r->env.write_err) {
        run_set_fatal(r, RUN_E_WRITE);
        transfer_free(t);
        return;
    }
    transfer_result(t, &r->tc, code, end_ns, &res, kind_buf, sizeof kind_buf,
                    msg, sizeof msg);
    again = run_retry_plan(r, t, &res);
    if (run_check_write(r, trace_write_result(r->s->writer, &res))) {
        run_retry_drop(again);
        transfer_free(t);
        return;
    }
    r->out->requests++;
    r->out->chunks += t->chunks;
    r->out->bytes += t->bytes;
    if (again && run_retry_arm(r, again) == 0) {
        r->out->retried++;
        r->progress.retries++;
        transfer_free(t);
        return;
    }
    if (t->warmup)
        r->out->warmup++;
    if (res.error_kind[0]) {
        if (r->cfg->retry > 0 && t->attempt > r->cfg->retry &&
            retry_status_retryable(res.http_status))
            r->out->retry_exhausted++;
        run_count_failure(r, res.error_kind);
    } else {
        r->out->ok++;
        r->progress.done++;
    }
    transfer_free(t);
}

/* Closed loop: keeps the configured number of requests in flight. */
void run_refill(struct run *r)
{
    if (r->cfg->rate > 0)
        return;
    while (run_busy(r) < r->max_inflight && run_has_next(r))
        run_start_next(r, -1);
}

/* evloop: a transfer ended. */
void run_on_done(void *ud, CURL *easy, CURLcode code)
{
    struct run *r = ud;
    struct transfer *t = NULL;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&t);
    if (!t)
        return;
    finish(r, t, code);
    if (r->fatal)
        return;
    run_refill(r);
    run_check_end(r);
}

/* Stops a running transfer and records it with the given error kind. */
void run_stop_transfer(struct run *r, struct transfer *t, const char *kind)
{
    evloop_remove(r->loop, t->easy);
    t->forced_kind = kind;
    finish(r, t, CURLE_OK);
}
