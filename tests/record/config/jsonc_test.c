/* jsonc_test: VS Code JSONC (comments, trailing commas), line
 * numbers of keys and of syntax errors, table-driven. */
#include <string.h>

#include "check.h"
#include "jsonc.h"

/* Documents that parse; "want" is the compact JSON they must equal. */
static const struct {
    const char *text;
    const char *want;
} good[] = {
    {"{}", "{}"},
    {"{\"a\": 1,}", "{\"a\":1}"},
    {"{\"a\": [1, 2, ], }", "{\"a\":[1,2]}"},
    {"// head\n{\"a\": 1 // tail\n}", "{\"a\":1}"},
    {"{/* a\n b */\"a\": /* c */ 1}", "{\"a\":1}"},
    {"{\"u\": \"http://x/y\"}", "{\"u\":\"http://x/y\"}"},
    {"{\"s\": \"/* not a comment */\"}", "{\"s\":\"/* not a comment */\"}"},
    {"{\"s\": \"a\\\"b // still a string\",}",
     "{\"s\":\"a\\\"b // still a string\"}"},
    {"{\"o\": {\"p\": [ {\"q\": 1,}, ],},\n}", "{\"o\":{\"p\":[{\"q\":1}]}}"},
    {"\xEF\xBB\xBF{\"bom\": true}", "{\"bom\":true}"},
    {"{\"a\": 1, // comment then comma-less close\n}", "{\"a\":1}"},
    {"{\"a\": \",\"}", "{\"a\":\",\"}"},
};

/* Documents that fail, and the line the error must name. */
static const struct {
    const char *text;
    int line;
    const char *why; /* substring of the message */
} bad[] = {
    {"", 1, "empty"},
    {"  // only a comment\n", 1, "empty"},
    {"{\n  \"a\": 1\n  \"b\": 2\n}", 3, "near '\"b\": 2'"},
    {"{\n\"a\": 1,\n/* open\n\n", 3, "never ends"},
    {"{\n\"a\": tru\n}", 2, "syntax error"},
    {"{\n\"a\": 1\n", 3, "end of the file"},
    {"{\"a\": 1}\n\n}", 3, "syntax error"},
    {"{\n\n\"a\": 'single'\n}", 3, "single"},
};

/* The key-line lookups of one document. */
static const char key_doc[] = "{\n"                                /* 1 */
                              "  // \"cline.x\": \"commented\",\n" /* 2 */
                              "  \"cline.a\": 1,\n"                /* 3 */
                              "  \"nested\": {\"cline.b\": 2},\n"  /* 4 */
                              "  \"list\": [\"cline.c\", 3],\n"    /* 5 */
                              "  \"cline.a\": \"again\",\n"        /* 6 */
                              "  \"cline.v\": \"cline.w\"\n"       /* 7 */
                              "}\n";

int main(void)
{
    struct jsonc_doc doc;
    char err[256];
    int line;
    size_t i;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        int rc = jsonc_parse(good[i].text, strlen(good[i].text), &doc, &line,
                             err, sizeof err);
        CHECK_MSG(rc == JSONC_OK, "good[%zu] failed: line %d: %s", i, line,
                  err);
        if (rc == JSONC_OK) {
            char *out = cJSON_PrintUnformatted(doc.root);
            CHECK_MSG(out && strcmp(out, good[i].want) == 0,
                      "good[%zu]: got %s want %s", i, out ? out : "(null)",
                      good[i].want);
            cJSON_free(out);
            /* line numbers survive the stripping */
            CHECK(strlen(doc.text) == strlen(good[i].text));
        }
        jsonc_free(&doc);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = jsonc_parse(bad[i].text, strlen(bad[i].text), &doc, &line, err,
                             sizeof err);
        CHECK_MSG(rc == JSONC_E_SYNTAX, "bad[%zu] accepted", i);
        CHECK_MSG(line == bad[i].line, "bad[%zu]: line %d, want %d (%s)", i,
                  line, bad[i].line, err);
        CHECK_MSG(strstr(err, bad[i].why) != NULL,
                  "bad[%zu]: '%s' lacks "
                  "'%s'",
                  i, err, bad[i].why);
        CHECK(doc.root == NULL && doc.text == NULL);
    }
    CHECK(jsonc_parse(key_doc, strlen(key_doc), &doc, &line, err, sizeof err) ==
          JSONC_OK);
    CHECK(jsonc_key_line(&doc, "cline.a") == 6); /* the last one counts */
    CHECK(jsonc_key_line(&doc, "cline.x") == 0); /* commented out */
    CHECK(jsonc_key_line(&doc, "cline.b") == 0); /* not top level */
    CHECK(jsonc_key_line(&doc, "cline.c") == 0); /* a value, not a key */
    CHECK(jsonc_key_line(&doc, "cline.w") == 0);
    CHECK(jsonc_key_line(&doc, "cline.v") == 7);
    CHECK(jsonc_key_line(&doc, "nested") == 4);
    CHECK(cJSON_IsString(jsonc_get(&doc, "cline.a")) &&
          strcmp(jsonc_get(&doc, "cline.a")->valuestring, "again") == 0);
    CHECK(jsonc_get(&doc, "cline.b") == NULL);
    jsonc_free(&doc);
    jsonc_free(NULL);
    return CHECK_DONE();
}
