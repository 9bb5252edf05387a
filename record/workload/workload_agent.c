/* workload_agent: the built-in agent class: sessions of a coding agent
 * (prompts/agent-sessions.jsonl) behind one long system prompt with tool
 * definitions (prompts/agent-system.txt), as docs/workloads.md describes. */
#include "workload.h"

#include <stdlib.h>
#include <string.h>

#include "prompts.h"

/* Makes the item of one session line (its conversation after the system
 * prompt sys) in *it. Returns a workload_err. */
static int session_item(const char *line, size_t len, const char *sys,
                        int64_t index, struct workload_item *it)
{
    cJSON *obj = cJSON_ParseWithLength(line, len), *conv, *m;
    const char *why;
    size_t at;
    conv = cJSON_DetachItemFromObjectCaseSensitive(obj, "conversation");
    cJSON_Delete(obj);
    if (!cJSON_IsArray(conv)) {
        cJSON_Delete(conv);
        return WORKLOAD_E_INVALID;
    }
    m = cJSON_CreateObject();
    if (!m || !cJSON_AddStringToObject(m, "role", "system") ||
        !cJSON_AddStringToObject(m, "content", sys) ||
        !cJSON_InsertItemInArray(conv, 0, m)) {
        cJSON_Delete(m);
        cJSON_Delete(conv);
        return WORKLOAD_E_NOMEM;
    }
    memset(it, 0, sizeof *it);
    it->index = index;
    it->max_tokens = -1;
    if (workload_session_new(conv, &it->session, &why, &at))
        return WORKLOAD_E_INVALID;
    it->input_tokens_est = it->session->turns[0].input_chars / 4;
    return WORKLOAD_OK;
}

int workload_agent_items(struct workload_item **items, size_t *n)
{
    const char *p = (const char *)prompts_agent_sessions;
    const char *end = p + prompts_agent_sessions_len;
    char *sys = malloc(prompts_agent_system_len + 1);
    struct workload_item *v = NULL;
    size_t cap = 0;
    int64_t line = 0;
    int rc = WORKLOAD_OK;
    *items = NULL;
    *n = 0;
    if (!sys)
        return WORKLOAD_E_NOMEM;
    memcpy(sys, prompts_agent_system, prompts_agent_system_len);
    sys[prompts_agent_system_len] = '\0';
    while (p < end && !rc) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (len > 0 && *n == cap) {
            void *nv = realloc(v, (cap ? cap * 2 : 8) * sizeof *v);
            if (!nv)
                rc = WORKLOAD_E_NOMEM;
            else
                v = nv, cap = cap ? cap * 2 : 8;
        }
        if (len > 0 && !rc) {
            rc = session_item(p, len, sys, line, &v[*n]);
            if (!rc)
                (*n)++;
        }
        line++;
        p += len + (nl ? 1 : 0);
    }
    free(sys);
    if (rc) {
        for (size_t i = 0; i < *n; i++)
            workload_session_free(v[i].session);
        free(v);
        *n = 0;
        return rc;
    }
    *items = v;
    return WORKLOAD_OK;
}
