/* api_kind: the one list of streaming APIs the four programs speak, with
 * the name used on the command line and in trace headers and the URL path
 * a request goes to. The recorder sends them, the replay server routes and
 * answers them, the stream parser and the analyzer read them. */
#ifndef TT_COMMON_API_KIND_H
#define TT_COMMON_API_KIND_H

enum api_kind {
    API_OPENAI_CHAT = 0,        /* "openai-chat", POST /v1/chat/completions */
    API_OPENAI_COMPLETIONS = 1, /* "openai-completions", POST /v1/completions */
    API_ANTHROPIC = 2,          /* "anthropic", POST /v1/messages */
    API_OPENAI_RESPONSES = 3,   /* "openai-responses", POST /v1/responses */
};

#define API_KIND_COUNT 4

/* Returns the kind's name ("openai-chat"), or "unknown" for a value outside
 * the enum. Static string. */
const char *api_kind_name(enum api_kind api);

/* Parses a kind name (exact, case-sensitive) into *out. Returns 0, or -1
 * (and leaves *out alone) when name is NULL or not a kind. */
int api_kind_from_name(const char *name, enum api_kind *out);

/* Returns the kind's URL path below the server's root
 * ("/v1/chat/completions"), or "" for a value outside the enum. */
const char *api_kind_path(enum api_kind api);

/* Returns every name, comma-separated ("openai-chat, openai-completions,
 * anthropic, openai-responses"), for error messages. Static string. */
const char *api_kind_names(void);

#endif
