/* proxy_session_test: how tokentrace-proxy groups requests into sessions,
 * as data: each step places a request (API, session header, body, start)
 * or ends one, and says the session, turn and think time it must get. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "proxy_session.h"

struct step {
    const char *api;    /* NULL: end (session, turn) at t */
    const char *header; /* X-Session-Id, or NULL */
    const char *body;
    int64_t t;
    uint32_t session, turn; /* wanted (ended: the ones to end) */
    int64_t think;          /* wanted think_ns, -1 none */
};

#define CHAT "openai-chat"
#define U1 "{\"role\":\"user\",\"content\":\"one\"}"
#define A1 "{\"role\":\"assistant\",\"content\":\"ok\"}"
#define U2 "{\"role\":\"user\",\"content\":\"two\"}"
#define END(s, tn, at)                                                         \
    {                                                                          \
        NULL, NULL, NULL, at, s, tn, -1                                        \
    }

static const struct step conversation[] = {
    {CHAT, NULL, "{\"model\":\"m\",\"messages\":[" U1 "]}", 100, 1, 1, -1},
    END(1, 1, 200),
    /* spacing differs: the same messages */
    {CHAT, NULL, "{\"messages\": [ " U1 " , " A1 "," U2 "], \"model\":\"m\"}",
     250, 1, 2, 50},
    /* a repeat of turn 1 (a retry, a fork): a new session */
    {CHAT, NULL, "{\"messages\":[" U1 "]}", 300, 2, 1, -1},
    /* extends session 1's turn 2, which has not ended: a new session */
    {CHAT, NULL, "{\"messages\":[" U1 "," A1 "," U2 "," A1 "," U1 "]}", 310, 3,
     1, -1},
    END(1, 2, 400),
    /* now it has: the longest history it extends is session 1's */
    {CHAT, NULL, "{\"messages\":[" U1 "," A1 "," U2 "," A1 "," U1 "]}", 450, 1,
     3, 50},
    END(2, 1, 460),
    /* after a user message, not a reply: not a continuation of 2 */
    {CHAT, NULL, "{\"messages\":[" U1 "," U2 "]}", 470, 4, 1, -1},
    /* another API with the same messages: its own session */
    {"anthropic", NULL, "{\"messages\":[" U1 "]}", 480, 5, 1, -1},
    END(5, 1, 490),
    /* Anthropic with another system prompt: not a continuation of 5 */
    {"anthropic", NULL,
     "{\"system\":\"s\",\"messages\":[" U1 "," A1 "," U2 "]}", 500, 6, 1, -1},
    /* no messages: no session */
    {"openai-completions", NULL, "{\"prompt\":\"hi\"}", 510, 0, 0, -1},
    {CHAT, NULL, "not json", 520, 0, 0, -1},
    /* a header wins over the messages */
    {CHAT, "task-1", "{\"messages\":[" U1 "]}", 600, 7, 1, -1},
    END(7, 1, 650),
    {CHAT, "task-1", "{\"messages\":[" U2 "]}", 700, 7, 2, 50},
    {CHAT, "task-2", "{\"prompt\":\"x\"}", 710, 8, 1, -1},
    /* Responses: input items, a function call as the reply */
    {"openai-responses", NULL, "{\"instructions\":\"i\",\"input\":[" U1 "]}",
     800, 9, 1, -1},
    END(9, 1, 900),
    {"openai-responses", NULL,
     "{\"instructions\":\"i\",\"input\":[" U1
     ",{\"type\":\"function_call\",\"name\":\"f\",\"arguments\":\"{}\"},"
     "{\"type\":\"function_call_output\",\"output\":\"r\"}]}",
     1000, 9, 2, 100},
};

/* Cline's context compaction (its SDK, sdk/packages/core/src/extensions/
 * context/): a summary request (system "Summarize the provided coding
 * session...", user "Summarize this session for continuation..."), then
 * the task again from a user message "Context summary:\n\n..." and the
 * messages kept: one session, turns numbered through. Another task with
 * its own system prompt runs beside it. */
#define SYS "{\"role\":\"system\",\"content\":\"You are Cline\"}"
#define SYS2 "{\"role\":\"system\",\"content\":\"Other agent\"}"
#define SUM_SYS                                                                \
    "{\"role\":\"system\",\"content\":\"Summarize the provided coding "        \
    "session into a concise continuation note with detailed next steps.\"}"
#define SUM_USER                                                               \
    "{\"role\":\"user\",\"content\":\"Summarize this session for "             \
    "continuation. Be concise and factual.\\n\\n## Goal\"}"
#define RESUME                                                                 \
    "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":"             \
    "\"Context summary:\\n\\n## Goal\\nfix it\"}]}"
static const struct step compaction[] = {
    {CHAT, NULL, "{\"messages\":[" SYS "," U1 "]}", 100, 1, 1, -1},
    END(1, 1, 200),
    {CHAT, NULL, "{\"messages\":[" SYS "," U1 "," A1 "," U2 "]}", 210, 1, 2,
     10},
    END(1, 2, 300),
    /* another task, ended: the summary still goes to the latest one */
    {CHAT, NULL, "{\"messages\":[" SYS2 "," U1 "]}", 250, 2, 1, -1},
    END(2, 1, 260),
    /* the summary request: the task's turn 3 */
    {CHAT, NULL, "{\"messages\":[" SUM_SYS "," SUM_USER "]}", 320, 1, 3, 20},
    END(1, 3, 400),
    /* resumed from the summary: turn 4, then extended as always */
    {CHAT, NULL, "{\"messages\":[" SYS "," RESUME "," U2 "]}", 410, 1, 4, 10},
    END(1, 4, 500),
    {CHAT, NULL, "{\"messages\":[" SYS "," RESUME "," U2 "," A1 "," U1 "]}",
     505, 1, 5, 5},
    END(1, 5, 600),
    /* Anthropic's form: the summary prompt in "system"; a resume without a
     * summary request before it goes to the task with the same system */
    {"anthropic", NULL, "{\"system\":\"You are Cline\",\"messages\":[" U1 "]}",
     700, 3, 1, -1},
    END(3, 1, 800),
    {"anthropic", NULL,
     "{\"system\":\"Summarize the provided coding session.\",\"messages\":["
     "{\"role\":\"user\",\"content\":\"Conversation: ...\"}]}",
     810, 3, 2, 10},
    END(3, 2, 900),
    {"anthropic", NULL,
     "{\"system\":\"You are Cline\",\"messages\":[" RESUME "]}", 950, 3, 3, 50},
    END(3, 3, 1000),
    {"anthropic", NULL,
     "{\"system\":\"You are Cline\",\"messages\":[" RESUME "," A1 "," U2 "]}",
     1010, 3, 4, 10},
    /* a resume whose task has another system prompt: a new session */
    {CHAT, NULL,
     "{\"messages\":[{\"role\":\"system\",\"content\":\"x\"}," RESUME "]}",
     1100, 4, 1, -1},
};

/* A table of 2: the least recently used session is forgotten. */
static const struct step evicted[] = {
    {CHAT, NULL, "{\"messages\":[" U1 "]}", 1, 1, 1, -1},
    END(1, 1, 2),
    {CHAT, NULL, "{\"messages\":[" U2 "]}", 3, 2, 1, -1},
    {CHAT, NULL, "{\"messages\":[" A1 "]}", 4, 3, 1, -1},
    {CHAT, NULL, "{\"messages\":[" U1 "," A1 "," U2 "]}", 5, 4, 1, -1},
};

static void run(const char *name, const struct step *s, size_t n, size_t cap)
{
    struct proxy_sessions *t = NULL;
    CHECK(proxy_sessions_new(cap, &t) == 0);
    for (size_t i = 0; t && i < n; i++) {
        struct proxy_session_turn got;
        if (!s[i].api) {
            proxy_sessions_ended(t, s[i].session, s[i].turn, s[i].t);
            continue;
        }
        proxy_sessions_place(t, s[i].api, s[i].header, s[i].body,
                             strlen(s[i].body), s[i].t, &got);
        CHECK_MSG(got.session == s[i].session && got.turn == s[i].turn &&
                      got.think_ns == s[i].think,
                  "%s step %zu: session %u turn %u think %lld, want %u %u "
                  "%lld",
                  name, i, got.session, got.turn, (long long)got.think_ns,
                  s[i].session, s[i].turn, (long long)s[i].think);
    }
    proxy_sessions_free(t);
}

int main(void)
{
    struct proxy_session_turn got;
    run("conversation", conversation,
        sizeof conversation / sizeof *conversation, 0);
    run("evicted", evicted, sizeof evicted / sizeof *evicted, 2);
    run("compaction", compaction, sizeof compaction / sizeof *compaction, 0);
    /* the compaction requests say what they are */
    proxy_sessions_place(NULL, CHAT, NULL, "{}", 2, 1, &got);
    /* no table: nothing placed */
    proxy_sessions_place(NULL, CHAT, NULL, "{}", 2, 1, &got);
    CHECK(got.session == 0 && got.think_ns == -1);
    proxy_sessions_free(NULL);
    return CHECK_DONE();
}
