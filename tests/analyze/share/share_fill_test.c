/* share_fill_test: the same-shape filler, as data: each case's input and
 * the exact bytes it must become; every case fed whole and cut at every
 * byte boundary gives the same bytes; every filled JSON decodes (cJSON) to
 * strings of the same bytes and characters as the original. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "share_fill.h"

static const char *const keep[] = {"model", "role", "finish_reason", "object",
                                   NULL};

struct fill_case {
    const char *in, *want;
};

static const struct fill_case cases[] = {
    /* text becomes x, spaces stay, names and kept values stay */
    {"{\"content\":\"Hello, World 42\"}", "{\"content\":\"xxxxxx xxxxx xx\"}"},
    {"{\"model\":\"gpt-4o\",\"role\":\"user\",\"x\":\"ab\"}",
     "{\"model\":\"gpt-4o\",\"role\":\"user\",\"x\":\"xx\"}"},
    /* numbers, literals and usage stay */
    {"{\"a\":[1,true,null,\"s t\"],\"usage\":{\"completion_tokens\":7}}",
     "{\"a\":[1,true,null,\"x x\"],\"usage\":{\"completion_tokens\":7}}"},
    /* a kept name inside an array is no member: filled */
    {"{\"s\":[\"model\",\"gpt\"]}", "{\"s\":[\"xxxxx\",\"xxx\"]}"},
    /* escapes keep their length; \u by UTF-8 length */
    {"{\"t\":\"a\\nb\\\"c\\\\\"}", "{\"t\":\"x\\nx\\\"x\\\\\"}"},
    {"{\"t\":\"\\u0041\\u00e9\\u4E2D\\ud83d\\ude00\\u0000\\u000a\\u0800\"}",
     "{\"t\":\"\\u0078\\u00e9\\u4e00\\ud800\\udc00\\u0000\\u0009\\u0800\"}"},
    {"{\"t\":\"\\u0123\\ud7ff\\u07ff\"}", "{\"t\":\"\\u00e9\\ud000\\u00e9\"}"},
    /* UTF-8 by sequence length: é, 一, 😀 */
    {"{\"t\":\"\xc3\xbc\xe4\xb8\x96\xf0\x9f\x8e\x89\"}",
     "{\"t\":\"\xc3\xa9\xe4\xb8\x80\xf0\x9f\x98\x80\"}"},
    /* a cut sequence stays cut; a stray continuation stays one */
    {"{\"t\":\"\xe4\xb8z\x80\"}", "{\"t\":\"\xe4\xb8x\x80\"}"},
    /* everything inside an error member stays (the server's words) */
    {"{\"error\":{\"message\":\"bad key\",\"d\":{\"m\":\"q\"}},\"z\":\"q\"}",
     "{\"error\":{\"message\":\"bad key\",\"d\":{\"m\":\"q\"}},\"z\":\"x\"}"},
    {"{\"error\":\"quota\"}", "{\"error\":\"quota\"}"},
    /* vLLM's bare error event: the members after "object":"error" stay */
    {"data: {\"object\":\"error\",\"message\":\"too long\",\"code\":400}\n\n",
     "data: {\"object\":\"error\",\"message\":\"too long\",\"code\":400}\n\n"},
    {"{\"message\":\"m\",\"object\":\"error\",\"type\":\"t\",\"d\":{\"x\":"
     "\"y\"}}",
     "{\"message\":\"x\",\"object\":\"error\",\"type\":\"t\",\"d\":{\"x\":"
     "\"y\"}}"},
    /* not an error object: a chunk, an escaped or a nested "error" value */
    {"{\"object\":\"chat.completion.chunk\",\"c\":\"ab\"}",
     "{\"object\":\"chat.completion.chunk\",\"c\":\"xx\"}"},
    {"{\"object\":\"err\\u006fr\",\"message\":\"m\"}",
     "{\"object\":\"err\\u006fr\",\"message\":\"x\"}"},
    {"{\"object\":\"errors\",\"message\":\"m\"}",
     "{\"object\":\"errors\",\"message\":\"x\"}"},
    {"{\"a\":{\"object\":\"error\"},\"message\":\"m\"}",
     "{\"a\":{\"object\":\"error\"},\"message\":\"x\"}"},
    /* llama.cpp's SSE error field: its JSON stays; only that line */
    {"data: {\"c\":\"ab\"}\n\nerror: {\"code\":500,\"message\":\"no ctx\"}\n\n"
     "data: {\"c\":\"cd\"}\n\n",
     "data: {\"c\":\"xx\"}\n\nerror: {\"code\":500,\"message\":\"no ctx\"}\n\n"
     "data: {\"c\":\"xx\"}\n\n"},
    {"error: {\"message\":\"first\"}\r\n\r\ndata: [DONE]\r\n\r\n",
     "error: {\"message\":\"first\"}\r\n\r\ndata: [DONE]\r\n\r\n"},
    {"data: {\"c\":\"error: x\"}\n\nerrors: {\"m\":\"ab\"}\n\n",
     "data: {\"c\":\"xxxxxx x\"}\n\nerrors: {\"m\":\"xx\"}\n\n"},
    /* SSE around the JSON stays; text outside containers stays */
    {"event: delta\ndata: {\"delta\":{\"content\":\"Hi\"},"
     "\"finish_reason\":\"stop\"}\n\ndata: [DONE]\n\n",
     "event: delta\ndata: {\"delta\":{\"content\":\"xx\"},"
     "\"finish_reason\":\"stop\"}\n\ndata: [DONE]\n\n"},
    {"<p class=\"a\">hi</p>", "<p class=\"a\">hi</p>"},
    /* a stream cut inside a string: the blank line starts over */
    {"data: {\"content\":\"ab\n\ndata: {\"role\":\"user\"}\n\n",
     "data: {\"content\":\"xx\n\ndata: {\"role\":\"user\"}\n\n"},
    /* CRLF events */
    {"data: {\"c\":\"ab\"}\r\n\r\ndata: {\"c\":\"cd\"}\r\n\r\n",
     "data: {\"c\":\"xx\"}\r\n\r\ndata: {\"c\":\"xx\"}\r\n\r\n"},
    /* names with escapes are never kept */
    {"{\"mo\\u0064el\":\"gpt\"}", "{\"mo\\u0064el\":\"xxx\"}"},
};

static void run_split(const char *in, size_t cut, uint8_t *out)
{
    struct share_fill f;
    size_t n = strlen(in);
    memcpy(out, in, n);
    share_fill_init(&f, keep);
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
    if (cJSON_IsNumber(a))
        return a->valuedouble == b->valuedouble;
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
            run_split(c->in, cut, out);
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
        share_fill_init(&f, keep);
        share_fill_run(&f, s, sizeof(s) - 1);
        CHECK(f.filled == 6);
    }
    return CHECK_DONE();
}
