/* workload_session_test: conversations split into turns, and the history
 * each turn carries (received replies or recorded ones). */
#include "workload_session.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A session of the JSON text; NULL (why set) when refused. */
static struct workload_session *make(const char *json, const char **why,
                                     size_t *at)
{
    struct workload_session *s = NULL;
    cJSON *j = cJSON_Parse(json);
    CHECK(j != NULL);
    if (workload_session_new(j, &s, why, at))
        return NULL;
    return s;
}

/* The history of turn `turn` printed compactly; caller frees. */
static char *history(const struct workload_session *s, size_t turn,
                     const cJSON *const *replies)
{
    cJSON *h = workload_session_history(s, turn, replies);
    char *out = h ? cJSON_PrintUnformatted(h) : NULL;
    cJSON_Delete(h);
    return out;
}

#define U(x) "{\"role\":\"user\",\"content\":\"" x "\"}"
#define A(x) "{\"role\":\"assistant\",\"content\":\"" x "\"}"
#define S(x) "{\"role\":\"system\",\"content\":\"" x "\"}"

static void test_split(void)
{
    const char *why = NULL;
    size_t at = 0;
    struct workload_session *s =
        make("[" S("sys") "," U("u1") "," A("a1") "," U("u2") "," U(
                 "u2b") "," A("a2") "," U("u3") "]",
             &why, &at);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK(s->n_turns == 3);
    CHECK(s->turns[0].n_messages == 2 && s->turns[0].reply);
    CHECK(s->turns[1].n_messages == 2 && s->turns[1].reply);
    CHECK(s->turns[2].n_messages == 1 && !s->turns[2].reply);
    CHECK(s->turns[0].input_chars == 5);
    char *h = history(s, 0, NULL);
    CHECK(h && strcmp(h, "[" S("sys") "," U("u1") "]") == 0);
    free(h);
    h = history(s, 2, NULL); /* recorded replies */
    CHECK(h && strcmp(h, "[" S("sys") "," U("u1") "," A("a1") "," U("u2") "," U(
                             "u2b") "," A("a2") "," U("u3") "]") == 0);
    free(h);
    /* received replies replace the recorded ones */
    cJSON *r0 = cJSON_Parse(A("got1")), *r1 = cJSON_Parse(A("got2"));
    const cJSON *replies[3] = {r0, r1, NULL};
    h = history(s, 2, replies);
    CHECK(h &&
          strcmp(h, "[" S("sys") "," U("u1") "," A("got1") "," U("u2") "," U(
                        "u2b") "," A("got2") "," U("u3") "]") == 0);
    free(h);
    /* the history refers to the messages: the tree is unchanged after */
    CHECK(workload_session_chars(s) == 3 + 2 + 2 + 2 + 3 + 2 + 2);
    cJSON_Delete(r0);
    cJSON_Delete(r1);
    workload_session_free(s);
}

static void test_refused(void)
{
    static const struct {
        const char *json;
        size_t at;
        const char *why;
    } cases[] = {
        {"[]", 0, "a conversation must be a non-empty array of messages"},
        {"[" A("a") "]", 1,
         "a conversation cannot start with an assistant message"},
        {"[" U("u") "," A("a") "," A("b") "]", 3,
         "two assistant messages in a row"},
        {"[" U("u") ",{\"role\":\"user\"}]", 2,
         "each message needs a \"content\" string or array (null only in "
         "an assistant message with \"tool_calls\")"},
        {"[" U("u") ",{\"content\":\"x\"}]", 2,
         "each message needs a \"role\" string"},
        {"[" U("u") ",3]", 2, "each message must be an object"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *why = NULL;
        size_t at = 99;
        struct workload_session *s = make(cases[i].json, &why, &at);
        CHECK_MSG(s == NULL, "%s", cases[i].json);
        CHECK_MSG(why && strcmp(why, cases[i].why) == 0, "%s: %s",
                  cases[i].json, why ? why : "(null)");
        CHECK_MSG(at == cases[i].at, "%s: at %zu", cases[i].json, at);
        workload_session_free(s);
    }
}

int main(void)
{
    test_split();
    test_refused();
    return CHECK_DONE();
}
