/* workload: the prompts to send, grouped by class (built-in or JSON Lines).
 *
 * Ownership: a workload owns its classes, items, strings and cJSON trees;
 * workload_free releases everything. */
#ifndef TT_RECORD_WORKLOAD_H
#define TT_RECORD_WORKLOAD_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "workload_session.h"

struct workload_item {
    int64_t index;            /* line in its file, from 0 */
    char *prompt;             /* a text prompt, or NULL */
    cJSON *messages;          /* a chat messages array, or NULL */
    int64_t max_tokens;       /* from the line, -1 when not given */
    int64_t input_tokens_est; /* characters / 4 */
    /* --arrivals with lengths: no prompt or messages stored; the body
     * gets a filler text of this many tokens (about 4 characters each),
     * made when the request is sent. 0: none. */
    int64_t filler_tokens;
    /* A session (a "conversation" line, or a built-in session class): its
     * turns are sent one after another; prompt and messages are NULL.
     * Owned. NULL for a single request. */
    struct workload_session *session;
    /* --input-tokens: the prompt is made per request, at its drawn length
     * (exact_prompt.h); prompt and messages are NULL. */
    bool exact;
    /* A captured single request (workload_captured.h): its body, sent as
     * it is with its model replaced. Owned. NULL otherwise. */
    char *body;
    size_t body_len;
};

struct workload_class {
    char *name;
    int64_t default_max_tokens; /* -1 when the class has none */
    struct workload_item *items;
    size_t n_items;
    size_t cap;
};

struct arrivals_file;

/* How a -w file is read (--workload-format). */
enum workload_format {
    WORKLOAD_FORMAT_AUTO = 0,     /* decided from the file */
    WORKLOAD_FORMAT_TOKENTRACE,   /* JSON Lines with "class" */
    WORKLOAD_FORMAT_SHAREGPT,     /* [{"conversations": …}] (or its lines) */
    WORKLOAD_FORMAT_OPENAI_JSONL, /* {"messages": […]} lines */
};

struct workload {
    char *name;         /* "builtin", the workload file name, or "arrivals" */
    const char *format; /* a file's format name (static), else NULL */
    int64_t skipped;    /* dataset entries with nothing to send */
    /* of them, entries whose text no request can carry (json_text.h) and
     * where the first one is ("FILE: entry N (byte B): why (at byte X)") */
    int64_t unsendable;
    char unsendable_first[256];
    struct arrivals_file *arrivals; /* --arrivals: the times (owned), or NULL */
    struct workload_class *classes;
    size_t n_classes;
    size_t cap;
};

enum workload_err {
    WORKLOAD_OK = 0,
    WORKLOAD_E_NOMEM = 1,
    WORKLOAD_E_IO = 2,      /* cannot read the file */
    WORKLOAD_E_INVALID = 3, /* a line is malformed: "FILE:LINE: reason" */
    WORKLOAD_E_CLASS = 4,   /* --classes names an unknown class */
};

/* The built-in session class (a coding agent, docs/workloads.md) and the
 * classes a built-in run sends when --classes does not name any: the
 * three single-request ones (the agent class is asked for by name). */
#define WORKLOAD_AGENT_CLASS "agent"
#define WORKLOAD_DEFAULT_CLASSES "short-short,short-long,long-short"

/* Loads the built-in workload (the embedded record/workload/prompts files),
 * the agent class included. */
int workload_load_builtin(struct workload *wl, char *err, size_t errlen);

/* Loads a workload file ("-": stdin) in the format it is in:
 * workload_load_file_as with WORKLOAD_FORMAT_AUTO. */
int workload_load_file(const char *path, struct workload *wl, char *err,
                       size_t errlen);

/* True when -w NAME names a built-in workload instead of a file:
 * "agent" (a file of that name is given as ./agent). */
bool workload_is_builtin_name(const char *name);

/* The built-in agent sessions (workload_agent.c): one item per line of
 * the embedded agent-sessions.jsonl, each a session behind
 * agent-system.txt, in a malloc'd array (*items, *n; the caller owns
 * them and their sessions). Returns a workload_err (WORKLOAD_E_INVALID:
 * the embedded file is broken, a build error). */
int workload_agent_items(struct workload_item **items, size_t *n);

/* Loads a workload file as fmt. AUTO decides from the file: a JSON array
 * is a dataset whose entries are ShareGPT ("conversations") or OpenAI chat
 * ("messages") entries, read one entry at a time; JSON Lines are decided by
 * the first line: "class" (tokentrace's own), "conversations" (ShareGPT)
 * or "messages" (OpenAI chat JSONL). Dataset entries become single-turn
 * items (dataset.h) in class "sharegpt" or "chat" (an OpenAI line's own
 * "class" wins); entries with nothing to send are counted in wl->skipped.
 * On WORKLOAD_E_INVALID err reads "FILE:LINE: reason" (JSON Lines) or
 * "FILE: entry N (byte B): reason" (an array). sessions: dataset entries
 * become sessions instead (dataset_session_item), every turn sent. */
int workload_load_file_as(const char *path, enum workload_format fmt,
                          bool sessions, struct workload *wl, char *err,
                          size_t errlen);

/* Parses a --workload-format name (auto, tokentrace, sharegpt,
 * openai-jsonl). Returns 0, or -1 when name is not one. */
int workload_format_from_name(const char *name, enum workload_format *out);

/* The format's name ("sharegpt"). Static string. */
const char *workload_format_name(enum workload_format fmt);

/* Reads JSON Lines from f (a workload_load_file_as helper): lines are
 * numbered from first_line + 1; an AUTO *fmt is decided by the first line
 * (and set). Returns a workload_err with err as workload_load_file_as
 * says. */
int workload_jsonl_read(FILE *f, const char *path, enum workload_format *fmt,
                        bool sessions, int64_t first_line, struct workload *wl,
                        char *err, size_t errlen);

/* Keeps only the classes named in csv ("short-short,long-short"), in that
 * order. NULL keeps all. */
int workload_select(struct workload *wl, const char *csv, char *err,
                    size_t errlen);

/* Characters (not bytes) of UTF-8 text. */
int64_t workload_count_chars(const char *text, size_t len);

/* Estimated tokens of UTF-8 text: characters / 4. */
int64_t workload_estimate_tokens(const char *text, size_t len);

/* Adds an item (taking ownership of its prompt/messages) to the class named
 * name, creating the class at the end when new. */
int workload_add(struct workload *wl, const char *name,
                 const struct workload_item *item);

/* Loads --arrivals FILE (arrivals_file.h; speed divides its times) as a
 * workload of one class, "arrivals", one item per arrival: a filler
 * prompt of its input length (64 tokens when the file gives none) and its
 * output length as max_tokens (-1 when not given); wl->arrivals keeps the
 * times. On WORKLOAD_E_INVALID err reads "FILE:LINE: reason". */
int workload_load_arrivals(const char *path, double speed, struct workload *wl,
                           char *err, size_t errlen);

/* The class --input-tokens sends (docs/workloads.md, "Exact lengths"). */
#define WORKLOAD_EXACT_CLASS "exact"

/* Loads the --input-tokens workload: class "exact" with one item whose
 * prompt is made per request; mean_tokens is its input estimate. */
int workload_load_exact(int64_t mean_tokens, struct workload *wl, char *err,
                        size_t errlen);

/* Frees everything; the workload is empty afterwards. NULL-safe. */
void workload_free(struct workload *wl);

#endif
