/* check_models: after an unknown-model verdict, asks the gateway which
 * models it offers (GET .../v1/models) and names the closest one. */
#ifndef TT_RECORD_CHECK_MODELS_H
#define TT_RECORD_CHECK_MODELS_H

#include <stdbool.h>
#include <stddef.h>

/* Writes a hint for the fix line into hint: ": the gateway lists 3 models:
 * a, b, c (did you mean 'a'?)", or " (the gateway's list: GET URL)" when
 * the list cannot be had. auth_header (may be NULL) is sent as is. Waits
 * at most timeout_s. models_url is what is asked; shown_url the same with
 * a key in its path redacted, the only form printed. */
void check_models_hint(const char *models_url, const char *shown_url,
                       const char *auth_header, const char *proxy,
                       bool anthropic, const char *model, double timeout_s,
                       char *hint, size_t len);

/* Writes into out the model names of a /v1/models reply body (JSON with a
 * "data" or "models" array of objects with "id"/"name", or of strings),
 * comma-separated, at most max names, and the one closest to model (edit
 * distance, ignoring case, or the same name after a "provider/" prefix)
 * into best ("" when none is close). Returns the number of models, or -1
 * when the body is not such a list. */
int check_models_parse(const char *body, size_t len, const char *model,
                       size_t max, char *out, size_t outlen, char *best,
                       size_t bestlen);

/* Writes into out, for a model that answered, a warning when the
 * server's GET models_url lists models and model is not among them (a
 * server that ignores the model name answers for any): "lists 2 models
 * and not 'x' (closest: 'a', 'b')". out is "" when the model is listed,
 * or when the list cannot be had (no such endpoint, not a list, no
 * answer within timeout_s). Arguments as check_models_hint. */
void check_models_missing(const char *models_url, const char *shown_url,
                          const char *auth_header, const char *proxy,
                          bool anthropic, const char *model, double timeout_s,
                          char *out, size_t len);

/* Whether the model list body names model (exactly, or the same name
 * after a "provider/" or path prefix, ignoring case): 1 listed, 0 not
 * (then the up to max closest names, quoted, comma-separated, go into
 * closest, "" when none is close, and *count is the list's length), -1
 * when body is not a model list. */
int check_models_listed(const char *body, size_t len, const char *model,
                        size_t max, char *closest, size_t closest_len,
                        int *count);

#endif
