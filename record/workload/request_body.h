/* request_body: the JSON body of one streaming request, built with cJSON. */
#ifndef TT_RECORD_REQUEST_BODY_H
#define TT_RECORD_REQUEST_BODY_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "workload.h"

struct request_body_opts {
    enum api_kind api;
    const char *model;
    int64_t max_tokens; /* -1: not sent */
    bool ignore_eos;
    const cJSON *extra; /* merged last (its keys replace ours), or NULL */
    int64_t min_tokens; /* "min_tokens" (vLLM, SGLang), 0: not sent */
};

/* Builds the body for item: chat and anthropic send "messages" (a text
 * prompt becomes one user message; anthropic gets system messages as
 * "system"), completions sends "prompt" (messages joined by blank lines).
 * openai-responses sends "input" (messages, content flattened to text)
 * and "max_output_tokens". Chat and completions ask for "stream": true
 * with "stream_options": {"include_usage": true}; anthropic and
 * openai-responses for "stream": true. Returns a malloc'd
 * string, or NULL when out of memory. */
char *request_body_build(const struct request_body_opts *o,
                         const struct workload_item *item);

#endif
