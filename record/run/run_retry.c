/* run_retry: the retry facts of an ended attempt and the waiting list. */
#include "run_retry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "retry.h"
#include "run_outcome.h"

bool run_retry_wanted(uint64_t max_retries, const struct transfer *t,
                      const struct trace_result *res)
{
    return max_retries > 0 && t->attempt <= max_retries && !t->forced_kind &&
           strncmp(res->error_kind, "http_", 5) == 0 &&
           retry_status_retryable(res->http_status);
}

int64_t run_retry_wait_ms(const struct trace_result *res, uint32_t next_attempt,
                          uint64_t *rng)
{
    bool from_server;
    return retry_wait_ms(trace_result_header(res, "retry-after"),
                         trace_result_header(res, "retry-after-ms"),
                         next_attempt, (time_t)(clock_real_ns() / 1000000000),
                         rng, &from_server);
}

bool run_retry_exhausted(uint64_t max_retries, const struct transfer *t,
                         const struct trace_result *res)
{
    return max_retries > 0 && t->attempt > max_retries &&
           retry_status_retryable(res->http_status);
}

struct run_retry *run_retry_new(const struct transfer *t,
                                const struct trace_result *res)
{
    struct run_retry *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->slot_k = t->slot_k;
    w->session = t->session;
    w->first_id = t->retry_of ? t->retry_of : t->id;
    w->attempt = t->attempt + 1;
    w->warmup = t->warmup;
    snprintf(w->last_kind, sizeof w->last_kind, "%s", res->error_kind);
    return w;
}

void run_retry_free(struct run_retry *w)
{
    if (!w)
        return;
    if (w->timer)
        event_free(w->timer);
    free(w);
}

void run_retry_link(struct run_retry_list *l, struct run_retry *w)
{
    w->prev = NULL;
    w->next = l->head;
    if (l->head)
        l->head->prev = w;
    l->head = w;
    l->n++;
}

void run_retry_unlink(struct run_retry_list *l, struct run_retry *w)
{
    if (w->prev)
        w->prev->next = w->next;
    else
        l->head = w->next;
    if (w->next)
        w->next->prev = w->prev;
    l->n--;
}

void run_retry_cancel_all(struct run_retry_list *l, struct run_outcome *out)
{
    while (l->head) {
        struct run_retry *w = l->head;
        run_retry_unlink(l, w);
        if (out) {
            /* the attempt it would have replaced is the request's last */
            out->retried--;
            run_outcome_request(out, w->last_kind, NULL, w->warmup, false);
        }
        run_retry_free(w);
    }
}
