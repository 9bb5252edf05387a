/* proxy_session: the session and turn of each proxied request, from the
 * client's session header or from its messages extending an earlier
 * request's. */
#include "proxy_session.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* Messages hashed per request at most: a longer history is not grouped. */
#define MAX_MESSAGES 65536

struct entry {
    uint32_t id;          /* the session, 0: a free slot */
    uint32_t turn;        /* its latest turn */
    uint64_t header_hash; /* the session header's hash, 0: none */
    uint64_t prefix_hash; /* hash of the latest turn's messages */
    size_t n_messages;    /* how many */
    uint64_t api_hash;    /* the API its requests spoke */
    uint64_t sys_hash;    /* the API and its system prompt */
    bool compacting;      /* its latest turn asked for a summary */
    int64_t end_ns;       /* the latest turn's end, -1 in flight */
    uint64_t used;        /* last use, for eviction */
};

/* Cline's context compaction (cline/cline, sdk/packages/core/src/
 * extensions/context/): the summary request's system prompt
 * (agentic-compaction.ts:80) and its user message (compaction-shared.ts,
 * buildSummaryRequest, :663), and the first message of the request that
 * resumes the task with the summary (buildSummaryMessage, :767). */
#define SUMMARY_SYSTEM "Summarize the provided coding session"
#define SUMMARY_USER "Summarize this session for continuation."
#define RESUMED_USER "Context summary:"

struct proxy_sessions {
    struct entry *e;
    size_t cap;
    uint32_t last_id;
    uint64_t clock;
};

int proxy_sessions_new(size_t cap, struct proxy_sessions **out)
{
    struct proxy_sessions *t = calloc(1, sizeof *t);
    *out = NULL;
    if (!cap)
        cap = PROXY_SESSIONS_CAP;
    if (!t || !(t->e = calloc(cap, sizeof *t->e))) {
        free(t);
        return -1;
    }
    t->cap = cap;
    *out = t;
    return 0;
}

void proxy_sessions_free(struct proxy_sessions *t)
{
    if (!t)
        return;
    free(t->e);
    free(t);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * FNV_PRIME;
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
    return fnv(h, s, strlen(s) + 1); /* the NUL separates neighbours */
}

/* Hash of a JSON value: its types, member names and values, so two
 * serializations of the same message (spacing, escapes) hash alike. */
static uint64_t hash_value(uint64_t h, const cJSON *v, int depth)
{
    unsigned char type = (unsigned char)(v->type & 0xff);
    h = fnv(h, &type, 1);
    if (depth > 64)
        return h;
    if (cJSON_IsString(v) && v->valuestring)
        return fnv_str(h, v->valuestring);
    if (cJSON_IsNumber(v))
        return fnv(h, &v->valuedouble, sizeof v->valuedouble);
    if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
        const cJSON *c;
        cJSON_ArrayForEach(c, v)
        {
            if (c->string)
                h = fnv_str(h, c->string);
            h = hash_value(h, c, depth + 1);
        }
        h = fnv(h, "]", 1);
    }
    return h;
}

/* True when message m can be an earlier request's reply: an assistant
 * message, or a Responses output item (a function call, reasoning). */
static bool is_reply(const cJSON *m)
{
    const cJSON *role = cJSON_GetObjectItemCaseSensitive(m, "role");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(m, "type");
    if (cJSON_IsString(role))
        return strcmp(role->valuestring, "assistant") == 0;
    return cJSON_IsString(type) &&
           (strcmp(type->valuestring, "function_call") == 0 ||
            strcmp(type->valuestring, "reasoning") == 0 ||
            strcmp(type->valuestring, "custom_tool_call") == 0);
}

/* The request's messages (chat and Anthropic "messages", Responses
 * "input") and the hash every prefix starts from: the API and the
 * instructions kept beside the messages (Anthropic "system", Responses
 * "instructions"). NULL when it has none. */
static const cJSON *messages_of(const cJSON *root, const char *api,
                                uint64_t *seed, const cJSON **sys_out)
{
    const cJSON *m, *sys;
    bool responses = api && strcmp(api, "openai-responses") == 0;
    if (api && strcmp(api, "openai-completions") == 0)
        return NULL;
    m = cJSON_GetObjectItemCaseSensitive(root,
                                         responses ? "input" : "messages");
    if (!cJSON_IsArray(m) || !m->child)
        return NULL;
    *seed = fnv_str(FNV_OFFSET, api ? api : "");
    sys = cJSON_GetObjectItemCaseSensitive(root, responses ? "instructions"
                                                           : "system");
    if (sys)
        *seed = hash_value(*seed, sys, 0);
    *sys_out = sys;
    return m;
}

/* The text a message (or a system value) starts with: a string content,
 * or its first text part. NULL: none. */
static const char *first_text(const cJSON *v)
{
    const cJSON *c =
        cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "content") : v;
    const cJSON *part;
    if (cJSON_IsString(c))
        return c->valuestring;
    if (!cJSON_IsArray(c))
        return NULL;
    cJSON_ArrayForEach(part, c)
    {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(part, "text");
        if (cJSON_IsString(t))
            return t->valuestring;
    }
    return NULL;
}

static bool starts(const char *s, const char *with)
{
    return s && strncmp(s, with, strlen(with)) == 0;
}

static bool has_role(const cJSON *m, const char *role)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(m, "role");
    return cJSON_IsString(r) && strcmp(r->valuestring, role) == 0;
}

enum compaction { NOT_COMPACTION, SUMMARY, RESUMED };

/* What a request is in a compaction: SUMMARY (it asks for a summary of the
 * task), RESUMED (the task again, from the summary), or NOT_COMPACTION.
 * sys: the system value beside the messages (or NULL). */
static enum compaction compaction_of(const cJSON *sys, const cJSON *m)
{
    const cJSON *first = m->child;
    if (starts(first_text(sys), SUMMARY_SYSTEM))
        return SUMMARY;
    while (first && has_role(first, "system")) {
        if (starts(first_text(first), SUMMARY_SYSTEM))
            return SUMMARY;
        first = first->next;
    }
    if (!first || !has_role(first, "user"))
        return NOT_COMPACTION;
    if (starts(first_text(first), SUMMARY_USER))
        return SUMMARY;
    if (starts(first_text(first), RESUMED_USER))
        return RESUMED;
    return NOT_COMPACTION;
}

/* The session a compaction request belongs to: for a summary, the session
 * of the API whose latest turn ended last (the client compacts right
 * after a turn); for the request that resumes, the one that asked for a
 * summary, else the one with the same system prompt, the latest ended.
 * NULL: none. */
static struct entry *compacted(struct proxy_sessions *t, enum compaction kind,
                               uint64_t api_hash, uint64_t sys_hash)
{
    struct entry *best = NULL, *same_sys = NULL;
    bool resumed = kind == RESUMED;
    for (size_t i = 0; i < t->cap; i++) {
        struct entry *e = &t->e[i];
        if (!e->id || e->header_hash || e->end_ns < 0 ||
            e->api_hash != api_hash)
            continue;
        if (resumed && e->compacting && (!best || e->end_ns > best->end_ns))
            best = e;
        if (!resumed && (!best || e->end_ns > best->end_ns))
            best = e;
        if (resumed && e->sys_hash == sys_hash &&
            (!same_sys || e->end_ns > same_sys->end_ns))
            same_sys = e;
    }
    return best ? best : same_sys;
}

/* The slot for a new session: a free one, else the least recently used. */
static struct entry *fresh(struct proxy_sessions *t)
{
    struct entry *best = &t->e[0];
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->e[i].id)
            return &t->e[i];
        if (t->e[i].used < best->used)
            best = &t->e[i];
    }
    return best;
}

/* The session whose latest turn's messages, followed by a reply, begin
 * these (prefix[k]: hash of the first k of n messages; msg[k] the k-th):
 * the longest such history, the most recent on a tie. NULL: none. */
static struct entry *extended(struct proxy_sessions *t, const uint64_t *prefix,
                              const cJSON *const *msg, size_t n)
{
    struct entry *best = NULL;
    for (size_t i = 0; i < t->cap; i++) {
        struct entry *e = &t->e[i];
        if (!e->id || e->header_hash || e->end_ns < 0 || e->n_messages >= n ||
            prefix[e->n_messages] != e->prefix_hash ||
            !is_reply(msg[e->n_messages]))
            continue;
        if (!best || e->n_messages > best->n_messages ||
            (e->n_messages == best->n_messages && e->used > best->used))
            best = e;
    }
    return best;
}

static struct entry *by_header(struct proxy_sessions *t, uint64_t h)
{
    for (size_t i = 0; i < t->cap; i++)
        if (t->e[i].id && t->e[i].header_hash == h)
            return &t->e[i];
    return NULL;
}

/* Hashes every prefix of the messages; fills msg. Returns n, 0 when too
 * many or out of memory. */
static size_t hash_prefixes(const cJSON *m, uint64_t seed, uint64_t **prefix,
                            const cJSON ***msg)
{
    size_t n = (size_t)cJSON_GetArraySize(m), k = 0;
    const cJSON *c;
    if (n > MAX_MESSAGES)
        return 0;
    *prefix = malloc((n + 1) * sizeof **prefix);
    *msg = malloc((n + 1) * sizeof **msg);
    if (!*prefix || !*msg)
        return 0;
    (*prefix)[0] = seed;
    cJSON_ArrayForEach(c, m)
    {
        (*msg)[k] = c;
        (*prefix)[k + 1] = hash_value((*prefix)[k], c, 0);
        k++;
    }
    return k;
}

void proxy_sessions_place(struct proxy_sessions *t, const char *api,
                          const char *header, const char *body, size_t len,
                          int64_t start_ns, struct proxy_session_turn *out)
{
    cJSON *root = NULL;
    const cJSON *m = NULL, *sys = NULL;
    const cJSON **msg = NULL;
    uint64_t *prefix = NULL, seed = 0, hh = 0, api_hash, sys_hash;
    size_t n = 0;
    struct entry *e = NULL;
    enum compaction kind = NOT_COMPACTION;
    memset(out, 0, sizeof *out);
    out->think_ns = -1;
    if (!t)
        return;
    if (header && header[0])
        hh = fnv_str(FNV_OFFSET, header) | 1; /* never 0 */
    if (body && len)
        root = cJSON_ParseWithLength(body, len);
    if (root)
        m = messages_of(root, api, &seed, &sys);
    if (m)
        n = hash_prefixes(m, seed, &prefix, &msg);
    if (!hh && !n)
        goto done;
    api_hash = fnv_str(FNV_OFFSET, api ? api : "");
    /* the system prompt: beside the messages (in the seed) or the first */
    sys_hash = n && has_role(msg[0], "system") ? prefix[1] : seed;
    kind = m ? compaction_of(sys, m) : NOT_COMPACTION;
    if (hh) {
        e = by_header(t, hh);
    } else {
        /* a turn after the resumed one starts from the summary too: it
         * extends that turn's messages, as any turn does */
        e = extended(t, prefix, msg, n);
        if (e)
            kind = NOT_COMPACTION;
        else if (kind)
            e = compacted(t, kind, api_hash, sys_hash);
    }
    out->compaction = kind == SUMMARY   ? PROXY_COMPACTION_SUMMARY
                      : kind == RESUMED ? PROXY_COMPACTION_RESUMED
                                        : NULL;
    if (e && kind == SUMMARY && !hh) {
        /* a turn of the task, but not its history: the next turn extends
         * the task's messages or resumes from the summary */
        e->turn++;
        if (start_ns >= e->end_ns)
            out->think_ns = start_ns - e->end_ns;
        e->compacting = true;
        e->end_ns = -1;
        e->used = ++t->clock;
        out->session = e->id;
        out->turn = e->turn;
        goto done;
    }
    if (e) {
        e->turn++;
        if (e->end_ns >= 0 && start_ns >= e->end_ns)
            out->think_ns = start_ns - e->end_ns;
    } else {
        e = fresh(t);
        memset(e, 0, sizeof *e);
        e->id = ++t->last_id;
        e->turn = 1;
        e->header_hash = hh;
    }
    e->prefix_hash = n ? prefix[n] : 0;
    e->n_messages = n;
    e->api_hash = api_hash;
    if (kind != SUMMARY) {
        e->sys_hash = sys_hash;
        e->compacting = false;
    }
    e->end_ns = -1;
    e->used = ++t->clock;
    out->session = e->id;
    out->turn = e->turn;
done:
    free(prefix);
    free(msg);
    cJSON_Delete(root);
}

void proxy_sessions_ended(struct proxy_sessions *t, uint32_t session,
                          uint32_t turn, int64_t end_ns)
{
    if (!t || !session)
        return;
    for (size_t i = 0; i < t->cap; i++)
        if (t->e[i].id == session) {
            if (t->e[i].turn == turn)
                t->e[i].end_ns = end_ns;
            return;
        }
}
