/* error_kinds_test: the one error-kind table: names are unique and found
 * again, http_<status> starts at 300 for every program, and every kind is
 * in docs/recording.md's Failures table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "error_kinds.h"

/* HTTP status -> failed? and its kind. */
static const struct {
    int status;
    bool failed;
    const char *kind;
} http_cases[] = {
    {0, false, NULL},        {101, false, NULL},      {200, false, NULL},
    {204, false, NULL},      {299, false, NULL},      {300, true, "http_300"},
    {301, true, "http_301"}, {302, true, "http_302"}, {399, true, "http_399"},
    {400, true, "http_400"}, {401, true, "http_401"}, {429, true, "http_429"},
    {500, true, "http_500"}, {503, true, "http_503"}, {599, true, "http_599"},
};

/* Names and whether they are kinds. */
static const struct {
    const char *name;
    bool known;
} find_cases[] = {
    {"reset", true},
    {"timeout", true},
    {"idle_timeout", true},
    {"connect", true},
    {"dns", true},
    {"tls", true},
    {"html", true},
    {"not_streamed", true},
    {"stream_error", true},
    {"interrupted", true},
    {"write", true},
    {"transfer", true},
    {"oversized_event", true},
    {"unfinished", true},
    {"no_tokens", true},
    {"http_301", true},
    {"http_429", true},
    {"http_503", true},
    {"http_200", false},
    {"http_42", false},
    {"http_4290", false},
    {"http_", false},
    {"http_abc", false},
    {"http_<status>", false},
    {"", false},
    {"Reset", false},
    {"unknown", false},
};

/* Reads docs/recording.md, found from this file's path (tests/common/). */
static char *read_doc(void)
{
    char path[4096];
    const char *slash = strrchr(__FILE__, '/');
    size_t dir = slash ? (size_t)(slash - __FILE__) + 1 : 0;
    FILE *f;
    char *text;
    long n;

    snprintf(path, sizeof(path), "%.*s../../docs/recording.md", (int)dir,
             __FILE__);
    f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    if (text)
        text[n] = '\0';
    fclose(f);
    return text;
}

static void test_docs(void)
{
    char *doc = read_doc(), *start, *end;
    CHECK_MSG(doc != NULL, "cannot read docs/recording.md from %s", __FILE__);
    if (!doc)
        return;
    start = strstr(doc, "\n## Failures");
    CHECK(start != NULL);
    if (start) {
        end = strstr(start + 1, "\n## ");
        if (end)
            *end = '\0';
        for (size_t i = 0; i < error_kinds_count; i++) {
            char cell[64];
            snprintf(cell, sizeof(cell), "`%s`", error_kinds[i].name);
            CHECK_MSG(strstr(start, cell) != NULL,
                      "%s is not in docs/recording.md's Failures table",
                      error_kinds[i].name);
        }
    }
    free(doc);
}

int main(void)
{
    char buf[32];

    for (size_t i = 0; i < error_kinds_count; i++) {
        CHECK(error_kinds[i].name && error_kinds[i].meaning &&
              error_kinds[i].meaning[0] && error_kinds[i].set_by);
        for (size_t j = 0; j < i; j++)
            CHECK_MSG(strcmp(error_kinds[i].name, error_kinds[j].name) != 0,
                      "%s twice", error_kinds[i].name);
        if (i > 0)
            CHECK_MSG(error_kinds_find(error_kinds[i].name) == &error_kinds[i],
                      "%s not found", error_kinds[i].name);
    }
    for (size_t i = 0; i < sizeof(http_cases) / sizeof(*http_cases); i++) {
        int st = http_cases[i].status;
        CHECK_MSG(error_kinds_http_failed(st) == http_cases[i].failed,
                  "status %d", st);
        if (http_cases[i].kind) {
            CHECK(strcmp(error_kinds_http(st, buf, sizeof(buf)),
                         http_cases[i].kind) == 0);
            CHECK(error_kinds_find(buf) == &error_kinds[0]);
        }
    }
    for (size_t i = 0; i < sizeof(find_cases) / sizeof(*find_cases); i++)
        CHECK_MSG((error_kinds_find(find_cases[i].name) != NULL) ==
                      find_cases[i].known,
                  "'%s'", find_cases[i].name);
    CHECK(error_kinds_find(NULL) == NULL);
    test_docs();
    return CHECK_DONE();
}
