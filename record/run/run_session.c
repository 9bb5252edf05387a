/* run_session: sessions in progress, their turns and received replies. */
#include "run_session.h"

#include <stdlib.h>
#include <string.h>

struct run_session *run_session_start(struct run_session_list *l, uint64_t k,
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
    s->id = ++l->last_id;
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

int run_session_keep_reply(struct run_session *s, const char *text, size_t len)
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
