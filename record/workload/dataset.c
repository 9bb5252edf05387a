/* dataset: ShareGPT and OpenAI chat entries -> single-turn items. */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload_session.h"

int64_t dataset_content_chars(const cJSON *content)
{
    const cJSON *part, *parts = cJSON_IsArray(content) ? content : NULL;
    int64_t n = 0;
    if (cJSON_IsString(content))
        return workload_count_chars(content->valuestring,
                                    strlen(content->valuestring));
    cJSON_ArrayForEach(part, parts)
    {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(part, "text");
        if (cJSON_IsString(text))
            n += workload_count_chars(text->valuestring,
                                      strlen(text->valuestring));
    }
    return n;
}

/* The chat role of a ShareGPT "from" value, NULL for an unknown one. */
static const char *sharegpt_role(const char *from)
{
    static const struct {
        const char *from, *role;
    } roles[] = {
        {"human", "user"},          {"user", "user"},
        {"gpt", "assistant"},       {"chatgpt", "assistant"},
        {"bing", "assistant"},      {"bard", "assistant"},
        {"assistant", "assistant"}, {"model", "assistant"},
        {"system", "system"},
    };
    for (size_t i = 0; i < sizeof roles / sizeof *roles; i++)
        if (strcmp(from, roles[i].from) == 0)
            return roles[i].role;
    return NULL;
}

/* The reply length a dataset gives: characters / 4 of an assistant
 * text, at least 1. */
static int64_t reply_tokens(int64_t chars)
{
    return chars / 4 > 0 ? chars / 4 : 1;
}

/* Builds a {"role","content"} message. */
static cJSON *message(const char *role, const char *content)
{
    cJSON *m = cJSON_CreateObject();
    if (!m || !cJSON_AddStringToObject(m, "role", role) ||
        !cJSON_AddStringToObject(m, "content", content)) {
        cJSON_Delete(m);
        return NULL;
    }
    return m;
}

/* Static reasons with the turn number, for the caller to prefix. */
static const char *turn_reason(int k, const char *what)
{
    static char why[160];
    snprintf(why, sizeof why, "turn %d: %s", k, what);
    return why;
}

const char *dataset_sharegpt_item(cJSON *entry, struct workload_item *it,
                                  bool *skip)
{
    const cJSON *conv, *t;
    const cJSON *user = NULL, *next = NULL;
    int k = 0, n_system = 0;
    *skip = false;
    if (!cJSON_IsObject(entry))
        return "not a JSON object";
    conv = cJSON_GetObjectItemCaseSensitive(entry, "conversations");
    if (!conv)
        return "missing \"conversations\"";
    if (!cJSON_IsArray(conv))
        return "\"conversations\" must be an array";
    cJSON_ArrayForEach(t, conv)
    {
        const cJSON *from = cJSON_GetObjectItemCaseSensitive(t, "from");
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(t, "value");
        const char *role;
        k++;
        if (!cJSON_IsObject(t))
            return turn_reason(k, "not an object");
        if (!cJSON_IsString(from))
            return turn_reason(k, "\"from\" must be a string");
        if (!cJSON_IsString(value))
            return turn_reason(k, "\"value\" must be a string");
        role = sharegpt_role(from->valuestring);
        if (!role)
            return turn_reason(k, "unknown \"from\" (human, user, gpt, "
                                  "assistant, system...)");
        if (user && !next)
            next = strcmp(role, "assistant") == 0 ? value : t;
        if (!user && strcmp(role, "user") == 0)
            user = value;
        if (!user && strcmp(role, "system") == 0)
            n_system++;
    }
    if (!user || user->valuestring[0] == '\0') {
        *skip = true;
        return NULL;
    }
    it->input_tokens_est =
        workload_estimate_tokens(user->valuestring, strlen(user->valuestring));
    it->max_tokens = next && next != user && cJSON_IsString(next)
                         ? reply_tokens(workload_count_chars(
                               next->valuestring, strlen(next->valuestring)))
                         : -1;
    if (n_system == 0) {
        it->prompt = strdup(user->valuestring);
        return it->prompt ? NULL : "out of memory";
    }
    it->messages = cJSON_CreateArray();
    if (!it->messages)
        return "out of memory";
    cJSON_ArrayForEach(t, conv)
    {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(t, "value");
        const char *role = sharegpt_role(
            cJSON_GetObjectItemCaseSensitive(t, "from")->valuestring);
        cJSON *m;
        if (strcmp(role, "system") != 0 && v != user)
            continue;
        m = message(role, v->valuestring);
        if (!m || !cJSON_AddItemToArray(it->messages, m)) {
            cJSON_Delete(m);
            return "out of memory";
        }
        it->input_tokens_est +=
            v == user ? 0
                      : workload_estimate_tokens(v->valuestring,
                                                 strlen(v->valuestring));
        if (v == user)
            break;
    }
    return NULL;
}

const char *dataset_chat_item(cJSON *entry, struct workload_item *it,
                              bool *skip)
{
    cJSON *msgs, *m, *last = NULL;
    const cJSON *reply = NULL;
    int64_t chars = 0;
    int k = 0;
    *skip = false;
    if (!cJSON_IsObject(entry))
        return "not a JSON object";
    msgs = cJSON_GetObjectItemCaseSensitive(entry, "messages");
    if (!msgs)
        return "missing \"messages\"";
    if (!cJSON_IsArray(msgs))
        return "\"messages\" must be an array";
    cJSON_ArrayForEach(m, msgs)
    {
        const cJSON *role = cJSON_GetObjectItemCaseSensitive(m, "role");
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(m, "content");
        k++;
        if (!cJSON_IsObject(m))
            return turn_reason(k, "not an object");
        if (!cJSON_IsString(role) || role->valuestring[0] == '\0')
            return turn_reason(k, "\"role\" must be a non-empty string");
        if (c && !cJSON_IsString(c) && !cJSON_IsArray(c) && !cJSON_IsNull(c))
            return turn_reason(k, "\"content\" must be a string, an array "
                                  "of parts or null");
        if (strcmp(role->valuestring, "user") == 0)
            last = m;
    }
    if (!last) {
        *skip = true;
        return NULL;
    }
    if (last->next &&
        cJSON_IsString(cJSON_GetObjectItemCaseSensitive(last->next, "role")) &&
        strcmp(
            cJSON_GetObjectItemCaseSensitive(last->next, "role")->valuestring,
            "assistant") == 0)
        reply = cJSON_GetObjectItemCaseSensitive(last->next, "content");
    it->max_tokens = reply && (cJSON_IsString(reply) || cJSON_IsArray(reply)) &&
                             dataset_content_chars(reply) > 0
                         ? reply_tokens(dataset_content_chars(reply))
                         : -1;
    /* keep the messages up to the last user one */
    while (last->next)
        cJSON_Delete(cJSON_DetachItemViaPointer(msgs, last->next));
    cJSON_ArrayForEach(m, msgs)
    {
        chars += dataset_content_chars(
            cJSON_GetObjectItemCaseSensitive(m, "content"));
    }
    it->input_tokens_est = chars / 4;
    it->messages = cJSON_DetachItemViaPointer(entry, msgs);
    return NULL;
}

/* True when message m has the given role. */
static bool is_role(const cJSON *m, const char *role)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(m, "role");
    return cJSON_IsString(r) && strcmp(r->valuestring, role) == 0;
}

/* The conversation of a ShareGPT entry as chat messages, from its first
 * user turn on (system turns before it kept). NULL when out of memory. */
static cJSON *sharegpt_messages(const cJSON *conv)
{
    cJSON *msgs = cJSON_CreateArray(), *m;
    const cJSON *t;
    bool user_seen = false;
    cJSON_ArrayForEach(t, conv)
    {
        const char *role = sharegpt_role(
            cJSON_GetObjectItemCaseSensitive(t, "from")->valuestring);
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(t, "value");
        user_seen |= strcmp(role, "user") == 0;
        if (!user_seen && strcmp(role, "system") != 0)
            continue; /* a reply before any question */
        m = message(role, v->valuestring);
        if (!m || !cJSON_AddItemToArray(msgs, m)) {
            cJSON_Delete(m);
            cJSON_Delete(msgs);
            return NULL;
        }
    }
    return msgs;
}

const char *dataset_session_item(cJSON *entry, bool sharegpt,
                                 struct workload_item *it, bool *skip)
{
    struct workload_item single = {0, NULL, NULL,  -1,   0,
                                   0, NULL, false, NULL, 0};
    const cJSON *given = cJSON_GetObjectItemCaseSensitive(entry, "messages");
    const char *why, *session_why;
    size_t at;
    cJSON *msgs = NULL;
    /* a chat entry's messages whole: the single-turn reader cuts them */
    if (!sharegpt && cJSON_IsArray(given)) {
        msgs = cJSON_Duplicate(given, true);
        if (!msgs)
            return "out of memory";
    }
    /* the single-turn reader checks the entry and finds its user turn */
    why = sharegpt ? dataset_sharegpt_item(entry, &single, skip)
                   : dataset_chat_item(entry, &single, skip);
    free(single.prompt);
    cJSON_Delete(single.messages);
    if (why || *skip) {
        cJSON_Delete(msgs);
        return why;
    }
    if (sharegpt)
        msgs = sharegpt_messages(
            cJSON_GetObjectItemCaseSensitive(entry, "conversations"));
    else /* a reply before any question is not a turn */
        while (msgs->child && !is_role(msgs->child, "user") &&
               !is_role(msgs->child, "system"))
            cJSON_Delete(cJSON_DetachItemViaPointer(msgs, msgs->child));
    if (!msgs)
        return "out of memory";
    if (workload_session_new(msgs, &it->session, &session_why, &at) != 0) {
        if (!at && strcmp(session_why, "out of memory") == 0)
            return "out of memory";
        *skip = true; /* not a conversation a session can replay */
        return NULL;
    }
    it->input_tokens_est = it->session->turns[0].input_chars / 4;
    it->max_tokens = -1;
    return NULL;
}
