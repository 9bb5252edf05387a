/* run_session: sessions in progress, their turns and received replies. */
#include "run_session.h"

#include <stdlib.h>
#include <string.h>

#include "think_time.h"

const struct workload_session *
run_session_of_slot(const struct workload *wl, const struct schedule_slot *slot)
{
    const struct workload_class *c = &wl->classes[slot->cls];
    return c->items[slot->round % c->n_items].session;
}

void run_session_ids_stage(struct run_session_list *l, size_t stage)
{
    l->stage = stage;
    l->counted_k = l->counted = 0;
}

uint32_t run_session_global_id(struct run_session_list *l,
                               const struct schedule *sched,
                               const struct workload *wl, uint64_t k)
{
    struct schedule_slot slot;
    /* a shard skips N - 1 slots between two of its own: count them too */
    for (; l->counted_k < k; l->counted_k++)
        if (schedule_slot(sched, l->counted_k, &slot) &&
            run_session_of_slot(wl, &slot))
            l->counted++;
    return (uint32_t)(l->stage * RUN_SESSION_STAGE_IDS + l->counted + 1);
}

struct run_session *run_session_start(struct run_session_list *l, uint64_t k,
                                      uint32_t id,
                                      const struct workload_session *ws,
                                      bool warmup)
{
    struct run_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->replies = calloc(ws->n_turns, sizeof *s->replies);
    if (!s->replies) {
        free(s);
        return NULL;
    }
    s->id = id;
    s->slot_k = k;
    s->ws = ws;
    s->warmup = warmup;
    s->due_ns = -1;
    s->next = l->head;
    if (l->head)
        l->head->prev = s;
    l->head = s;
    l->n++;
    return s;
}

/* Keeps the reply of the session's current turn (text, len bytes; copied)
 * as an assistant message for the history. Returns 0, or -1 out of
 * memory. */
static int run_session_keep_reply(struct run_session *s, const char *text,
                                  size_t len)
{
    cJSON *m = cJSON_CreateObject(), *content = NULL;
    char *copy = malloc(len + 1);
    if (m && copy) {
        memcpy(copy, text, len);
        copy[len] = '\0';
        content = cJSON_CreateString(copy);
    }
    free(copy);
    if (!content || !cJSON_AddStringToObject(m, "role", "assistant") ||
        !cJSON_AddItemToObject(m, "content", content)) {
        cJSON_Delete(content);
        cJSON_Delete(m);
        return -1;
    }
    cJSON_Delete(s->replies[s->turn]);
    s->replies[s->turn] = m;
    return 0;
}

cJSON *run_session_messages(const struct run_session *s, enum history_mode mode)
{
    const cJSON **use;
    cJSON *out;
    size_t i;
    if (mode == HISTORY_RECEIVED)
        return workload_session_history(s->ws, s->turn,
                                        (const cJSON *const *)s->replies);
    use = calloc(s->ws->n_turns, sizeof *use);
    if (!use)
        return NULL;
    for (i = 0; i < s->ws->n_turns; i++)
        use[i] = s->ws->turns[i].reply ? s->ws->turns[i].reply : s->replies[i];
    out = workload_session_history(s->ws, s->turn, use);
    free(use);
    return out;
}

bool run_session_has_more(const struct run_session *s)
{
    return (size_t)s->turn + 1 < s->ws->n_turns;
}

void run_session_set_thinking(struct run_session_list *l, struct run_session *s,
                              bool thinking)
{
    if (s->thinking == thinking)
        return;
    s->thinking = thinking;
    if (thinking)
        l->thinking++;
    else
        l->thinking--;
}

void run_session_end(struct run_session_list *l, struct run_session *s)
{
    size_t i;
    if (!s)
        return;
    run_session_set_thinking(l, s, false);
    if (s->prev)
        s->prev->next = s->next;
    else
        l->head = s->next;
    if (s->next)
        s->next->prev = s->prev;
    l->n--;
    if (s->timer)
        event_free(s->timer);
    for (i = 0; i < s->ws->n_turns; i++)
        cJSON_Delete(s->replies[i]);
    free(s->replies);
    free(s);
}

void run_session_end_thinking(struct run_session_list *l)
{
    struct run_session *s = l->head, *next;
    for (; s; s = next) {
        next = s->next;
        if (s->thinking)
            run_session_end(l, s);
    }
}

int run_session_advance(struct run_session *s, const struct config *cfg,
                        struct reply_text *reply, int64_t end_ns)
{
    const struct workload_turn *turn = &s->ws->turns[s->turn];
    size_t len = 0;
    const char *text;
    if (!turn->body && (cfg->history == HISTORY_RECEIVED || !turn->reply)) {
        text = reply ? reply_text_value(reply, &len) : "";
        if (run_session_keep_reply(s, text, len))
            return -1;
    }
    s->turn++;
    turn = &s->ws->turns[s->turn];
    /* a captured turn waits as long as its user did */
    s->think_ns = turn->body && turn->think_ns >= 0
                      ? turn->think_ns
                      : think_time_draw(&cfg->think, cfg->seed, s->id, s->turn);
    s->due_ns = end_ns + s->think_ns;
    return 0;
}
