/* workload_test: built-in workload assembly (with a small fake
 * prompt set), class selection, JSON Lines checking (line numbers in the
 * messages) and the request bodies built from items, table-driven. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "prompts.h"
#include "request_body.h"
#include "workload.h"

/* The fake built-in prompt set this test links instead of the real one. */
#define FAKE_SS "What is a mutex?\nDefine backpressure.\n"
#define FAKE_SL "Write 800 words about sockets.\n"
#define FAKE_CTX "Document line one.\n\nDocument line two.\n"
#define FAKE_LS "What failed?\nWho fixed it?\nWhen?\n"
const unsigned char prompts_short_short[] = FAKE_SS;
const size_t prompts_short_short_len = sizeof FAKE_SS - 1;
const unsigned char prompts_short_long[] = FAKE_SL;
const size_t prompts_short_long_len = sizeof FAKE_SL - 1;
const unsigned char prompts_long_context[] = FAKE_CTX;
const size_t prompts_long_context_len = sizeof FAKE_CTX - 1;
const unsigned char prompts_long_short[] = FAKE_LS;
const size_t prompts_long_short_len = sizeof FAKE_LS - 1;
#define FAKE_AS "You are an agent."
#define FAKE_AJ                                                                \
    "{\"conversation\":[{\"role\":\"user\",\"content\":\"fix it\"},"           \
    "{\"role\":\"assistant\",\"content\":\"<read_file>\"},"                    \
    "{\"role\":\"user\",\"content\":\"the file\"}]}\n"
const unsigned char prompts_agent_system[] = FAKE_AS;
const size_t prompts_agent_system_len = sizeof FAKE_AS - 1;
const unsigned char prompts_agent_sessions[] = FAKE_AJ;
const size_t prompts_agent_sessions_len = sizeof FAKE_AJ - 1;

static void test_builtin(void)
{
    struct workload wl;
    char err[256];
    const struct workload_class *ls;
    CHECK(workload_load_builtin(&wl, err, sizeof err) == WORKLOAD_OK);
    CHECK(strcmp(wl.name, "builtin") == 0);
    CHECK(wl.n_classes == 4);
    CHECK(strcmp(wl.classes[0].name, "short-short") == 0);
    /* the agent class: a session behind the system prompt */
    CHECK(strcmp(wl.classes[3].name, "agent") == 0);
    CHECK(wl.classes[3].n_items == 1 &&
          wl.classes[3].default_max_tokens == 512);
    {
        const struct workload_session *ss = wl.classes[3].items[0].session;
        CHECK(ss && ss->n_turns == 2 && ss->turns[0].n_messages == 2);
        CHECK(ss && ss->turns[0].input_chars ==
                        (int64_t)strlen(FAKE_AS) + (int64_t)strlen("fix it"));
    }
    CHECK(wl.classes[0].n_items == 2 && wl.classes[0].default_max_tokens == 64);
    CHECK(strcmp(wl.classes[0].items[1].prompt, "Define backpressure.") == 0);
    CHECK(wl.classes[0].items[1].index == 1);
    CHECK(wl.classes[0].items[1].input_tokens_est == 20 / 4);
    CHECK(wl.classes[1].default_max_tokens == 1024);
    ls = &wl.classes[2];
    CHECK(strcmp(ls->name, "long-short") == 0 && ls->n_items == 3);
    CHECK(strcmp(ls->items[1].prompt, "Document line one.\n\nDocument line "
                                      "two.\n\nWho fixed it?") == 0);
    CHECK(ls->default_max_tokens == 64);
    /* selection keeps the given order */
    CHECK(workload_select(&wl, "long-short,short-short", err, sizeof err) ==
          WORKLOAD_OK);
    CHECK(wl.n_classes == 2 && strcmp(wl.classes[0].name, "long-short") == 0);
    CHECK(workload_select(&wl, "short-long", err, sizeof err) ==
          WORKLOAD_E_CLASS);
    CHECK(strstr(err, "no class 'short-long'") != NULL);
    CHECK(workload_select(&wl, "long-short,long-short", err, sizeof err) ==
          WORKLOAD_E_CLASS);
    CHECK(strstr(err, "given twice") != NULL);
    CHECK(workload_select(&wl, "long-short,", err, sizeof err) ==
          WORKLOAD_E_CLASS);
    workload_free(&wl);
}

/* Writes text to a temporary file; returns its path (static buffer). */
static const char *temp_file(const char *text)
{
    static char path[64];
    FILE *f;
    int fd;
    snprintf(path, sizeof path, "/tmp/tt-workload-XXXXXX");
    fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static const struct {
    const char *text;
    const char *want; /* substring of the error after "FILE:" */
} bad[] = {
    {"{\"class\":\"a\",\"prompt\":\"x\"}\nnot json\n", ":2: not valid JSON"},
    {"\n\n{\"class\":\"a\",\"prompt\":\"x\"}\n[1,2]\n",
     ":4: not a JSON object"},
    /* a JSON array is a dataset: its entries are numbered, with offsets */
    {"\n\n[1,2]\n", ": entry 0 (byte 3): not a JSON object"},
    {"{\"prompt\":\"x\"}\n", ":1: missing \"class\""},
    {"{\"class\":\"\",\"prompt\":\"x\"}\n", ":1: \"class\" must be"},
    {"{\"class\":\"a\"}\n", ":1: missing \"messages\""},
    {"{\"class\":\"a\",\"prompt\":\"x\",\"messages\":[]}\n", "give one of"},
    {"{\"class\":\"a\",\"messages\":[]}\n", "non-empty array"},
    {"{\"class\":\"a\",\"messages\":[{\"content\":\"x\"}]}\n", "\"role\""},
    {"{\"class\":\"a\",\"messages\":[{\"role\":\"user\"}]}\n", "\"content\""},
    {"{\"class\":\"a\",\"prompt\":\"x\",\"max_tokens\":0}\n", "max_tokens"},
    {"{\"class\":\"a\",\"prompt\":\"x\",\"max_tokens\":1.5}\n", "max_tokens"},
    {"{\"class\":\"a\",\"prompt\":\"x\"} {}\n", "more than one JSON value"},
    {"\n  \n", "no prompts"},
};

static void test_jsonl(void)
{
    struct workload wl;
    char err[512];
    size_t i;
    const char *path = temp_file(
        "{\"class\":\"chat\",\"messages\":[{\"role\":\"system\",\"content\":"
        "\"Be brief.\"},{\"role\":\"user\",\"content\":\"Hello there\"}],"
        "\"max_tokens\":32}\n"
        "\n"
        "{\"class\":\"raw\",\"prompt\":\"Once upon\",\"extra\":1}\r\n"
        "{\"class\":\"chat\",\"messages\":[{\"role\":\"user\",\"content\":"
        "[{\"type\":\"text\",\"text\":\"abcdefgh\"}]}]}\n");
    CHECK(path != NULL);
    CHECK(workload_load_file(path, &wl, err, sizeof err) == WORKLOAD_OK);
    CHECK(wl.n_classes == 2);
    CHECK(wl.classes[0].n_items == 2 && wl.classes[1].n_items == 1);
    CHECK(wl.classes[0].items[0].max_tokens == 32);
    CHECK(wl.classes[0].items[0].index == 0);
    CHECK(wl.classes[0].items[0].input_tokens_est == (9 + 11) / 4);
    CHECK(wl.classes[0].items[1].index == 3);
    CHECK(wl.classes[0].items[1].input_tokens_est == 2);
    CHECK(wl.classes[0].default_max_tokens == -1);
    CHECK(strcmp(wl.classes[1].items[0].prompt, "Once upon") == 0);
    CHECK(wl.classes[1].items[0].index == 2);
    unlink(path);
    workload_free(&wl);

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc;
        path = temp_file(bad[i].text);
        rc = workload_load_file(path, &wl, err, sizeof err);
        CHECK_MSG(rc == WORKLOAD_E_INVALID, "bad case %zu: rc %d", i, rc);
        CHECK_MSG(strncmp(err, path, strlen(path)) == 0 &&
                      strstr(err, bad[i].want) != NULL,
                  "bad case %zu: '%s' lacks '%s'", i, err, bad[i].want);
        unlink(path);
        workload_free(&wl);
    }
    CHECK(workload_load_file("/nonexistent/w.jsonl", &wl, err, sizeof err) ==
          WORKLOAD_E_IO);
    workload_free(&wl);
}

/* Builds a body and parses it back. */
static cJSON *body(enum api_kind api, const struct workload_item *it,
                   int64_t max_tokens, bool ignore_eos, const cJSON *extra)
{
    struct request_body_opts o = {api, "m1", max_tokens, ignore_eos, extra, 0};
    char *s = request_body_build(&o, it);
    cJSON *j = s ? cJSON_Parse(s) : NULL;
    free(s);
    return j;
}

static const char *str(const cJSON *j, const char *path1, const char *path2)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, path1);
    if (path2)
        x = cJSON_GetObjectItemCaseSensitive(x, path2);
    return cJSON_IsString(x) ? x->valuestring : "";
}

static void test_bodies(void)
{
    struct workload_item text = {0, "Hi there", NULL,  -1,   2,
                                 0, NULL,       false, NULL, 0};
    struct workload_item chat = {0, NULL, NULL, -1, 2, 0, NULL, false, NULL, 0};
    cJSON *j, *extra;
    chat.messages = cJSON_Parse("[{\"role\":\"system\",\"content\":\"S\"},"
                                "{\"role\":\"user\",\"content\":\"U\"}]");
    extra = cJSON_Parse("{\"temperature\":0,\"stream_options\":null}");

    j = body(API_OPENAI_CHAT, &text, 64, false, NULL);
    CHECK(j && strcmp(str(j, "model", NULL), "m1") == 0);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(j, "stream")));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(
        cJSON_GetObjectItem(j, "stream_options"), "include_usage")));
    CHECK(cJSON_GetObjectItem(j, "max_tokens")->valuedouble == 64);
    CHECK(strcmp(str(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "messages"), 0),
                     "content", NULL),
                 "Hi there") == 0);
    CHECK(!cJSON_GetObjectItem(j, "ignore_eos"));
    cJSON_Delete(j);

    j = body(API_OPENAI_COMPLETIONS, &chat, -1, true, NULL);
    CHECK(j && strcmp(str(j, "prompt", NULL), "S\n\nU") == 0);
    CHECK(!cJSON_GetObjectItem(j, "messages"));
    CHECK(!cJSON_GetObjectItem(j, "max_tokens"));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(j, "ignore_eos")));
    cJSON_Delete(j);

    j = body(API_ANTHROPIC, &chat, 1024, false, NULL);
    CHECK(j && strcmp(str(j, "system", NULL), "S") == 0);
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(j, "messages")) == 1);
    CHECK(!cJSON_GetObjectItem(j, "stream_options"));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(j, "stream")));
    CHECK(cJSON_GetObjectItem(j, "max_tokens")->valuedouble == 1024);
    cJSON_Delete(j);

    /* Responses: "input" messages (parts flattened), max_output_tokens,
     * no stream_options */
    j = body(API_OPENAI_RESPONSES, &chat, 200, false, NULL);
    CHECK(j && cJSON_GetArraySize(cJSON_GetObjectItem(j, "input")) == 2);
    CHECK(strcmp(str(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "input"), 0),
                     "role", NULL),
                 "system") == 0);
    CHECK(strcmp(str(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "input"), 1),
                     "content", NULL),
                 "U") == 0);
    CHECK(cJSON_GetObjectItem(j, "max_output_tokens")->valuedouble == 200);
    CHECK(!cJSON_GetObjectItem(j, "max_tokens"));
    CHECK(!cJSON_GetObjectItem(j, "messages"));
    CHECK(!cJSON_GetObjectItem(j, "stream_options"));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(j, "stream")));
    cJSON_Delete(j);
    j = body(API_OPENAI_RESPONSES, &text, -1, false, NULL);
    CHECK(j &&
          strcmp(str(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "input"), 0),
                     "content", NULL),
                 "Hi there") == 0);
    CHECK(!cJSON_GetObjectItem(j, "max_output_tokens"));
    cJSON_Delete(j);

    /* --extra-body keys replace the recorder's */
    j = body(API_OPENAI_CHAT, &chat, 64, false, extra);
    CHECK(j && cJSON_IsNull(cJSON_GetObjectItem(j, "stream_options")));
    CHECK(cJSON_GetObjectItem(j, "temperature")->valuedouble == 0);
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(j, "messages")) == 2);
    cJSON_Delete(j);

    cJSON_Delete(extra);
    cJSON_Delete(chat.messages);
}

int main(void)
{
    test_builtin();
    test_jsonl();
    test_bodies();
    return CHECK_DONE();
}
