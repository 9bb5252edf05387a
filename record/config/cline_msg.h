/* cline_msg: the wording shared by the readers of Cline's settings files
 * (cline_settings.c, cline_store.c) and the messages that name a setting
 * (the doctor, the recorder). */
#ifndef TT_RECORD_CLINE_MSG_H
#define TT_RECORD_CLINE_MSG_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "cline_settings.h"

/* The seed's VS Code settings.json keys (cline_settings.h). */
#define K_PROVIDER "cline.apiProvider"
#define K_BASE_URL "cline.openAiBaseUrl"
#define K_KEY "cline.openAiApiKey"
#define K_MODEL "cline.openAiModelId"
#define K_MODEL_INFO "cline.openAiModelInfo"
#define K_MAX_TOKENS "cline.openAiModelInfo.maxTokens"
#define K_TIMEOUT "cline.requestTimeoutMs"

/* Cline's id of its "OpenAI Compatible" provider. */
#define K_OPENAI_COMPATIBLE "openai"

/* "FILE:LINE: KEY: reason" into err (the line 1 when unknown), the
 * shared form of every message about a settings file; returns
 * CLINE_E_INVALID. */
int cline_msg_bad(char *err, size_t errlen, const char *name, int line,
                  const char *key, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* True when a provider value may be quoted in a message: a short id such
 * as "anthropic" or "openrouter", nothing that could be a pasted key. */
bool cline_msg_shown(const char *v);

/* The JSON type of v for messages: "a string", "a number", ... */
const char *cline_msg_type(const cJSON *v);

/* The message name of setting leaf of cs: its scope and leaf, into b. */
const char *cline_msg_name(const struct cline_settings *cs, const char *leaf,
                           char *b, size_t len);

#endif
