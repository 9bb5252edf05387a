/* share_fill_test: the same-shape filler, as data: each case's input and
 * the exact bytes it must become; every case fed whole and cut at every
 * byte boundary gives the same bytes; every filled JSON decodes (cJSON) to
 * strings of the same bytes and characters as the original. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "share_fill.h"

static const char *const keep[] = {"model",  "role", "finish_reason",
                                   "object", "type", NULL};
static const char *const free_form[] = {"input_schema", "input", NULL};
/* the old rules: the server's error text kept */
static const struct share_fill_rules kept_errors = {keep, free_form, true, true,
                                                    false};
/* share's defaults for replies */
static const struct share_fill_rules replies = {keep, free_form, false, true,
                                                false};
/* request bodies: no SSE fields */
static const struct share_fill_rules prompts = {keep, free_form, false, false,
                                                false};

struct fill_case {
    const char *in, *want;
    const struct share_fill_rules *rules; /* NULL: kept_errors */
};

static const struct fill_case cases[] = {
    /* text becomes x, spaces stay, names and kept values stay */
    {"{\"content\":\"Hello, World 42\"}", "{\"content\":\"xxxxxx xxxxx xx\"}",
     NULL},
    {"{\"model\":\"gpt-4o\",\"role\":\"user\",\"x\":\"ab\"}",
     "{\"model\":\"gpt-4o\",\"role\":\"user\",\"x\":\"xx\"}", NULL},
    /* numbers, literals and usage stay */
    {"{\"a\":[1,true,null,\"s t\"],\"usage\":{\"completion_tokens\":7}}",
     "{\"a\":[1,true,null,\"x x\"],\"usage\":{\"completion_tokens\":7}}", NULL},
    /* a kept name inside an array is no member: filled */
    {"{\"s\":[\"model\",\"gpt\"]}", "{\"s\":[\"xxxxx\",\"xxx\"]}", NULL},
    /* escapes keep their length; \u by UTF-8 length */
    {"{\"t\":\"a\\nb\\\"c\\\\\"}", "{\"t\":\"x\\nx\\\"x\\\\\"}", NULL},
    {"{\"t\":\"\\u0041\\u00e9\\u4E2D\\ud83d\\ude00\\u0000\\u000a\\u0800\"}",
     "{\"t\":\"\\u0078\\u00e9\\u4e00\\ud800\\udc00\\u0000\\u0009\\u0800\"}",
     NULL},
    {"{\"t\":\"\\u0123\\ud7ff\\u07ff\"}", "{\"t\":\"\\u00e9\\ud000\\u00e9\"}",
     NULL},
    /* UTF-8 by sequence length: é, 一, 😀 */
    {"{\"t\":\"\xc3\xbc\xe4\xb8\x96\xf0\x9f\x8e\x89\"}",
     "{\"t\":\"\xc3\xa9\xe4\xb8\x80\xf0\x9f\x98\x80\"}", NULL},
    /* a cut sequence stays cut; a stray continuation stays one */
    {"{\"t\":\"\xe4\xb8z\x80\"}", "{\"t\":\"\xe4\xb8x\x80\"}", NULL},
    /* everything inside an error member stays (the server's words) */
    {"{\"error\":{\"message\":\"bad key\",\"d\":{\"m\":\"q\"}},\"z\":\"q\"}",
     "{\"error\":{\"message\":\"bad key\",\"d\":{\"m\":\"q\"}},\"z\":\"x\"}",
     NULL},
    {"{\"error\":\"quota\"}", "{\"error\":\"quota\"}", NULL},
    /* vLLM's bare error event: the members after "object":"error" stay */
    {"data: {\"object\":\"error\",\"message\":\"too long\",\"code\":400}\n\n",
     "data: {\"object\":\"error\",\"message\":\"too long\",\"code\":400}\n\n",
     NULL},
    {"{\"message\":\"m\",\"object\":\"error\",\"type\":\"t\",\"d\":{\"x\":"
     "\"y\"}}",
     "{\"message\":\"x\",\"object\":\"error\",\"type\":\"t\",\"d\":{\"x\":"
     "\"y\"}}",
     NULL},
    /* not an error object: a chunk, an escaped or a nested "error" value */
    {"{\"object\":\"chat.completion.chunk\",\"c\":\"ab\"}",
     "{\"object\":\"chat.completion.chunk\",\"c\":\"xx\"}", NULL},
    {"{\"object\":\"err\\u006fr\",\"message\":\"m\"}",
     "{\"object\":\"err\\u006fr\",\"message\":\"x\"}", NULL},
    {"{\"object\":\"errors\",\"message\":\"m\"}",
     "{\"object\":\"errors\",\"message\":\"x\"}", NULL},
    {"{\"a\":{\"object\":\"error\"},\"message\":\"m\"}",
     "{\"a\":{\"object\":\"error\"},\"message\":\"x\"}", NULL},
    /* llama.cpp's SSE error field: its JSON stays; only that line */
    {"data: {\"c\":\"ab\"}\n\nerror: {\"code\":500,\"message\":\"no ctx\"}\n\n"
     "data: {\"c\":\"cd\"}\n\n",
     "data: {\"c\":\"xx\"}\n\nerror: {\"code\":500,\"message\":\"no ctx\"}\n\n"
     "data: {\"c\":\"xx\"}\n\n",
     NULL},
    {"error: {\"message\":\"first\"}\r\n\r\ndata: [DONE]\r\n\r\n",
     "error: {\"message\":\"first\"}\r\n\r\ndata: [DONE]\r\n\r\n", NULL},
    {"data: {\"c\":\"error: x\"}\n\nerrors: {\"m\":\"ab\"}\n\n",
     "data: {\"c\":\"xxxxxx x\"}\n\nerrorxx xxxxxxxxxx\n\n", NULL},
    /* SSE around the JSON stays; text outside containers stays */
    {"event: delta\ndata: {\"delta\":{\"content\":\"Hi\"},"
     "\"finish_reason\":\"stop\"}\n\ndata: [DONE]\n\n",
     "event: delta\ndata: {\"delta\":{\"content\":\"xx\"},"
     "\"finish_reason\":\"stop\"}\n\ndata: [DONE]\n\n",
     NULL},
    /* text outside JSON is filled: an HTML page, a text error */
    {"<p class=\"a\">hi</p>", "xx xxxxxxxxxxxxxxxx", NULL},
    /* a stream cut inside a string: the blank line starts over */
    {"data: {\"content\":\"ab\n\ndata: {\"role\":\"user\"}\n\n",
     "data: {\"content\":\"xx\n\ndata: {\"role\":\"user\"}\n\n", NULL},
    /* CRLF events */
    {"data: {\"c\":\"ab\"}\r\n\r\ndata: {\"c\":\"cd\"}\r\n\r\n",
     "data: {\"c\":\"xx\"}\r\n\r\ndata: {\"c\":\"xx\"}\r\n\r\n", NULL},
    /* the defaults: error text filled (it may quote the prompt), text
     * outside JSON filled but for SSE fields, free-form values whole */
    {"{\"error\":{\"message\":\"bad MK1\",\"type\":\"invalid_request_error\"}}",
     "{\"error\":{\"message\":\"xxx xxx\",\"type\":\"invalid_request_error\"}}",
     &replies},
    {"{\"error\":\"quota MK\"}", "{\"error\":\"xxxxx xx\"}", &replies},
    {"data: {\"object\":\"error\",\"message\":\"MK2 too "
     "long\",\"code\":400}\n\n",
     "data: {\"object\":\"error\",\"message\":\"xxx xxx "
     "xxxx\",\"code\":400}\n\n",
     &replies},
    {"{\"detail\":\"MK3 echo\"}", "{\"detail\":\"xxx xxxx\"}", &replies},
    {"error: {\"message\":\"MK4\"}\n\ndata: [DONE]\n\n",
     "error: {\"message\":\"xxx\"}\n\ndata: [DONE]\n\n", &replies},
    {"Bad Request: MK5\n", "xxx xxxxxxxx xxx\n", &replies},
    {"data: MK6 text\n\ndata: [DONE]\n\n", "data: xxx xxxx\n\ndata: [DONE]\n\n",
     &replies},
    {"event: ping\nid: 7\nretry: 9\n: MK7\n\n",
     "event: ping\nid: 7\nretry: 9\n: xxx\n\n", &replies},
    {"{\"type\":\"tool_use\",\"input\":{\"card\":1234567890123456,\"n\":{\"k\":"
     "\"v\",\"t\":[0.5,-2e3]}}}",
     "{\"type\":\"tool_use\",\"input\":{\"xxxx\":1111111111111111,\"x\":{\"x\":"
     "\"x\",\"x\":[1.1,-1e1]}}}",
     &replies},
    {"{\"input_schema\":{\"type\":\"object\",\"properties\":{\"secret_field\":{"
     "\"type\":\"string\"}}}}",
     "{\"input_schema\":{\"xxxx\":\"xxxxxx\",\"xxxxxxxxxx\":{\"xxxxxxxxxxxx\":{"
     "\"xxxx\":\"xxxxxx\"}}}}",
     &prompts},
    {"{\"a\":MK9,\"b\":true,\"c\":null,\"d\":false}",
     "{\"a\":xx9,\"b\":true,\"c\":null,\"d\":false}", &replies},
    {"data: MK10\n", "xxxxx xxxx\n", &prompts},
    {"\"MK11\"\n", "xxxxxx\n", &replies},
    {"{\"a\":1e5,\"b\":1E-2}", "{\"a\":1e5,\"b\":1E-2}", &replies},
    {"{\"input\":[\"MK\"]}", "{\"input\":[\"xx\"]}", &prompts},
    {"<html>\n<h1>MK12</h1>\n</html>", "xxxxxx\nxxxxxxxxxxxxx\nxxxxxxx",
     &replies},
    {"{\"m\":\"a\"} trailing MK13\n", "{\"m\":\"x\"} xxxxxxxx xxxx\n",
     &replies},
    /* names with escapes are never kept */
    {"{\"mo\\u0064el\":\"gpt\"}", "{\"mo\\u0064el\":\"xxx\"}", NULL},
};

static void run_split(const char *in, const struct share_fill_rules *rules,
                      size_t cut, uint8_t *out)
{
    struct share_fill f;
    size_t n = strlen(in);
    memcpy(out, in, n);
    share_fill_init(&f, rules ? rules : &kept_errors);
    share_fill_run(&f, out, cut);
    share_fill_run(&f, out + cut, n - cut);
}

/* Walks two cJSON trees side by side: same shape, strings of the same
 * bytes and characters. */
static int same_shape(const cJSON *a, const cJSON *b)
{
    if (!a || !b)
        return a == b;
    if (a->type != b->type)
        return 0;
    if (cJSON_IsString(a)) {
        const char *s = a->valuestring, *t = b->valuestring;
        size_t ca = 0, cb = 0;
        if (strlen(s) != strlen(t))
            return 0;
        for (; *s; s++)
            ca += ((unsigned char)*s & 0xc0) != 0x80;
        for (; *t; t++)
            cb += ((unsigned char)*t & 0xc0) != 0x80;
        return ca == cb;
    }
    if (cJSON_IsNumber(a)) /* free-form numbers are filled */
        return 1;
    for (a = a->child, b = b->child; a || b; a = a->next, b = b->next)
        if (!a || !b || !same_shape(a, b))
            return 0;
    return 1;
}

int main(void)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct fill_case *c = &cases[i];
        size_t n = strlen(c->in);
        uint8_t *out = malloc(n + 1);
        CHECK(strlen(c->want) == n);
        for (size_t cut = 0; cut <= n; cut++) {
            run_split(c->in, c->rules, cut, out);
            out[n] = '\0';
            CHECK_MSG(memcmp(out, c->want, n) == 0, "case %zu cut %zu: %s", i,
                      cut, (char *)out);
        }
        if (c->in[0] == '{') {
            cJSON *a = cJSON_Parse(c->in), *b = cJSON_Parse((char *)out);
            CHECK_MSG(!a || same_shape(a, b), "case %zu decodes differently",
                      i);
            cJSON_Delete(a);
            cJSON_Delete(b);
        }
        free(out);
    }
    /* the count of bytes replaced */
    {
        struct share_fill f;
        uint8_t s[] = "{\"a\":\"\\u00e9bc\",\"model\":\"m\"}";
        share_fill_init(&f, &kept_errors);
        share_fill_run(&f, s, sizeof(s) - 1);
        CHECK(f.filled == 6);
    }
    return CHECK_DONE();
}
