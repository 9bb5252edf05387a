/* replay_synth_spec: parses --synthetic SPEC strings into timing profiles. */
#include "replay_synth_spec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"

#define SPEC_TEXT_MAX 8192

void synth_spec_defaults(struct synth_spec *out)
{
    memset(out, 0, sizeof(*out));
    out->def.ttft_ns = SYNTH_DEFAULT_TTFT_NS;
    out->def.tpot_ns = SYNTH_DEFAULT_TPOT_NS;
    out->def.ttft_per_1k_ns = 0;
    out->def.tokens = SYNTH_DEFAULT_TOKENS;
    out->def.tokens_per_chunk = 1;
    out->def.jitter = 0.0;
}

int synth_parse_duration(const char *s, int64_t *ns)
{
    double t;
    /* common/duration.h's grammar; a bare number needs a unit, except 0 */
    if (duration_parse(s, DURATION_NONE, DURATION_NS, &t) != 0 ||
        t > (double)SYNTH_MAX_DURATION_NS)
        return -1;
    *ns = (int64_t)llround(t);
    return 0;
}

/* Parses a whole decimal integer in [lo, hi]. Returns 0 or -1. */
static int parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end = NULL;
    long long v;

    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Parses a fraction in [0, 1]. Returns 0 or -1. */
static int parse_fraction(const char *s, double *out)
{
    char *end = NULL;
    double v;

    if ((*s < '0' || *s > '9') && *s != '.')
        return -1;
    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || v < 0 ||
        v > 1)
        return -1;
    *out = v;
    return 0;
}

/* Applies one key=value to p. Returns 0 or -1 with err filled. */
static int apply_key(struct synth_profile *p, const char *key, const char *val,
                     char *err, size_t errlen)
{
    int rc = 0;

    if (strcmp(key, "ttft") == 0)
        rc = synth_parse_duration(val, &p->ttft_ns);
    else if (strcmp(key, "tpot") == 0)
        rc = synth_parse_duration(val, &p->tpot_ns);
    else if (strcmp(key, "ttft_per_1k") == 0)
        rc = synth_parse_duration(val, &p->ttft_per_1k_ns);
    else if (strcmp(key, "tokens") == 0)
        rc = parse_int(val, 1, SYNTH_MAX_TOKENS, &p->tokens);
    else if (strcmp(key, "tokens_per_chunk") == 0)
        rc =
            parse_int(val, 1, SYNTH_MAX_TOKENS_PER_CHUNK, &p->tokens_per_chunk);
    else if (strcmp(key, "jitter") == 0)
        rc = parse_fraction(val, &p->jitter);
    else if (strcmp(key, "keepalive") == 0)
        rc = synth_parse_duration(val, &p->keepalive_ns);
    else if (strcmp(key, "capacity") == 0)
        rc = parse_int(val, 0, SYNTH_MAX_CAPACITY, &p->capacity);
    else if (strcmp(key, "batch_tpot") == 0)
        rc = synth_parse_duration(val, &p->batch_tpot_ns);
    else if (strcmp(key, "cache") == 0)
        rc = parse_int(val, 0, SYNTH_MAX_CACHE_TOKENS, &p->cache_tokens);
    else if (strcmp(key, "align") == 0)
        rc = synth_parse_duration(val, &p->align_ns);
    else if (strcmp(key, "count") == 0) {
        rc = strcmp(val, "words") == 0 ? 0 : strcmp(val, "chars") == 0 ? 0 : -1;
        p->count_words = strcmp(val, "words") == 0;
    } else {
        snprintf(err, errlen,
                 "unknown key '%s' (known: ttft, tpot, tokens, jitter, "
                 "ttft_per_1k, tokens_per_chunk, keepalive, capacity, "
                 "batch_tpot, cache, align, count, model)",
                 key);
        return -1;
    }
    if (rc != 0) {
        const char *want =
            "a duration such as 80ms, 1.5s, 250us (units " DURATION_UNITS ")";
        if (strcmp(key, "tokens") == 0)
            want = "an integer from 1 to 1000000000";
        else if (strcmp(key, "tokens_per_chunk") == 0)
            want = "an integer from 1 to 1024";
        else if (strcmp(key, "jitter") == 0)
            want = "a fraction from 0 to 1";
        else if (strcmp(key, "capacity") == 0)
            want = "an integer from 0 (unlimited) to 65536";
        else if (strcmp(key, "cache") == 0)
            want = "a number of tokens from 0 (none) to 100000000";
        else if (strcmp(key, "count") == 0)
            want = "chars (characters / 4) or words (words and punctuation)";
        snprintf(err, errlen, "bad value '%s' for %s: want %s", val, key, want);
        return -1;
    }
    return 0;
}

/* Applies every key=value of one profile to p. profile is a writable copy
 * and is cut up in place; a leading model=NAME is skipped (the caller reads
 * it). Returns 0 or -1 with err filled. */
static int parse_profile(char *profile, struct synth_profile *p, char *err,
                         size_t errlen)
{
    char *item = profile;

    while (item != NULL) {
        char *next = strchr(item, ',');
        char *eq;
        if (next != NULL)
            *next++ = '\0';
        if (*item == '\0') {
            snprintf(err, errlen, "empty item (stray ',')");
            return -1;
        }
        eq = strchr(item, '=');
        if (eq == NULL) {
            snprintf(err, errlen, "'%s' is not key=value", item);
            return -1;
        }
        *eq = '\0';
        if (strcmp(item, "model") == 0) {
            if (item != profile) {
                snprintf(err, errlen, "model= must come first in a profile");
                return -1;
            }
        } else if (apply_key(p, item, eq + 1, err, errlen) != 0) {
            return -1;
        }
        item = next;
    }
    return 0;
}

/* Checks what single keys cannot: the generation's length. Returns 0 or
 * -1 with err filled. */
static int check_profile(const struct synth_profile *p, char *err,
                         size_t errlen)
{
    /* the slowest TPOT the batch model can give: every slot decoding */
    int64_t tpot = p->tpot_ns;
    if (p->capacity > 1) {
        if (p->batch_tpot_ns >
            (SYNTH_MAX_DURATION_NS - tpot) / (p->capacity - 1)) {
            snprintf(err, errlen,
                     "%s%s%stpot + batch_tpot x (capacity - 1) is above 1 h",
                     p->model[0] ? "model " : "", p->model,
                     p->model[0] ? ": " : "");
            return -1;
        }
        tpot += p->batch_tpot_ns * (p->capacity - 1);
    }
    if (tpot > 0 && p->tokens > SYNTH_MAX_GENERATION_NS / tpot) {
        snprintf(err, errlen,
                 "%s%s%stokens x tpot is above 1000000 h: fewer tokens or a "
                 "shorter tpot",
                 p->model[0] ? "model " : "", p->model,
                 p->model[0] ? ": " : "");
        return -1;
    }
    return 0;
}

/* Returns the model named by a profile's leading model=NAME (written into
 * name), "" when it has none. Returns -1 on a bad name. */
static int profile_model(const char *profile, char *name, size_t cap, char *err,
                         size_t errlen)
{
    size_t len;
    const char *end;

    name[0] = '\0';
    if (strncmp(profile, "model=", 6) != 0)
        return 0;
    end = strchr(profile + 6, ',');
    len = end ? (size_t)(end - (profile + 6)) : strlen(profile + 6);
    if (len == 0 || len >= cap) {
        snprintf(err, errlen, "model name empty or longer than %zu bytes",
                 cap - 1);
        return -1;
    }
    memcpy(name, profile + 6, len);
    name[len] = '\0';
    return 0;
}

int synth_spec_parse(const char *text, struct synth_spec *out, char *err,
                     size_t errlen)
{
    char copy[SPEC_TEXT_MAX];
    char *profiles[SYNTH_MAX_MODELS + 2];
    size_t n = 0, i;
    int have_default = 0;
    char *p;

    synth_spec_defaults(out);
    if (text == NULL || strlen(text) >= sizeof(copy)) {
        snprintf(err, errlen, "spec missing or longer than %zu bytes",
                 sizeof(copy) - 1);
        return SYNTH_E_SYNTAX;
    }
    snprintf(copy, sizeof(copy), "%s", text);
    p = copy;
    while (p != NULL) {
        char *next = strchr(p, ';');
        if (next != NULL)
            *next++ = '\0';
        if (*p == '\0') {
            snprintf(err, errlen, "empty profile (stray ';' or empty spec)");
            return SYNTH_E_SYNTAX;
        }
        if (n == sizeof(profiles) / sizeof(profiles[0])) {
            snprintf(err, errlen, "too many profiles (max %d models)",
                     SYNTH_MAX_MODELS);
            return SYNTH_E_SYNTAX;
        }
        profiles[n++] = p;
        p = next;
    }
    /* Pass 1: the default profile, which the model profiles inherit. */
    for (i = 0; i < n; i++) {
        if (strncmp(profiles[i], "model=", 6) == 0)
            continue;
        if (have_default) {
            snprintf(err, errlen, "more than one profile without model=");
            return SYNTH_E_SYNTAX;
        }
        have_default = 1;
        if (parse_profile(profiles[i], &out->def, err, errlen) != 0 ||
            check_profile(&out->def, err, errlen) != 0)
            return SYNTH_E_SYNTAX;
    }
    /* Pass 2: per-model profiles. */
    for (i = 0; i < n; i++) {
        struct synth_profile *mp;
        char name[SYNTH_MODEL_MAX];
        size_t j;
        if (strncmp(profiles[i], "model=", 6) != 0)
            continue;
        if (profile_model(profiles[i], name, sizeof(name), err, errlen) != 0)
            return SYNTH_E_SYNTAX;
        for (j = 0; j < out->n_models; j++) {
            if (strcmp(out->models[j].model, name) == 0) {
                snprintf(err, errlen, "model '%s' has two profiles", name);
                return SYNTH_E_SYNTAX;
            }
        }
        if (out->n_models == SYNTH_MAX_MODELS) {
            snprintf(err, errlen, "too many model profiles (max %d)",
                     SYNTH_MAX_MODELS);
            return SYNTH_E_SYNTAX;
        }
        mp = &out->models[out->n_models];
        *mp = out->def;
        if (parse_profile(profiles[i], mp, err, errlen) != 0)
            return SYNTH_E_SYNTAX;
        memcpy(mp->model, name, sizeof(name));
        if (check_profile(mp, err, errlen) != 0)
            return SYNTH_E_SYNTAX;
        out->n_models++;
    }
    return SYNTH_OK;
}

const struct synth_profile *synth_spec_lookup(const struct synth_spec *spec,
                                              const char *model)
{
    size_t i;

    if (model != NULL) {
        for (i = 0; i < spec->n_models; i++) {
            if (strcmp(spec->models[i].model, model) == 0)
                return &spec->models[i];
        }
    }
    return &spec->def;
}
