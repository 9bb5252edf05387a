/* workload_session: a conversation as turns (docs/workloads.md). A
 * session workload item holds one; the run sends its turns one after
 * another on one session, each request carrying the history before it.
 *
 * Ownership: a session owns its cJSON tree; the turns point into it.
 * Sessions run from one item share it (nothing is copied per session or
 * per turn: a turn's request body refers to these messages). */
#ifndef TT_RECORD_WORKLOAD_SESSION_H
#define TT_RECORD_WORKLOAD_SESSION_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* A turn: the messages it adds to the history (system, user, tool...;
 * never an assistant message) and the reply the file recorded for it. */
struct workload_turn {
    const cJSON *first;  /* its first new message (in the tree) */
    size_t n_messages;   /* how many follow from first, at least 1 */
    const cJSON *reply;  /* the recorded assistant message, or NULL */
    int64_t input_chars; /* characters of its new messages */
    /* A captured turn (workload_captured.h): the request body as the
     * proxy caught it (owned by the session; sent as it is, its model
     * replaced), and the think time recorded before it (-1: none). NULL
     * for a conversation's turn, whose body is built from the history. */
    char *body;
    size_t body_len;
    int64_t think_ns;
    int64_t captured_id; /* the captured request's id */
};

struct workload_session {
    cJSON *tree; /* the conversation: an array of messages (owned) */
    struct workload_turn *turns;
    size_t n_turns;
};

/* Most turns one session may have. */
#define WORKLOAD_SESSION_MAX_TURNS 4096

/* Checks one message of a workload line: an object with a "role" string
 * and a "content" string or array of parts (null or absent only in an
 * assistant message with a non-empty "tool_calls", as OpenAI writes it).
 * Returns NULL or why it is refused. */
const char *workload_message_check(const cJSON *m);

/* Makes a session of a conversation, a non-empty array of chat messages
 * ({"role", "content"} objects), taking ownership of it in every case:
 * each assistant message ends a turn (it is that turn's recorded reply),
 * the messages before it since the last one are the turn's; messages
 * after the last assistant message are a last turn without a recorded
 * reply. Returns 0 and *out, or -1 (out of memory, or a conversation
 * that is not one: why then says so, static, e.g. "two assistant
 * messages in a row (message 4)"; *why_index the message from 1, 0 when
 * not about one). Dataset loaders (ShareGPT, OpenAI JSONL) call this
 * with the messages they built. */
int workload_session_new(cJSON *conversation, struct workload_session **out,
                         const char **why, size_t *why_index);

/* The messages of turn `turn` (from 0): every earlier turn's messages,
 * each followed by its reply (replies[j] when given and not NULL, else
 * the recorded one; a turn with neither adds none), then the turn's own.
 * A new cJSON array of references into s and replies: delete it with
 * cJSON_Delete before them (it frees only itself). NULL when out of
 * memory. */
cJSON *workload_session_history(const struct workload_session *s, size_t turn,
                                const cJSON *const *replies);

/* Characters of the text of an array of messages. */
int64_t workload_messages_chars(const cJSON *messages);

/* The characters of the whole conversation's text (its recorded replies
 * too): an input-size estimate for the last turn. */
int64_t workload_session_chars(const struct workload_session *s);

/* Frees the session and its tree. NULL-safe. */
void workload_session_free(struct workload_session *s);

#endif
