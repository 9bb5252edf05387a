/* cli_flags: the recorder's flag values that need more than a type of
 * the option engine: cli.c's table names these parsers. */
#include "cli_flags.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rng.h"
#include "sanitize.h"
#include "secret.h"

int cli_value_model(const char *v, void *base, const struct opt_spec *spec,
                    char *err, size_t errlen)
{
    struct config *cfg = base;
    (void)spec;
    if (*v == '\0')
        return opt_error(err, errlen, "-m: empty model name");
    if (cfg->n_models == CLI_MAX_MODELS)
        return opt_error(err, errlen, "-m: at most %d models", CLI_MAX_MODELS);
    for (size_t i = 0; i < cfg->n_models; i++)
        if (strcmp(cfg->models[i], v) == 0)
            return opt_error(err, errlen, "-m: model '%s' given twice",
                             sanitize_shown(v));
    cfg->models[cfg->n_models++] = v;
    return 0;
}

int cli_value_api(const char *v, void *base, const struct opt_spec *spec,
                  char *err, size_t errlen)
{
    struct config *cfg = base;
    (void)spec;
    if (api_kind_from_name(v, &cfg->api) != 0)
        return opt_error(err, errlen, "--api: '%s' is not one of %s",
                         sanitize_shown(v), api_kind_names());
    cfg->api_given = true;
    return 0;
}

int cli_value_api_key_env(const char *v, void *base,
                          const struct opt_spec *spec, char *err, size_t errlen)
{
    struct config *cfg = base;
    (void)spec;
    if (!secret_env_name_ok(v))
        return opt_error(err, errlen,
                         "--api-key-env takes the name of an environment "
                         "variable (like OPENAI_API_KEY), not a key");
    cfg->api_key_env = v;
    cfg->api_key_env_given = true;
    return 0;
}

int cli_value_api_key(const char *v, void *base, const struct opt_spec *spec,
                      char *err, size_t errlen)
{
    (void)v, (void)base, (void)spec;
    return opt_error(err, errlen,
                     "--api-key is not accepted (a key on the command line "
                     "shows up in ps): put the key in an environment variable "
                     "and name it with --api-key-env");
}

int cli_value_seed(const char *v, void *base, const struct opt_spec *spec,
                   char *err, size_t errlen)
{
    (void)spec, (void)err, (void)errlen;
    return rng_seed_parse(v, &((struct config *)base)->seed);
}

/* The first key of the --extra-body object j that would make the trace's
 * labels false (the model, streaming, the prompt), or NULL. Replacing
 * them is refused rather than relabelled: a trace must say what was sent,
 * and -m / -w say it already. */
static const char *extra_body_owned_key(const cJSON *j)
{
    static const char *const owned[] = {"model", "stream", "messages", "prompt",
                                        "input"};
    size_t i;
    for (i = 0; i < sizeof owned / sizeof owned[0]; i++)
        if (cJSON_GetObjectItemCaseSensitive(j, owned[i]))
            return owned[i];
    return NULL;
}

int cli_value_extra_body(const char *v, void *base, const struct opt_spec *spec,
                         char *err, size_t errlen)
{
    cJSON *j = cJSON_Parse(v);
    bool ok = j && cJSON_IsObject(j);
    const char *owned = ok ? extra_body_owned_key(j) : NULL;
    (void)spec;
    cJSON_Delete(j);
    if (!ok)
        return opt_error(err, errlen,
                         "--extra-body: not a JSON object "
                         "(example: '{\"temperature\":0}')");
    if (owned)
        return opt_error(err, errlen,
                         "--extra-body: \"%s\" is the recorder's: %s", owned,
                         strcmp(owned, "model") == 0
                             ? "the trace labels every request with its -m "
                               "model, so name the model with -m MODEL "
                               "(repeatable)"
                         : strcmp(owned, "stream") == 0
                             ? "the recorder measures streams and always "
                               "sends \"stream\": true"
                             : "the prompt comes from the workload (-w FILE, "
                               "--classes), which the trace labels each "
                               "request with");
    ((struct config *)base)->extra_body = v;
    return 0;
}

int cli_value_label(const char *v, void *base, const struct opt_spec *spec,
                    char *err, size_t errlen)
{
    struct config *cfg = base;
    const char *eq = strchr(v, '=');
    struct cli_label *l;
    (void)spec;
    if (!eq || eq == v)
        return opt_error(err, errlen, "--label: '%s' is not KEY=VALUE",
                         sanitize_shown(v));
    if (cfg->n_labels == CLI_MAX_LABELS)
        return opt_error(err, errlen, "--label: at most %d labels",
                         CLI_MAX_LABELS);
    l = &cfg->labels[cfg->n_labels];
    l->key = strndup(v, (size_t)(eq - v));
    if (!l->key)
        return opt_error(err, errlen, "out of memory");
    l->value = eq + 1;
    cfg->n_labels++;
    return 0;
}

int cli_value_server_metrics(const char *v, void *base,
                             const struct opt_spec *spec, char *err,
                             size_t errlen)
{
    struct config *cfg = base;
    (void)spec;
    if (strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0)
        return opt_error(err, errlen,
                         "--server-metrics: '%s' is not an http:// or https:// "
                         "URL (the server's /metrics)",
                         sanitize_shown(v));
    if (cfg->n_server_metrics == CLI_MAX_SERVER_METRICS)
        return opt_error(err, errlen, "--server-metrics: at most %d URLs",
                         CLI_MAX_SERVER_METRICS);
    cfg->server_metrics[cfg->n_server_metrics++] = v;
    return 0;
}

int cli_value_think_time(const char *v, void *base, const struct opt_spec *spec,
                         char *err, size_t errlen)
{
    (void)spec, (void)err, (void)errlen;
    return think_time_parse(v, &((struct config *)base)->think);
}

/* --input-tokens and --output-tokens (spec->at says which). */
int cli_value_tokens(const char *v, void *base, const struct opt_spec *spec,
                     char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return token_length_parse(
        v, (struct token_length *)(void *)((char *)base + spec->at));
}

/* Reads a decimal count from 1 to max at *p, moving *p past it.
 * Returns 0 or -1. */
static int read_count(const char **p, unsigned max, unsigned *out)
{
    unsigned long v = 0;
    const char *s = *p;
    if (*s < '0' || *s > '9')
        return -1;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (unsigned long)(*s++ - '0');
        if (v > max)
            return -1;
    }
    if (v == 0)
        return -1;
    *p = s;
    *out = (unsigned)v;
    return 0;
}

int cli_value_images(const char *v, void *base, const struct opt_spec *spec,
                     char *err, size_t errlen)
{
    struct config *c = base;
    unsigned n, w, h;
    (void)spec, (void)err, (void)errlen;
    if (read_count(&v, 64, &n) || *v++ != ',' || read_count(&v, 4096, &w) ||
        (*v != 'x' && *v != 'X') || (v++, read_count(&v, 4096, &h)) || *v)
        return -1;
    c->images_n = n, c->images_w = w, c->images_h = h;
    return 0;
}

int cli_value_shard(const char *v, void *base, const struct opt_spec *spec,
                    char *err, size_t errlen)
{
    (void)spec;
    return cli_shard_parse(v, &((struct config *)base)->shard, err, errlen) ? -1
                                                                            : 0;
}

int cli_value_start_at(const char *v, void *base, const struct opt_spec *spec,
                       char *err, size_t errlen)
{
    (void)spec;
    return cli_start_at_parse(v, &((struct config *)base)->shard, err, errlen)
               ? -1
               : 0;
}

int cli_value_run_id(const char *v, void *base, const struct opt_spec *spec,
                     char *err, size_t errlen)
{
    (void)spec;
    if (cli_run_id_check(v, "--run-id", err, errlen))
        return -1;
    ((struct config *)base)->shard.run_id = v;
    return 0;
}

int cli_value_keep_awake(const char *v, void *base, const struct opt_spec *spec,
                         char *err, size_t errlen)
{
    (void)spec, (void)err, (void)errlen;
    return keep_awake_parse_mode(v, &((struct config *)base)->keep_awake);
}

int cli_value_search(const char *v, void *base, const struct opt_spec *spec,
                     char *err, size_t errlen)
{
    (void)spec;
    if (cli_search_parse(v, &((struct config *)base)->search, err, errlen) == 0)
        return 0;
    if (sanitize_looks_secret(v))
        snprintf(err, errlen,
                 "--search: [redacted] is not MODE=START,ttft=DUR");
    return -1;
}

int cli_value_sweep(const char *v, void *base, const struct opt_spec *spec,
                    char *err, size_t errlen)
{
    (void)spec;
    if (cli_sweep_parse(v, &((struct config *)base)->sweep, err, errlen) == 0)
        return 0;
    if (sanitize_looks_secret(v))
        snprintf(err, errlen,
                 "--sweep: [redacted] is not concurrency=LOADS or rate=LOADS");
    return -1;
}
