/* workload_file: a -w file in whatever format it is in: tokentrace's JSON
 * Lines, OpenAI chat JSONL, ShareGPT lines, or a JSON array of ShareGPT /
 * chat entries read one entry at a time (json_array.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "json_array.h"
#include "json_text.h"
#include "workload.h"
#include "workload_session.h"

/* Entries of a JSON array are capped as JSON Lines lines are. */
#define WORKLOAD_MAX_ENTRY ((size_t)16 << 20)

static const char *const format_names[] = {
    [WORKLOAD_FORMAT_AUTO] = "auto",
    [WORKLOAD_FORMAT_TOKENTRACE] = "tokentrace",
    [WORKLOAD_FORMAT_SHAREGPT] = "sharegpt",
    [WORKLOAD_FORMAT_OPENAI_JSONL] = "openai-jsonl",
};

int workload_format_from_name(const char *name, enum workload_format *out)
{
    for (size_t i = 0; name && i < sizeof format_names / sizeof *format_names;
         i++)
        if (strcmp(name, format_names[i]) == 0) {
            *out = (enum workload_format)i;
            return 0;
        }
    return -1;
}

const char *workload_format_name(enum workload_format fmt)
{
    if ((unsigned)fmt < sizeof format_names / sizeof *format_names)
        return format_names[fmt];
    return "unknown";
}

/* One array entry into the workload (skipped ones counted). */
static int load_entry(struct json_array *a, const char *path,
                      enum workload_format fmt, bool sessions,
                      struct workload *wl, char *err, size_t errlen)
{
    struct workload_item it = {a->index, NULL, NULL,  -1,   0,
                               0,        NULL, false, NULL, 0};
    const char *why, *cls;
    bool skip = false, sharegpt;
    cJSON *obj;
    size_t bad_at = 0;
    const char *bad = json_text_unsendable(a->elem, a->elem_len, &bad_at);
    int rc;
    if (bad) { /* this entry only: the others are sent */
        if (!wl->unsendable++)
            snprintf(wl->unsendable_first, sizeof wl->unsendable_first,
                     "%s: entry %lld (byte %lld): %s (at byte %lld)", path,
                     (long long)a->index, (long long)a->elem_offset, bad,
                     (long long)(a->elem_offset + (int64_t)bad_at));
        wl->skipped++;
        return WORKLOAD_OK;
    }
    obj = cJSON_ParseWithLength(a->elem, a->elem_len);
    if (!obj) {
        const char *at = cJSON_GetErrorPtr();
        long long off = a->elem_offset;
        if (at && at >= a->elem && at <= a->elem + a->elem_len)
            off += (long long)(at - a->elem);
        snprintf(err, errlen,
                 "%s: entry %lld (byte %lld): not valid JSON "
                 "(at byte %lld)",
                 path, (long long)a->index, (long long)a->elem_offset, off);
        return WORKLOAD_E_INVALID;
    }
    sharegpt = fmt == WORKLOAD_FORMAT_SHAREGPT ||
               (fmt == WORKLOAD_FORMAT_AUTO &&
                !cJSON_GetObjectItemCaseSensitive(obj, "messages"));
    cls = sharegpt ? DATASET_CLASS_SHAREGPT : DATASET_CLASS_CHAT;
    why = sessions   ? dataset_session_item(obj, sharegpt, &it, &skip)
          : sharegpt ? dataset_sharegpt_item(obj, &it, &skip)
                     : dataset_chat_item(obj, &it, &skip);
    cJSON_Delete(obj);
    if (why) {
        snprintf(err, errlen, "%s: entry %lld (byte %lld): %s", path,
                 (long long)a->index, (long long)a->elem_offset, why);
        free(it.prompt);
        cJSON_Delete(it.messages);
        workload_session_free(it.session);
        return WORKLOAD_E_INVALID;
    }
    if (skip) {
        wl->skipped++;
        return WORKLOAD_OK;
    }
    if (!wl->format)
        wl->format = workload_format_name(
            sharegpt ? WORKLOAD_FORMAT_SHAREGPT : WORKLOAD_FORMAT_OPENAI_JSONL);
    rc = workload_add(wl, cls, &it);
    if (rc) {
        free(it.prompt);
        cJSON_Delete(it.messages);
        workload_session_free(it.session);
        snprintf(err, errlen, "out of memory reading %s", path);
    }
    return rc;
}

/* A JSON array of dataset entries, one at a time. */
static int load_array(FILE *f, const char *path, enum workload_format fmt,
                      bool sessions, int64_t offset, struct workload *wl,
                      char *err, size_t errlen)
{
    struct json_array *a = malloc(sizeof *a);
    char why[256];
    int rc = WORKLOAD_OK, got;
    if (!a) {
        snprintf(err, errlen, "out of memory reading %s", path);
        return WORKLOAD_E_NOMEM;
    }
    json_array_open(a, f, WORKLOAD_MAX_ENTRY, offset);
    while ((got = json_array_next(a, why, sizeof why)) == 1) {
        rc = load_entry(a, path, fmt, sessions, wl, err, errlen);
        if (rc)
            break;
    }
    if (got < 0 && !rc) {
        snprintf(err, errlen, "%s: %s", path, why);
        rc = WORKLOAD_E_INVALID;
    }
    json_array_close(a);
    free(a);
    return rc;
}

int workload_load_file(const char *path, struct workload *wl, char *err,
                       size_t errlen)
{
    return workload_load_file_as(path, WORKLOAD_FORMAT_AUTO, false, wl, err,
                                 errlen);
}

int workload_load_file_as(const char *path, enum workload_format fmt,
                          bool sessions, struct workload *wl, char *err,
                          size_t errlen)
{
    FILE *f;
    int c, rc;
    int64_t lines = 0, ws_bytes = 0;
    memset(wl, 0, sizeof *wl);
    wl->name = strdup(path);
    if (!wl->name)
        return WORKLOAD_E_NOMEM;
    f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read the workload %s: %s", path,
                 strerror(errno));
        return WORKLOAD_E_IO;
    }
    /* the first byte that is not white space tells an array from lines */
    while ((c = getc(f)) == ' ' || c == '\t' || c == '\r' || c == '\n') {
        lines += c == '\n';
        ws_bytes++;
    }
    if (c != EOF)
        ungetc(c, f);
    if (c == '[' && fmt == WORKLOAD_FORMAT_TOKENTRACE) {
        snprintf(err, errlen,
                 "%s:%lld: a JSON array, but --workload-format tokentrace "
                 "reads JSON Lines (one {\"class\": …} object per line)",
                 path, (long long)lines + 1);
        rc = WORKLOAD_E_INVALID;
    } else if (c == '[') {
        rc = load_array(f, path, fmt, sessions, ws_bytes, wl, err, errlen);
    } else {
        rc = workload_jsonl_read(f, path, &fmt, sessions, lines, wl, err,
                                 errlen);
        wl->format = workload_format_name(fmt);
    }
    if (!rc && wl->n_classes == 0) {
        if (wl->unsendable)
            snprintf(err, errlen,
                     "no prompts in the workload file: %s; %lld entr%s "
                     "skipped in all",
                     wl->unsendable_first, (long long)wl->skipped,
                     wl->skipped == 1 ? "y" : "ies");
        else if (wl->skipped)
            snprintf(err, errlen,
                     "%s: no prompts in the workload file (%lld entries "
                     "without a user turn)",
                     path, (long long)wl->skipped);
        else
            snprintf(err, errlen, "%s: no prompts in the workload file", path);
        rc = WORKLOAD_E_INVALID;
    }
    if (f != stdin)
        fclose(f);
    return rc;
}
