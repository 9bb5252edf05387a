/* workload_session: a conversation split into turns at its assistant
 * messages. */
#include "workload_session.h"

#include <stdlib.h>
#include <string.h>

/* Characters (not bytes) of a UTF-8 string (workload_count_chars's
 * count; kept here so this file does not depend on workload.c, which
 * frees sessions). */
static int64_t chars_of(const char *s)
{
    int64_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}

/* Characters of a message's content (a string, or parts with "text"). */
static int64_t message_chars(const cJSON *m)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(m, "content"), *part;
    int64_t n = 0;
    if (cJSON_IsString(c))
        return chars_of(c->valuestring);
    cJSON_ArrayForEach(part, c)
    {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(part, "text");
        if (cJSON_IsString(t))
            n += chars_of(t->valuestring);
    }
    return n;
}

/* True when m is an assistant message. */
static int is_assistant(const cJSON *m)
{
    const cJSON *role = cJSON_GetObjectItemCaseSensitive(m, "role");
    return cJSON_IsString(role) && strcmp(role->valuestring, "assistant") == 0;
}

const char *workload_message_check(const cJSON *m)
{
    const cJSON *role = cJSON_GetObjectItemCaseSensitive(m, "role");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(m, "content");
    const cJSON *calls = cJSON_GetObjectItemCaseSensitive(m, "tool_calls");
    if (!cJSON_IsObject(m))
        return "each message must be an object";
    if (!cJSON_IsString(role) || role->valuestring[0] == '\0')
        return "each message needs a \"role\" string";
    /* OpenAI's own form of a reply that only calls tools */
    if ((!c || cJSON_IsNull(c)) && is_assistant(m) && cJSON_IsArray(calls) &&
        cJSON_GetArraySize(calls) > 0)
        return NULL;
    if (!cJSON_IsString(c) && !cJSON_IsArray(c))
        return "each message needs a \"content\" string or array (null "
               "only in an assistant message with \"tool_calls\")";
    return NULL;
}

/* Fills the turns of s from its tree; NULL or why the tree is refused
 * (*at: the message, from 1). Allocates s->turns (-1 on no memory: "out
 * of memory"). */
static const char *split(struct workload_session *s, size_t *at)
{
    const cJSON *m;
    size_t n = (size_t)cJSON_GetArraySize(s->tree), i = 0;
    struct workload_turn *cur = NULL;
    *at = 0;
    if (!cJSON_IsArray(s->tree) || n == 0)
        return "a conversation must be a non-empty array of messages";
    s->turns = calloc(n, sizeof *s->turns); /* at most one per message */
    if (!s->turns)
        return "out of memory";
    cJSON_ArrayForEach(m, s->tree)
    {
        const char *why = workload_message_check(m);
        i++;
        if (why) {
            *at = i;
            return why;
        }
        if (is_assistant(m)) {
            if (!cur) {
                *at = i;
                return i == 1 ? "a conversation cannot start with an "
                                "assistant message"
                              : "two assistant messages in a row";
            }
            cur->reply = m;
            cur = NULL;
            continue;
        }
        if (!cur) {
            if (s->n_turns == WORKLOAD_SESSION_MAX_TURNS) {
                *at = i;
                return "more than 4096 turns";
            }
            cur = &s->turns[s->n_turns++];
            cur->first = m;
        }
        cur->n_messages++;
        cur->input_chars += message_chars(m);
    }
    return NULL;
}

int workload_session_new(cJSON *conversation, struct workload_session **out,
                         const char **why, size_t *why_index)
{
    struct workload_session *s = calloc(1, sizeof *s);
    *out = NULL;
    *why = "out of memory";
    *why_index = 0;
    if (!s) {
        cJSON_Delete(conversation);
        return -1;
    }
    s->tree = conversation;
    *why = split(s, why_index);
    if (*why) {
        workload_session_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

/* Appends a reference to message m to arr; 0, or -1 out of memory. */
static int add_ref(cJSON *arr, const cJSON *m)
{
    cJSON *r = cJSON_CreateObjectReference(m->child);
    if (!r || !cJSON_AddItemToArray(arr, r)) {
        cJSON_Delete(r);
        return -1;
    }
    return 0;
}

/* Appends the n_messages of turn t; 0 or -1. */
static int add_turn(cJSON *arr, const struct workload_turn *t)
{
    const cJSON *m = t->first;
    for (size_t i = 0; i < t->n_messages && m; i++, m = m->next)
        if (add_ref(arr, m))
            return -1;
    return 0;
}

cJSON *workload_session_history(const struct workload_session *s, size_t turn,
                                const cJSON *const *replies)
{
    cJSON *arr = cJSON_CreateArray();
    if (!arr)
        return NULL;
    for (size_t j = 0; j <= turn && j < s->n_turns; j++) {
        const cJSON *reply =
            replies && replies[j] ? replies[j] : s->turns[j].reply;
        if (add_turn(arr, &s->turns[j]) ||
            (j < turn && reply && add_ref(arr, reply))) {
            cJSON_Delete(arr);
            return NULL;
        }
    }
    return arr;
}

int64_t workload_messages_chars(const cJSON *messages)
{
    const cJSON *m;
    int64_t n = 0;
    cJSON_ArrayForEach(m, messages) n += message_chars(m);
    return n;
}

int64_t workload_session_chars(const struct workload_session *s)
{
    return workload_messages_chars(s->tree);
}

void workload_session_free(struct workload_session *s)
{
    if (!s)
        return;
    cJSON_Delete(s->tree);
    for (size_t i = 0; s->turns && i < s->n_turns; i++)
        free(s->turns[i].body);
    free(s->turns);
    free(s);
}
