/* stream_fields: the members of one event's JSON that stream_events.c
 * reads on its cJSON path (the fast scan, stream_scan.c, reads the usual
 * shapes without it): strings, counts, llama.cpp's timings, Anthropic's
 * cache counts, the Responses API's delta types. */
#include "stream_fields.h"

#include <math.h>
#include <string.h>

/* Returns a JSON member that is a non-empty string, else NULL. */
const char *stream_fields_text(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (cJSON_IsString(v) && v->valuestring && v->valuestring[0])
        return v->valuestring;
    return NULL;
}

/* Stores a JSON member that is a non-negative whole number into *out. */
void stream_fields_count(const cJSON *obj, const char *key, int64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble >= 0 &&
        v->valuedouble < 9e15)
        *out = (int64_t)v->valuedouble;
}

/* Returns true when a JSON member is the given string. */
bool stream_fields_is(const cJSON *obj, const char *key, const char *want)
{
    const char *v = stream_fields_text(obj, key);
    return v && strcmp(v, want) == 0;
}

/* A JSON member that is a finite number >= 0, else NAN. */
static double stream_fields_ms(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble >= 0)
        return v->valuedouble;
    return NAN;
}

/* llama.cpp's "timings" object (its last chunk): the server's own view of
 * the request. The last one seen wins. */
void stream_fields_llama_timings(struct stream_state *s, int64_t t_ns,
                                 const cJSON *t)
{
    struct stream_server_timings *st = &s->server_timings;
    if (!cJSON_IsObject(t))
        return;
    st->present = true;
    st->t_ns = t_ns;
    stream_fields_count(t, "prompt_n", &st->prompt_n);
    stream_fields_count(t, "predicted_n", &st->predicted_n);
    stream_fields_count(t, "cache_n", &st->cache_n);
    st->prompt_ms = stream_fields_ms(t, "prompt_ms");
    st->predicted_ms = stream_fields_ms(t, "predicted_ms");
    st->predicted_per_token_ms = stream_fields_ms(t, "predicted_per_token_ms");
}

/* Anthropic's prompt-cache counts of a usage object (NULL-safe). */
void stream_fields_anthropic_cache(struct stream_state *s, const cJSON *u)
{
    stream_fields_count(u, "cache_read_input_tokens", &s->usage_cached_tokens);
    stream_fields_count(u, "cache_creation_input_tokens",
                        &s->usage_cache_write_tokens);
}

/* The text piece of a Responses API *.delta event, by its type. Returns
 * false when the type carries no generated text. */
bool stream_fields_responses_piece(const char *type, bool *reasoning,
                                   bool *tool)
{
    static const struct {
        const char *type;
        bool reasoning, tool;
    } kinds[] = {
        {"response.output_text.delta", false, false},
        {"response.refusal.delta", false, false},
        {"response.reasoning_text.delta", true, false},
        {"response.reasoning_summary_text.delta", true, false},
        {"response.function_call_arguments.delta", false, true},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(type, kinds[i].type) == 0) {
            *reasoning = kinds[i].reasoning;
            *tool = kinds[i].tool;
            return true;
        }
    return false;
}
