/* proxy_session: groups the requests tokentrace-proxy forwards into
 * sessions (docs/proxy.md, "Sessions"): a client's session header wins;
 * else a request whose messages extend an earlier request's messages and
 * that request's reply is that session's next turn; a context compaction
 * (a summary request, then the task resumed from the summary) continues
 * the task's session. A capped table of
 * recent sessions, pure (no I/O, no event loop). */
#ifndef TT_PROXY_SESSION_H
#define TT_PROXY_SESSION_H

#include <stddef.h>
#include <stdint.h>

/* The session headers accepted, in order of preference. */
#define PROXY_SESSION_HEADER "X-Session-Id"
#define PROXY_SESSION_HEADER_ALT "X-Tokentrace-Session"

/* Sessions remembered at once: the least recently used is forgotten. */
#define PROXY_SESSIONS_CAP 1024

/* Where a request went: session and turn from 1 (session 0: none, a
 * request without messages), think_ns the gap from the end of the
 * session's previous turn to this request (-1: turn 1, or the previous
 * turn had not ended). */
struct proxy_session_turn {
    uint32_t session;
    uint32_t turn;
    int64_t think_ns;
    /* a context compaction (Cline's): PROXY_COMPACTION_SUMMARY, a request
     * asking for a summary of the task, a turn of the task's session;
     * PROXY_COMPACTION_RESUMED, the task's next request, whose history
     * starts from that summary, the turn after it; NULL: neither */
    const char *compaction;
};

#define PROXY_COMPACTION_SUMMARY "summary"
#define PROXY_COMPACTION_RESUMED "resumed"

struct proxy_sessions;

/* A new empty table of at most cap sessions (0: PROXY_SESSIONS_CAP).
 * Returns 0 and *out, or -1 out of memory. */
int proxy_sessions_new(size_t cap, struct proxy_sessions **out);

/* Places a request (api: the path's API name; header: the session
 * header's value or NULL; body: len bytes of JSON) started at start_ns,
 * and remembers it as its session's latest turn. A body that is not
 * JSON, or has no messages (completions' prompt), gets session 0. Never
 * fails: out of memory it gets session 0 too. */
void proxy_sessions_place(struct proxy_sessions *t, const char *api,
                          const char *header, const char *body, size_t len,
                          int64_t start_ns, struct proxy_session_turn *out);

/* The request placed as (session, turn) ended at end_ns: the next turn's
 * think time counts from there. A session that moved on is left alone. */
void proxy_sessions_ended(struct proxy_sessions *t, uint32_t session,
                          uint32_t turn, int64_t end_ns);

/* Frees the table. NULL-safe. */
void proxy_sessions_free(struct proxy_sessions *t);

#endif
