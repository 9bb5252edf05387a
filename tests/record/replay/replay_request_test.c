/* replay_request_test: what the replay server reads from request bodies
 * (model, stream flags, max tokens, prompt size), table-driven. */
#include <string.h>

#include "check.h"
#include "replay_request.h"

struct req_case {
    enum api_kind api;
    const char *body;
    int ok;
    const char *model;
    int stream, include_usage;
    long long max_tokens, input_chars;
    long long images, image_tokens; /* image parts and their tokens */
};

/* The start of a 64 x 64 PNG's base64: its signature and IHDR. */
#define PNG64 "iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAw"

static const struct req_case cases[] = {
    {API_OPENAI_CHAT,
     "{\"model\":\"m\",\"stream\":true,\"stream_options\":{\"include_usage\":"
     "true},\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":"
     "\"abcdefgh\"},{\"role\":\"assistant\",\"content\":\"ab\"}]}",
     1, "m", 1, 1, 64, 10, 0, 0},
    /* max_completion_tokens wins on chat; array content parts count */
    {API_OPENAI_CHAT,
     "{\"model\":\"m\",\"max_tokens\":9,\"max_completion_tokens\":5,"
     "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\","
     "\"text\":\"abcd\"},{\"type\":\"image_url\",\"image_url\":{}}]}]}",
     1, "m", 0, 0, 5, 4, 1, 256},
    /* image parts: a PNG data URL counts its 28-pixel patches (9), an
     * https URL or a non-PNG the unsized 256; Anthropic's base64 source */
    {API_OPENAI_CHAT,
     "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":["
     "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;"
     "base64," PNG64 "\"}},{\"type\":\"image_url\",\"image_url\":{\"url\":"
     "\"https://x/a.png\"}},{\"type\":\"image_url\",\"image_url\":{\"url\":"
     "\"data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD\"}}]}]}",
     1, "m", 0, 0, -1, 0, 3, 9 + 256 + 256},
    {API_ANTHROPIC,
     "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":["
     "{\"type\":\"text\",\"text\":\"abcd\"},{\"type\":\"image\",\"source\":"
     "{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"" PNG64
     "\"}}]}]}",
     1, "m", 0, 0, -1, 4, 1, 9},
    /* UTF-8 counts characters, not bytes */
    {API_OPENAI_CHAT,
     "{\"messages\":[{\"role\":\"user\",\"content\":\"h\xc3\xa9llo "
     "\xe4\xb8\x96\"}]}",
     1, REPLAY_DEFAULT_MODEL, 0, 0, -1, 7, 0, 0},
    {API_OPENAI_COMPLETIONS,
     "{\"model\":\"c\",\"prompt\":\"12345678\",\"stream\":false}", 1, "c", 0, 0,
     -1, 8, 0, 0},
    {API_OPENAI_COMPLETIONS, "{\"model\":\"c\",\"prompt\":[\"ab\",\"cd\"]}", 1,
     "c", 0, 0, -1, 4, 0, 0},
    {API_ANTHROPIC,
     "{\"model\":\"claude\",\"max_tokens\":3,\"stream\":true,\"system\":"
     "\"sys\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}",
     1, "claude", 1, 0, 3, 8, 0, 0},
    /* Responses: input string or items, instructions, max_output_tokens;
     * usage always */
    {API_OPENAI_RESPONSES,
     "{\"model\":\"r\",\"stream\":true,\"max_output_tokens\":16,"
     "\"instructions\":\"be\",\"input\":\"hello\"}",
     1, "r", 1, 1, 16, 7, 0, 0},
    {API_OPENAI_RESPONSES,
     "{\"model\":\"r\",\"max_tokens\":99,\"input\":[{\"role\":\"user\","
     "\"content\":\"abc\"},{\"role\":\"assistant\",\"content\":[{\"type\":"
     "\"output_text\",\"text\":\"de\"}]},{\"type\":\"function_call_output\","
     "\"output\":\"x\"}]}",
     1, "r", 0, 1, 99, 5, 0, 0},
    {API_OPENAI_RESPONSES, "{\"model\":\"r\",\"max_output_tokens\":0}", 0, NULL,
     0, 0, 0, 0, 0, 0},
    {API_OPENAI_CHAT, "{\"model\":\"m\",\"max_tokens\":null}", 1, "m", 0, 0, -1,
     0, 0, 0},
    {API_OPENAI_CHAT, "{bad json", 0, NULL, 0, 0, 0, 0, 0, 0},
    {API_OPENAI_CHAT, "", 0, NULL, 0, 0, 0, 0, 0, 0},
    {API_OPENAI_CHAT, "[1,2]", 0, NULL, 0, 0, 0, 0, 0, 0},
    {API_OPENAI_CHAT, "{\"model\":5}", 0, NULL, 0, 0, 0, 0, 0, 0},
    {API_OPENAI_CHAT, "{\"model\":\"\"}", 0, NULL, 0, 0, 0, 0, 0, 0},
    {API_OPENAI_CHAT, "{\"model\":\"m\",\"max_tokens\":0}", 0, NULL, 0, 0, 0, 0,
     0, 0},
    {API_OPENAI_CHAT, "{\"model\":\"m\",\"max_tokens\":\"5\"}", 0, NULL, 0, 0,
     0, 0, 0, 0},
};

int main(void)
{
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct req_case *c = &cases[i];
        struct replay_req_info info;
        char err[256] = "";
        int rc = replay_request_parse(c->api, c->body, strlen(c->body), &info,
                                      err, sizeof(err));
        CHECK_MSG((rc == 0) == c->ok, "case %zu: rc %d (%s)", i, rc, err);
        if (rc != 0) {
            CHECK_MSG(err[0] != '\0', "case %zu: no reason", i);
            continue;
        }
        CHECK_MSG(strcmp(info.model, c->model) == 0, "case %zu: model %s", i,
                  info.model);
        CHECK_MSG(info.stream == c->stream, "case %zu: stream", i);
        CHECK_MSG(info.include_usage == c->include_usage,
                  "case %zu: include_usage", i);
        CHECK_MSG(info.max_tokens == c->max_tokens, "case %zu: max %lld", i,
                  (long long)info.max_tokens);
        CHECK_MSG(info.input_chars == c->input_chars, "case %zu: chars %lld", i,
                  (long long)info.input_chars);
        CHECK_MSG(info.images == c->images, "case %zu: images %lld", i,
                  (long long)info.images);
        CHECK_MSG(info.input_tokens == info.input_chars / 4 + c->image_tokens,
                  "case %zu: tokens %lld", i, (long long)info.input_tokens);
    }
    return CHECK_DONE();
}
