/* dataset_test: datasets loaded with -w: ShareGPT JSON arrays (read entry
 * by entry, entries across read chunks), ShareGPT and OpenAI chat JSON
 * Lines, --workload-format forcing, the single-turn item of each entry
 * (prompt, system turns, max_tokens from the reply, skipped entries), and
 * malformed input named by file and entry (byte offset) or line,
 * table-driven. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "workload.h"

/* Writes n bytes to a temporary file; returns its path (static). */
static const char *temp_file(const char *text, size_t n)
{
    static char path[64];
    FILE *f;
    int fd;
    snprintf(path, sizeof path, "/tmp/tt-dataset-XXXXXX");
    fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    f = fdopen(fd, "w");
    fwrite(text, 1, n, f);
    fclose(f);
    return path;
}

#define SG(turns) "{\"conversations\":[" turns "]}"
#define T(from, value) "{\"from\":\"" from "\",\"value\":\"" value "\"}"

/* A good file: its first item and counts. */
struct good_case {
    const char *text;
    enum workload_format fmt;
    const char *format; /* wl.format */
    const char *cls;    /* the one class */
    size_t n_items;
    int64_t skipped;
    const char *prompt; /* item 0's prompt, or NULL: messages */
    int n_messages;     /* item 0's messages when prompt is NULL */
    const char *last;   /* ... and the last one's content */
    int64_t max_tokens; /* item 0's */
    int64_t index;      /* item 0's (entry or line from 0) */
};

/* clang-format off */
static const struct good_case good[] = {
    /* ShareGPT: first human turn; the gpt reply's chars / 4 */
    {"[" SG(T("human", "Hello there") "," T("gpt", "0123456789abcdef") ","
            T("human", "more?") "," T("gpt", "no")) "]",
     WORKLOAD_FORMAT_AUTO, "sharegpt", "sharegpt", 1, 0, "Hello there", 0, NULL, 4, 0},
    /* system turns before it become messages; "user"/"assistant" too */
    {" \n[ " SG(T("system", "Be brief.") "," T("user", "Hi") "," T("assistant", "x")) " ]\n",
     WORKLOAD_FORMAT_AUTO, "sharegpt", "sharegpt", 1, 0, NULL, 2, "Hi", 1, 0},
    /* entries without a human turn, or with an empty one, are skipped */
    {"[" SG("") "," SG(T("gpt", "only a reply")) "," SG(T("human", "")) ","
         SG(T("human", "last")) ",{\"id\":\"x\",\"conversations\":[" T("human", "q") "]}]",
     WORKLOAD_FORMAT_AUTO, "sharegpt", "sharegpt", 2, 3, "last", 0, NULL, -1, 3},
    /* a JSON array of chat entries */
    {"[{\"messages\":[{\"role\":\"user\",\"content\":\"a\"}]}]",
     WORKLOAD_FORMAT_AUTO, "openai-jsonl", "chat", 1, 0, NULL, 1, "a", -1, 0},
    /* OpenAI chat JSONL: up to the last user message; a tool call's null
     * content is fine; the reply after it gives max_tokens */
    {"{\"messages\":[{\"role\":\"system\",\"content\":\"S\"},{\"role\":\"user\",\"content\":\"q1\"},"
     "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[]},{\"role\":\"tool\",\"content\":\"r\"},"
     "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"q2\"}]},"
     "{\"role\":\"assistant\",\"content\":\"01234567\"}]}\n"
     "\n{\"messages\":[{\"role\":\"assistant\",\"content\":\"no user\"}]}\n",
     WORKLOAD_FORMAT_AUTO, "openai-jsonl", "chat", 1, 1, NULL, 5, NULL, 2, 0},
    /* a line's own class and max_tokens win */
    {"{\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":\"0123456789\"}],"
     "\"class\":\"mine\",\"max_tokens\":7}\n",
     WORKLOAD_FORMAT_OPENAI_JSONL, "openai-jsonl", "mine", 1, 0, NULL, 1, "q", 7, 0},
    /* ShareGPT as JSON Lines */
    {"\n" SG(T("human", "line one")) "\n" SG(T("human", "line two")) "\n",
     WORKLOAD_FORMAT_AUTO, "sharegpt", "sharegpt", 2, 0, "line one", 0, NULL, -1, 1},
    /* forced: a ShareGPT array read as sharegpt */
    {"[" SG(T("human", "forced")) "]", WORKLOAD_FORMAT_SHAREGPT, "sharegpt",
     "sharegpt", 1, 0, "forced", 0, NULL, -1, 0},
    /* tokentrace's own lines still decide on "class" */
    {"{\"class\":\"c\",\"prompt\":\"p\"}\n", WORKLOAD_FORMAT_AUTO, "tokentrace",
     "c", 1, 0, "p", 0, NULL, -1, 0},
};

/* A bad file: the text after "FILE" in the error. */
static const struct {
    const char *text;
    enum workload_format fmt;
    const char *want;
} bad[] = {
    {"[" SG(T("human", "a")) "," SG(T("human", "b")) ",{\"conversations\":{}}]",
     WORKLOAD_FORMAT_AUTO, ": entry 2 (byte 99): \"conversations\" must be an array"},
    {"[" SG(T("human", "a")) ",{\"conversations\":[{\"from\":\"human\"}]}]",
     WORKLOAD_FORMAT_AUTO, ": entry 1 (byte 50): turn 1: \"value\" must be a string"},
    {"[" SG(T("human", "a") "," T("robot", "b")) "]",
     WORKLOAD_FORMAT_AUTO, ": entry 0 (byte 1): turn 2: unknown \"from\""},
    {"[{\"id\":1}]", WORKLOAD_FORMAT_AUTO, ": entry 0 (byte 1): missing \"conversations\""},
    {"[" SG(T("human", "a")) " " SG(T("human", "b")) "]",
     WORKLOAD_FORMAT_AUTO, ": byte 50: expected ',' or ']' after entry 0"},
    {"[" SG(T("human", "a")) ",", WORKLOAD_FORMAT_AUTO, ": byte 50: the file ends inside the array"},
    {"[" SG(T("human", "a")) "," SG(T("human", "cut")), WORKLOAD_FORMAT_AUTO,
     ": byte 100: the file ends inside the array (after entry 1)"},
    {"[{\"conversations\":[{\"from\":\"human\",\"value\":\"cut",
     WORKLOAD_FORMAT_AUTO, ": entry 0 (byte 1): the file ends inside this entry"},
    {"[{\"conversations\":[{\"from\":\"human\",\"value\":x}]}]",
     WORKLOAD_FORMAT_AUTO, ": entry 0 (byte 1): not valid JSON (at byte 43)"},
    {"[" SG(T("human", "a")) ",]", WORKLOAD_FORMAT_AUTO, ": byte 50: ']' where entry 1 should start"},
    {"[" SG(T("human", "a")) "] x", WORKLOAD_FORMAT_AUTO, ": byte 51: more after the array's closing ']'"},
    {"[" SG(T("gpt", "a")) "]", WORKLOAD_FORMAT_AUTO, ": no prompts in the workload file (1 entries without a user turn)"},
    {"[]", WORKLOAD_FORMAT_AUTO, ": no prompts"},
    {"[}", WORKLOAD_FORMAT_AUTO, ": entry 0 (byte 1): '}' where a value was due"},
    {"[{\"messages\":[{\"role\":\"user\",\"content\":5}]}]", WORKLOAD_FORMAT_AUTO,
     ": entry 0 (byte 1): turn 1: \"content\" must be a string"},
    {"{\"messages\":[{\"role\":\"user\",\"content\":\"a\"}]}\n{\"messages\":{}}\n",
     WORKLOAD_FORMAT_AUTO, ":2: \"messages\" must be an array"},
    {"{\"messages\":[{\"content\":\"a\"}]}\n", WORKLOAD_FORMAT_AUTO, ":1: turn 1: \"role\" must be"},
    {"{\"messages\":[{\"role\":\"user\",\"content\":\"a\"}],\"max_tokens\":0}\n",
     WORKLOAD_FORMAT_AUTO, ":1: \"max_tokens\" must be"},
    {SG(T("human", "a")) "\n{\"messages\":[]}\n", WORKLOAD_FORMAT_AUTO, ":2: missing \"conversations\""},
    /* forced formats */
    {"[" SG(T("human", "a")) "]", WORKLOAD_FORMAT_TOKENTRACE, ":1: a JSON array, but --workload-format tokentrace"},
    {"[{\"messages\":[{\"role\":\"user\",\"content\":\"a\"}]}]", WORKLOAD_FORMAT_SHAREGPT,
     ": entry 0 (byte 1): missing \"conversations\""},
    {"{\"class\":\"c\",\"prompt\":\"p\"}\n", WORKLOAD_FORMAT_SHAREGPT, ":1: missing \"conversations\""},
    {"{\"class\":\"c\",\"prompt\":\"p\"}\n", WORKLOAD_FORMAT_OPENAI_JSONL, ":1: missing \"messages\""},
    {"{\"not\":\"an array\"}", WORKLOAD_FORMAT_AUTO, ":1: missing \"class\""},
};
/* clang-format on */

static void test_good(void)
{
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        const struct good_case *g = &good[i];
        const char *path = temp_file(g->text, strlen(g->text));
        struct workload wl;
        char err[512] = "";
        const struct workload_item *it;
        int rc =
            workload_load_file_as(path, g->fmt, false, &wl, err, sizeof err);
        CHECK_MSG(rc == WORKLOAD_OK, "good %zu: rc %d: %s", i, rc, err);
        if (rc == WORKLOAD_OK) {
            CHECK_MSG(wl.n_classes == 1 &&
                          strcmp(wl.classes[0].name, g->cls) == 0 &&
                          wl.classes[0].n_items == g->n_items,
                      "good %zu: %zu classes, %s with %zu", i, wl.n_classes,
                      wl.classes[0].name, wl.classes[0].n_items);
            CHECK_MSG(strcmp(wl.format, g->format) == 0 &&
                          wl.skipped == g->skipped,
                      "good %zu: format %s, %lld skipped", i, wl.format,
                      (long long)wl.skipped);
            it = &wl.classes[0].items[0];
            CHECK_MSG(it->max_tokens == g->max_tokens && it->index == g->index,
                      "good %zu: max_tokens %lld index %lld", i,
                      (long long)it->max_tokens, (long long)it->index);
            if (g->prompt) {
                CHECK_MSG(it->prompt && strcmp(it->prompt, g->prompt) == 0 &&
                              !it->messages,
                          "good %zu: prompt %s", i, it->prompt);
            } else {
                const cJSON *last = cJSON_GetArrayItem(
                    it->messages, cJSON_GetArraySize(it->messages) - 1);
                const cJSON *c = cJSON_GetObjectItem(last, "content");
                CHECK_MSG(!it->prompt &&
                              cJSON_GetArraySize(it->messages) == g->n_messages,
                          "good %zu: %d messages", i,
                          cJSON_GetArraySize(it->messages));
                CHECK_MSG(strcmp(cJSON_GetObjectItem(last, "role")->valuestring,
                                 "user") == 0,
                          "good %zu: the last message is not the user's", i);
                if (g->last)
                    CHECK_MSG(cJSON_IsString(c) &&
                                  strcmp(c->valuestring, g->last) == 0,
                              "good %zu: last content", i);
            }
            CHECK(it->input_tokens_est >= 0);
        }
        unlink(path);
        workload_free(&wl);
    }
}

static void test_bad(void)
{
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *path = temp_file(bad[i].text, strlen(bad[i].text));
        struct workload wl;
        char err[512] = "";
        int rc = workload_load_file_as(path, bad[i].fmt, false, &wl, err,
                                       sizeof err);
        CHECK_MSG(rc == WORKLOAD_E_INVALID, "bad %zu: rc %d", i, rc);
        CHECK_MSG(strncmp(err, path, strlen(path)) == 0 &&
                      strstr(err + strlen(path), bad[i].want) ==
                          err + strlen(path),
                  "bad %zu: '%s' lacks '%s'", i, err, bad[i].want);
        unlink(path);
        workload_free(&wl);
    }
}

/* Many entries: entries cross the reader's 64 KiB chunks, strings with
 * escaped quotes and brackets inside; the last entry's offset is exact. */
static void test_many(void)
{
    size_t cap = 4u << 20, n = 0, last_off = 0;
    char *text = malloc(cap);
    const char *path;
    struct workload wl;
    char err[512] = "";
    int entries = 20000;
    CHECK(text != NULL);
    if (!text)
        return;
    n += (size_t)snprintf(text + n, cap - n, "[\n");
    for (int i = 0; i < entries; i++) {
        last_off = n + (i ? 2 : 0);
        n += (size_t)snprintf(
            text + n, cap - n,
            "%s{\"conversations\":[{\"from\":\"human\",\"value\":\"q%d "
            "\\\"]}[{\\\" \\\\\"},{\"from\":\"gpt\",\"value\":\"%0*d\"}]}",
            i ? ",\n" : "", i, 4 + i % 40, i);
    }
    n += (size_t)snprintf(text + n, cap - n, "\n]\n");
    path = temp_file(text, n);
    CHECK(workload_load_file(path, &wl, err, sizeof err) == WORKLOAD_OK);
    CHECK_MSG(wl.n_classes == 1 && wl.classes[0].n_items == (size_t)entries,
              "many: %s", err);
    if (wl.n_classes == 1 && wl.classes[0].n_items == (size_t)entries) {
        const struct workload_item *it = &wl.classes[0].items[12345];
        CHECK(strcmp(it->prompt, "q12345 \"]}[{\" \\") == 0);
        CHECK(it->max_tokens == (4 + 12345 % 40) / 4);
        CHECK(it->index == 12345);
    }
    workload_free(&wl);
    unlink(path);
    /* the same with the last entry broken: its offset is named */
    text[n - 5] = 'x'; /* the last entry's closing '}' */
    path = temp_file(text, n);
    CHECK(workload_load_file(path, &wl, err, sizeof err) == WORKLOAD_E_INVALID);
    {
        char want[96];
        snprintf(want, sizeof want, ": entry %d (byte %zu):", entries - 1,
                 last_off);
        CHECK_MSG(strstr(err, want) != NULL, "many: '%s' lacks '%s'", err,
                  want);
    }
    workload_free(&wl);
    unlink(path);
    free(text);
}

/* An entry over the 16 MiB cap is refused with its number, not read. */
static void test_cap(void)
{
    size_t n = (17u << 20) + 64, k = 0;
    char *text = malloc(n);
    const char *path;
    struct workload wl;
    char err[512] = "";
    if (!text)
        return;
    k += (size_t)snprintf(text, n,
                          "[%s,{\"conversations\":[{\"from\":"
                          "\"human\",\"value\":\"",
                          SG(T("human", "a")));
    memset(text + k, 'y', n - k - 8);
    memcpy(text + n - 8, "\"}]}]\n\n\n", 8);
    path = temp_file(text, n);
    CHECK(workload_load_file(path, &wl, err, sizeof err) == WORKLOAD_E_INVALID);
    CHECK_MSG(strstr(err, ": entry 1 (byte 50) is longer than 16 MiB") != NULL,
              "cap: %s", err);
    workload_free(&wl);
    unlink(path);
    free(text);
}

int main(void)
{
    enum workload_format f;
    test_good();
    test_bad();
    test_many();
    test_cap();
    CHECK(workload_format_from_name("sharegpt", &f) == 0 &&
          f == WORKLOAD_FORMAT_SHAREGPT);
    CHECK(workload_format_from_name("openai-jsonl", &f) == 0 &&
          f == WORKLOAD_FORMAT_OPENAI_JSONL);
    CHECK(workload_format_from_name("ShareGPT", &f) == -1);
    CHECK(strcmp(workload_format_name(WORKLOAD_FORMAT_TOKENTRACE),
                 "tokentrace") == 0);
    return CHECK_DONE();
}
