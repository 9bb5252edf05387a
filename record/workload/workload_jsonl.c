/* workload_jsonl: reads a JSON Lines workload file, checking every line:
 * tokentrace's own lines ("class"), ShareGPT or OpenAI chat lines. */
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "json_text.h"

/* Well below the trace reader's 64 MiB record limit, so a request record
 * carrying this body always reads back. */
#define WORKLOAD_MAX_LINE ((size_t)16 << 20)
#define WORKLOAD_MAX_CLASS_NAME 64

/* Checks a "messages" array; returns NULL or the reason it is refused. */
static const char *check_messages(const cJSON *msgs, int64_t *chars)
{
    const cJSON *m;
    *chars = 0;
    if (!cJSON_IsArray(msgs) || cJSON_GetArraySize(msgs) == 0)
        return "\"messages\" must be a non-empty array";
    cJSON_ArrayForEach(m, msgs)
    {
        const char *why = workload_message_check(m);
        if (why)
            return why;
        *chars += dataset_content_chars(
            cJSON_GetObjectItemCaseSensitive(m, "content"));
    }
    return NULL;
}

/* A "conversation" line: the session of its messages (detached from
 * obj into it->session). Returns NULL or why it is refused (in why_buf
 * when it names a message). */
static const char *parse_conversation(cJSON *obj, cJSON *conv,
                                      struct workload_item *it, char *why_buf,
                                      size_t why_len)
{
    const char *why;
    size_t at;
    if (!cJSON_IsArray(conv))
        return "\"conversation\" must be an array of messages";
    cJSON_DetachItemViaPointer(obj, conv);
    if (workload_session_new(conv, &it->session, &why, &at) == 0)
        return NULL;
    if (!at)
        return why;
    snprintf(why_buf, why_len, "\"conversation\" message %zu: %s", at, why);
    return why_buf;
}

/* Turns one parsed line into an item (taking what it needs from obj).
 * Returns NULL or the reason the line is refused. */
static const char *parse_item(cJSON *obj, const char **cls,
                              struct workload_item *it, char *why_buf,
                              size_t why_len)
{
    const cJSON *c, *mt;
    cJSON *msgs, *prompt, *conv;
    int64_t chars = 0;
    const char *why;
    if (!cJSON_IsObject(obj))
        return "not a JSON object";
    c = cJSON_GetObjectItemCaseSensitive(obj, "class");
    if (!c)
        return "missing \"class\"";
    if (!cJSON_IsString(c) || c->valuestring[0] == '\0')
        return "\"class\" must be a non-empty string";
    if (strlen(c->valuestring) > WORKLOAD_MAX_CLASS_NAME)
        return "\"class\" is longer than 64 bytes";
    if (strchr(c->valuestring, ','))
        return "\"class\" must not contain a comma";
    *cls = c->valuestring;
    msgs = cJSON_GetObjectItemCaseSensitive(obj, "messages");
    prompt = cJSON_GetObjectItemCaseSensitive(obj, "prompt");
    conv = cJSON_GetObjectItemCaseSensitive(obj, "conversation");
    if ((msgs != NULL) + (prompt != NULL) + (conv != NULL) > 1)
        return "give one of \"messages\", \"prompt\" or \"conversation\"";
    if (!msgs && !prompt && !conv)
        return "missing \"messages\" (or \"prompt\", \"conversation\")";
    if (conv) {
        why = parse_conversation(obj, conv, it, why_buf, why_len);
        if (why)
            return why;
    } else if (msgs) {
        why = check_messages(msgs, &chars);
        if (why)
            return why;
    } else if (!cJSON_IsString(prompt) || prompt->valuestring[0] == '\0') {
        return "\"prompt\" must be a non-empty string";
    } else {
        chars = workload_count_chars(prompt->valuestring,
                                     strlen(prompt->valuestring));
    }
    mt = cJSON_GetObjectItemCaseSensitive(obj, "max_tokens");
    it->max_tokens = -1;
    if (mt) {
        double v = cJSON_IsNumber(mt) ? mt->valuedouble : -1;
        if (!cJSON_IsNumber(mt) || v < 1 || v > 1e7 || v != floor(v))
            return "\"max_tokens\" must be a whole number from 1";
        it->max_tokens = (int64_t)v;
    }
    if (conv) {
        it->input_tokens_est = it->session->turns[0].input_chars / 4;
        return NULL;
    }
    it->input_tokens_est = chars / 4;
    if (msgs) {
        it->messages = cJSON_DetachItemViaPointer(obj, msgs);
    } else {
        it->prompt = strdup(prompt->valuestring);
        if (!it->prompt)
            return "out of memory";
    }
    return NULL;
}

/* True when the len bytes at p are all blank. */
static bool blank(const char *p, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++)
        if (!(p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
            return false;
    return true;
}

/* The format of a line in a file whose format is not given: decided by
 * its keys (the first line decides for the file). */
static enum workload_format line_format(const cJSON *obj)
{
    if (cJSON_GetObjectItemCaseSensitive(obj, "class"))
        return WORKLOAD_FORMAT_TOKENTRACE;
    if (cJSON_GetObjectItemCaseSensitive(obj, "conversations"))
        return WORKLOAD_FORMAT_SHAREGPT;
    if (cJSON_GetObjectItemCaseSensitive(obj, "messages"))
        return WORKLOAD_FORMAT_OPENAI_JSONL;
    return WORKLOAD_FORMAT_TOKENTRACE; /* whose errors say what is missing */
}

/* A dataset line (ShareGPT or OpenAI chat) into an item of its class;
 * *skip when it has nothing to send. NULL or the reason it is refused. */
static const char *parse_dataset(enum workload_format fmt, bool sessions,
                                 cJSON *obj, const char **cls,
                                 struct workload_item *it, bool *skip)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(obj, "class");
    const cJSON *mt = cJSON_GetObjectItemCaseSensitive(obj, "max_tokens");
    const char *why;
    if (fmt == WORKLOAD_FORMAT_SHAREGPT) {
        *cls = DATASET_CLASS_SHAREGPT;
        return sessions ? dataset_session_item(obj, true, it, skip)
                        : dataset_sharegpt_item(obj, it, skip);
    }
    *cls = DATASET_CLASS_CHAT;
    if (c && (!cJSON_IsString(c) || c->valuestring[0] == '\0' ||
              strlen(c->valuestring) > WORKLOAD_MAX_CLASS_NAME ||
              strchr(c->valuestring, ',')))
        return "\"class\" must be a non-empty string of at most 64 bytes "
               "without a comma";
    if (mt &&
        (!cJSON_IsNumber(mt) || mt->valuedouble < 1 || mt->valuedouble > 1e7 ||
         mt->valuedouble != floor(mt->valuedouble)))
        return "\"max_tokens\" must be a whole number from 1";
    why = sessions ? dataset_session_item(obj, false, it, skip)
                   : dataset_chat_item(obj, it, skip);
    if (!why && !*skip && c)
        *cls = c->valuestring; /* valid while obj lives */
    if (!why && !*skip && mt)
        it->max_tokens = (int64_t)mt->valuedouble;
    return why;
}

/* Parses one non-blank line; fills err with "FILE:LINE: reason" on error.
 * *fmt AUTO is decided by this line. */
static int load_line(struct workload *wl, const char *path, int64_t lineno,
                     enum workload_format *fmt, bool sessions, char *line,
                     size_t len, char *err, size_t errlen)
{
    const char *end = NULL, *cls = NULL, *why;
    char why_buf[160];
    struct workload_item it = {lineno - 1, NULL, NULL,  -1,   0,
                               0,          NULL, false, NULL, 0};
    bool skip = false;
    cJSON *obj = cJSON_ParseWithLengthOpts(line, len, &end, false);
    size_t bad_at = 0;
    const char *bad = json_text_unsendable(line, len, &bad_at);
    int rc;
    if (obj && *fmt == WORKLOAD_FORMAT_AUTO)
        *fmt = line_format(obj);
    if (bad && *fmt == WORKLOAD_FORMAT_TOKENTRACE) {
        snprintf(err, errlen, "%s:%lld: %s (at column %zu)", path,
                 (long long)lineno, bad, bad_at + 1);
        cJSON_Delete(obj);
        return WORKLOAD_E_INVALID;
    }
    if (bad) { /* a dataset's line: this one only, the others are sent */
        if (!wl->unsendable++)
            snprintf(wl->unsendable_first, sizeof wl->unsendable_first,
                     "%s:%lld: %s (at column %zu)", path, (long long)lineno,
                     bad, bad_at + 1);
        wl->skipped++;
        cJSON_Delete(obj);
        return WORKLOAD_OK;
    }
    if (!obj) {
        const char *at = cJSON_GetErrorPtr();
        long col =
            at && at >= line && at <= line + len ? (long)(at - line) + 1 : 1;
        snprintf(err, errlen, "%s:%lld: not valid JSON (at column %ld)", path,
                 (long long)lineno, col);
        return WORKLOAD_E_INVALID;
    }
    if (end && !blank(end, len - (size_t)(end - line))) {
        snprintf(err, errlen, "%s:%lld: more than one JSON value on the line",
                 path, (long long)lineno);
        cJSON_Delete(obj);
        return WORKLOAD_E_INVALID;
    }
    if (*fmt == WORKLOAD_FORMAT_AUTO)
        *fmt = line_format(obj);
    why = *fmt == WORKLOAD_FORMAT_TOKENTRACE
              ? parse_item(obj, &cls, &it, why_buf, sizeof why_buf)
              : parse_dataset(*fmt, sessions, obj, &cls, &it, &skip);
    if (!why && skip) {
        wl->skipped++;
        cJSON_Delete(obj);
        return WORKLOAD_OK;
    }
    if (why) {
        snprintf(err, errlen, "%s:%lld: %s", path, (long long)lineno, why);
        free(it.prompt);
        cJSON_Delete(it.messages);
        cJSON_Delete(obj);
        workload_session_free(it.session);
        return WORKLOAD_E_INVALID;
    }
    rc = workload_add(wl, cls, &it);
    cJSON_Delete(obj);
    if (rc) {
        free(it.prompt);
        cJSON_Delete(it.messages);
        workload_session_free(it.session);
        snprintf(err, errlen, "out of memory reading %s", path);
    }
    return rc;
}

int workload_jsonl_read(FILE *f, const char *path, enum workload_format *fmt,
                        bool sessions, int64_t first_line, struct workload *wl,
                        char *err, size_t errlen)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int64_t lineno = first_line;
    int rc = WORKLOAD_OK;
    while ((n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if ((size_t)n > WORKLOAD_MAX_LINE) {
            snprintf(err, errlen, "%s:%lld: line longer than 16 MiB", path,
                     (long long)lineno);
            rc = WORKLOAD_E_INVALID;
            break;
        }
        if (blank(line, (size_t)n))
            continue;
        rc = load_line(wl, path, lineno, fmt, sessions, line, (size_t)n, err,
                       errlen);
        if (rc)
            break;
    }
    if (!rc && ferror(f)) {
        snprintf(err, errlen, "cannot read the workload %s: %s", path,
                 strerror(errno));
        rc = WORKLOAD_E_IO;
    }
    if (*fmt == WORKLOAD_FORMAT_AUTO) /* no line: tokentrace's "no prompts" */
        *fmt = WORKLOAD_FORMAT_TOKENTRACE;
    free(line);
    return rc;
}
