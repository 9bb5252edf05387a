/* fuzz_cline_settings: the Cline settings reader
 * (record/config/cline_settings.c over record/config/jsonc.c, VS Code's JSON
 * with comments) on arbitrary settings.json text.
 *
 * Invariants checked beyond "no crash":
 * - jsonc_parse: on success the stripped text is as long as the input,
 *   each of its bytes is the input's or a blank, every line break stays in
 *   place (so lines match) and jsonc_line_at counts the input's lines; every
 *   top-level member jsonc_get finds has a line from jsonc_key_line; on
 *   failure the line is 1..lines (0 only when the input is too large);
 * - cline_settings_parse agrees with jsonc_parse on syntax; on success the
 *   provider is absent or "openai" ("openai-compatible" from Cline's own
 *   providers.json or globalState.json), strings are non-empty and trimmed, at
 *   most one of key_env / key_literal is set, key_env is a variable name
 *   that does not look like a key,
 *   max_tokens and the timeout are -1 or in range, something was found, and
 *   each value found has its line; a refusal starts with the file name;
 * - no message shows anything that looks like a key (sanitize.h's test,
 *   the one the recorder uses for what it stores), nor 12 bytes (found
 *   nowhere else in the file) of a key-like value after "openAiApiKey"
 *   (the key's likely place, even in a file that does not parse);
 * - cline_settings_apply on an empty config borrows the values. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cline_settings.h"
#include "fuzz_common.h"
#include "jsonc.h"
#include "sanitize.h"
#include "secret.h"

#define NAME "settings.json"

/* Lines of the input as jsonc counts them: line breaks plus one. */
static int count_lines(const uint8_t *data, size_t size)
{
    int lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    return lines;
}

/* jsonc_parse alone. Returns its result. */
static int check_jsonc(const uint8_t *data, size_t size, int lines)
{
    struct jsonc_doc doc;
    char err[256];
    int line = -1;
    int rc =
        jsonc_parse((const char *)data, size, &doc, &line, err, sizeof(err));
    FUZZ_CHECK(strlen(err) < sizeof(err));
    if (rc != JSONC_OK) {
        FUZZ_CHECK(rc == JSONC_E_SYNTAX || rc == JSONC_E_TOO_LARGE ||
                   rc == JSONC_E_NOMEM);
        FUZZ_CHECK(doc.text == NULL && doc.root == NULL);
        FUZZ_CHECK(err[0] != '\0');
        FUZZ_CHECK(rc != JSONC_E_SYNTAX || (line >= 1 && line <= lines));
        return rc;
    }
    FUZZ_CHECK(doc.len == size && doc.text != NULL && doc.root != NULL);
    for (size_t i = 0; i < size; i++) {
        char in = (char)data[i], out = doc.text[i];
        FUZZ_CHECK(out == in || out == ' ');
        FUZZ_CHECK((in == '\n') == (out == '\n'));
    }
    FUZZ_CHECK(jsonc_line_at(&doc, size) == lines);
    if (cJSON_IsObject(doc.root)) {
        const cJSON *it;
        cJSON_ArrayForEach(it, doc.root)
        {
            int kl;
            FUZZ_CHECK(it->string != NULL);
            FUZZ_CHECK(jsonc_get(&doc, it->string) != NULL);
            kl = jsonc_key_line(&doc, it->string);
            FUZZ_CHECK(kl >= 1 && kl <= lines);
        }
    }
    jsonc_free(&doc);
    FUZZ_CHECK(doc.text == NULL && doc.root == NULL);
    return rc;
}

/* True when the n bytes at p occur in s. */
static bool contains(const char *s, const uint8_t *p, size_t n)
{
    for (; *s; s++)
        if (strncmp(s, (const char *)p, n) == 0)
            return true;
    return false;
}

/* Characters of a key token, as sanitize.c counts them. */
static bool key_char(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

/* True when the n bytes at p hold both letters and digits. */
static bool mixed(const uint8_t *p, size_t n)
{
    bool letters = false, digits = false;
    for (size_t i = 0; i < n; i++) {
        if (p[i] >= '0' && p[i] <= '9')
            digits = true;
        else if ((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'z')
            letters = true;
    }
    return letters && digits;
}

/* How many times the n bytes at p occur in data (stops at 2). */
static int occurrences(const uint8_t *data, size_t size, const uint8_t *p,
                       size_t n)
{
    int found = 0;
    for (size_t i = 0; i + n <= size && found < 2; i++)
        found += memcmp(data + i, p, n) == 0;
    return found;
}

/* The message never repeats 12 bytes of a key-like value written after
 * "openAiApiKey" (past at least one quote, colon or blank, a run of key
 * characters of 12 or more with letters and digits; a "${env:VAR}"
 * reference, which messages do name, is not one). Only 12 bytes that mix
 * letters and digits (the fixed words of the messages have no digits) and
 * occur once in the file (else the message may show the other place) are
 * looked for, in the first 64 bytes of the first 8 such values. */
static void check_key_not_shown(const uint8_t *data, size_t size,
                                const char *err)
{
    static const char needle[] = "openAiApiKey";
    size_t n = sizeof(needle) - 1;
    int values = 0;
    for (size_t i = 0; i + n <= size && values < 8; i++) {
        size_t v = i + n, len = 0;
        bool letters = false, digits = false;
        if (memcmp(data + i, needle, n) != 0)
            continue;
        while (v < size && data[v] != 0 && strchr(" \t\r\n\":", data[v]))
            v++;
        if (v == i + n)
            continue;
        for (; v + len < size && key_char(data[v + len]); len++) {
            if (data[v + len] >= '0' && data[v + len] <= '9')
                digits = true;
            else
                letters = true;
        }
        if (len < 12 || !letters || !digits)
            continue;
        values++;
        for (size_t j = 0; j + 12 <= len && j < 64; j++)
            if (mixed(data + v + j, 12) &&
                occurrences(data, size, data + v + j, 12) == 1)
                FUZZ_CHECK(!contains(err, data + v + j, 12));
    }
}

/* A present string setting: non-empty, trimmed, with its line. */
static void check_string(const char *s, int line, int lines)
{
    size_t n;
    if (!s)
        return;
    n = strlen(s);
    FUZZ_CHECK(n > 0);
    FUZZ_CHECK(s[0] != ' ' && s[0] != '\t');
    FUZZ_CHECK(s[n - 1] != ' ' && s[n - 1] != '\t');
    FUZZ_CHECK(line >= 1 && line <= lines);
}

/* The settings read from a file that parsed. */
static void check_settings(struct cline_settings *cs, int lines)
{
    struct config cfg;
    char err[1024] = "";
    int rc;
    FUZZ_CHECK(strcmp(cs->path, NAME) == 0);
    FUZZ_CHECK(!cs->provider || strcmp(cs->provider, "openai") == 0 ||
               (cs->form != CLINE_FORM_VSCODE &&
                strcmp(cs->provider, "openai-compatible") == 0));
    check_string(cs->provider, cs->provider_line, lines);
    check_string(cs->base_url, cs->base_url_line, lines);
    check_string(cs->model, cs->model_line, lines);
    check_string(cs->key_literal, cs->key_line, lines);
    FUZZ_CHECK(!(cs->key_env && cs->key_literal));
    FUZZ_CHECK(!cs->key_env || (secret_env_name_ok(cs->key_env) &&
                                !sanitize_looks_secret(cs->key_env)));
    FUZZ_CHECK(!cs->key_env || (cs->key_line >= 1 && cs->key_line <= lines));
    FUZZ_CHECK(cs->max_tokens == -1 ||
               (cs->max_tokens >= 1 && cs->max_tokens <= 10000000));
    FUZZ_CHECK(cs->max_tokens == -1 ||
               (cs->max_tokens_line >= 1 && cs->max_tokens_line <= lines));
    FUZZ_CHECK(cs->timeout_ms == -1 ||
               (cs->timeout_ms >= 1 && cs->timeout_ms <= 100000000000LL));
    FUZZ_CHECK(cs->timeout_ms == -1 ||
               (cs->timeout_line >= 1 && cs->timeout_line <= lines));
    FUZZ_CHECK(cs->provider || cs->base_url || cs->key_env || cs->key_literal ||
               cs->model);

    memset(&cfg, 0, sizeof(cfg));
    rc = cline_settings_apply(cs, &cfg, err, sizeof(err));
    FUZZ_CHECK(cfg.base_url == cs->base_url);
    FUZZ_CHECK(cs->model ? cfg.n_models == 1 && cfg.models[0] == cs->model
                         : cfg.n_models == 0);
    FUZZ_CHECK(cs->overridden[0] == '\0');
    if (rc != CLINE_OK) { /* only a ${env:VAR} that this process lacks */
        FUZZ_CHECK(rc == CLINE_E_INVALID && cs->key_env != NULL);
        FUZZ_CHECK(strncmp(err, NAME ":", strlen(NAME ":")) == 0);
        FUZZ_CHECK(!sanitize_looks_secret(err));
    } else {
        FUZZ_CHECK(cfg.api_key_literal == cs->key_literal);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cline_settings *cs = NULL;
    char err[1024];
    int lines = count_lines(data, size);
    int syntax = check_jsonc(data, size, lines);
    int rc;
    memset(err, 'x', sizeof(err));
    rc = cline_settings_parse(NAME, (const char *)data, size, &cs, err,
                              sizeof(err));
    if (rc == CLINE_OK) {
        FUZZ_CHECK(syntax == JSONC_OK && cs != NULL);
        check_settings(cs, lines);
    } else {
        FUZZ_CHECK(cs == NULL);
        FUZZ_CHECK(memchr(err, '\0', sizeof(err)) != NULL);
        FUZZ_CHECK(rc == CLINE_E_INVALID || rc == CLINE_E_NOMEM);
        FUZZ_CHECK(strncmp(err, NAME, strlen(NAME)) == 0 ||
                   strcmp(err, "out of memory") == 0);
        FUZZ_CHECK(!sanitize_looks_secret(err));
        check_key_not_shown(data, size, err);
    }
    cline_settings_free(cs);
    return 0;
}
