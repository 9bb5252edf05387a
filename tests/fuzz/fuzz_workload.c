/* fuzz_workload: the recorder's JSON Lines workload reader
 * (record/workload/workload_jsonl.c) on arbitrary files, then a class
 * selection.
 *
 * Invariants checked beyond "no crash": a loaded workload has at least one
 * class; class names are 1..64 bytes without a comma; each item has exactly
 * one of prompt / messages, a max_tokens of -1 or 1..1e7 and a non-negative
 * estimate; a refusal says which file (and line) in err; selecting the
 * classes in reverse order keeps exactly those, reversed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "workload.h"

/* Checks one loaded class and its items. */
static void check_class(const struct workload_class *c)
{
    size_t len = strlen(c->name);
    FUZZ_CHECK(len >= 1 && len <= 64 && !strchr(c->name, ','));
    FUZZ_CHECK(c->n_items >= 1 && c->n_items <= c->cap);
    for (size_t i = 0; i < c->n_items; i++) {
        const struct workload_item *it = &c->items[i];
        FUZZ_CHECK((it->prompt != NULL) != (it->messages != NULL));
        FUZZ_CHECK(!it->prompt || it->prompt[0] != '\0');
        FUZZ_CHECK(!it->messages || cJSON_IsArray(it->messages));
        FUZZ_CHECK(it->max_tokens == -1 ||
                   (it->max_tokens >= 1 && it->max_tokens <= 10000000));
        FUZZ_CHECK(it->input_tokens_est >= 0 && it->index >= 0);
        FUZZ_CHECK(i == 0 || it->index > c->items[i - 1].index);
    }
}

/* Selects the classes in reverse order and checks the result. */
static void check_select(struct workload *wl)
{
    size_t n = wl->n_classes, len = 0, off = 0;
    char **names = calloc(n, sizeof(*names));
    char *csv, err[512];
    FUZZ_CHECK(names != NULL);
    for (size_t i = 0; i < n; i++) {
        names[i] = strdup(wl->classes[n - 1 - i].name);
        FUZZ_CHECK(names[i] != NULL);
        len += strlen(names[i]) + 1;
    }
    csv = malloc(len + 1);
    FUZZ_CHECK(csv != NULL);
    for (size_t i = 0; i < n; i++)
        off += (size_t)snprintf(csv + off, len + 1 - off, "%s%s", i ? "," : "",
                                names[i]);
    FUZZ_CHECK(workload_select(wl, csv, err, sizeof(err)) == WORKLOAD_OK);
    FUZZ_CHECK(wl->n_classes == n);
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(strcmp(wl->classes[i].name, names[i]) == 0);
        check_class(&wl->classes[i]);
        free(names[i]);
    }
    free(names);
    free(csv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct workload wl;
    char err[512];
    const char *path = fuzz_file_put(data, size);
    int rc;
    err[0] = '\0';
    rc = workload_load_file(path, &wl, err, sizeof(err));
    if (rc == WORKLOAD_OK) {
        FUZZ_CHECK(wl.n_classes >= 1 && wl.n_classes <= wl.cap);
        for (size_t i = 0; i < wl.n_classes; i++)
            check_class(&wl.classes[i]);
        check_select(&wl);
    } else {
        FUZZ_CHECK(rc == WORKLOAD_E_INVALID || rc == WORKLOAD_E_NOMEM);
        FUZZ_CHECK(strncmp(err, path, strlen(path)) == 0 ||
                   strstr(err, path) != NULL);
    }
    workload_free(&wl);
    return 0;
}
