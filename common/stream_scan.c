/* stream_scan: one event's JSON -> the facts stream_events uses, without a
 * tree; declines whatever it cannot prove cJSON reads the same way (see
 * stream_scan.h for the subset it decides on).
 *
 * cJSON semantics mirrored here: a member lookup returns the FIRST member
 * of that name (later duplicates are ignored); a lookup in anything but an
 * object finds nothing; a string is "text" when it is non-empty after
 * decoding; a count is taken when it is a number >= 0 and < 9e15. */
#include "stream_scan.h"

#include <string.h>

#include "stream_scan_json.h"

#define KEY_IS(k, n, lit) ((n) == sizeof(lit) - 1 && memcmp(k, lit, n) == 0)

void stream_piece_add(struct stream_piece_sum *sum, uint64_t bytes,
                      uint64_t chars, bool reasoning, bool tool)
{
    sum->bytes += bytes;
    sum->chars += chars;
    sum->pieces++;
    if (reasoning) {
        sum->reasoning_pieces++;
        sum->reasoning_bytes += bytes;
    }
    if (tool) {
        sum->tool = true;
        sum->tool_pieces++;
    }
}

/* Marks a member name as seen in one object; true the first time only. */
static bool first_time(unsigned *seen, unsigned bit)
{
    if (*seen & bit)
        return false;
    *seen |= bit;
    return true;
}

/* A member that matters when it is a string: *out gets it (present stays
 * false for any other type). */
static bool scan_str_member(struct scan *s, struct scan_str *out)
{
    if (peek(s) == '"')
        return scan_string(s, out);
    return scan_value(s);
}

/* An "object" member: a bare error ({"object":"error",...}, as vLLM sends
 * it) takes cJSON's path, as an escaped value may be one. */
static bool scan_object_kind(struct scan *s)
{
    struct scan_str t = {0};
    if (!scan_str_member(s, &t))
        return false;
    if (!t.present)
        return true;
    if (t.escaped)
        return false;
    return !(t.raw_len == 5 && memcmp(t.raw, "error", 5) == 0);
}

/* A text member: a non-empty string is one piece of the event's text. */
static bool scan_piece(struct scan *s, bool reasoning, bool tool)
{
    struct scan_str t = {0};
    if (!scan_str_member(s, &t))
        return false;
    if (t.present && t.bytes > 0)
        stream_piece_add(&s->facts->sum, t.bytes, str_chars(&t), reasoning,
                         tool);
    return true;
}

/* A usage count as stream_events' stream_count takes it: *dst is set for
 * a number >= 0 (and < 9e15), left alone for anything that is not a
 * number or is negative; other numbers (fractions, exponents, more than
 * 15 digits) decline. */
static bool scan_count(struct scan *s, int64_t *dst)
{
    struct scan_num n;
    unsigned char c = peek(s);
    if (c != '-' && !is_digit(c))
        return scan_value(s);
    if (!scan_number(s, &n) || !n.integer || n.digits > SCAN_MAX_COUNT_DIGITS)
        return false;
    if (!n.negative || n.magnitude == 0) /* -0 is 0 as a double, >= 0 */
        *dst = (int64_t)n.magnitude;
    return true;
}

/* Notes a finish_reason / stop_reason string (non-empty, unescaped). */
static bool note_finish(struct stream_scan_facts *f, const struct scan_str *r)
{
    if (!r->present || r->bytes == 0)
        return true;
    if (r->escaped)
        return false;
    f->finishes++;
    f->finish = r->raw;
    f->finish_len = r->raw_len;
    return true;
}

/* The object at s->p when it is one, each member to fn; else skipped. */
static bool scan_if_object(struct scan *s, scan_member_fn fn, void *ctx)
{
    if (peek(s) == '{')
        return scan_object(s, fn, ctx);
    return scan_value(s);
}

/* The array at s->p when it is one, each element to fn; else skipped. */
static bool scan_if_array(struct scan *s, scan_element_fn fn, void *ctx)
{
    if (peek(s) == '[')
        return scan_array(s, fn, ctx);
    return scan_value(s);
}

/* ---- OpenAI: choices[].delta / choices[].text, usage ------------------- */

/* One object's members seen so far, and where a count goes. */
struct scan_seen {
    unsigned seen;
    int64_t *a, *b;
};

static bool openai_function_member(struct scan *s, const char *k, size_t n,
                                   void *ctx)
{
    struct scan_seen *o = ctx;
    if (KEY_IS(k, n, "arguments") && first_time(&o->seen, 1))
        return scan_piece(s, false, true);
    if (KEY_IS(k, n, "name") && first_time(&o->seen, 2)) {
        struct scan_str name;
        memset(&name, 0, sizeof(name));
        if (!scan_str_member(s, &name))
            return false;
        s->facts->tool_name |= name.present && name.bytes > 0;
        return true;
    }
    return scan_value(s);
}

static bool openai_tool_call_member(struct scan *s, const char *k, size_t n,
                                    void *ctx)
{
    struct scan_seen *o = ctx, fn = {0, NULL, NULL};
    if (KEY_IS(k, n, "function") && first_time(&o->seen, 1))
        return scan_if_object(s, openai_function_member, &fn);
    return scan_value(s);
}

static bool openai_tool_call(struct scan *s, void *ctx)
{
    struct scan_seen o = {0, NULL, NULL};
    (void)ctx;
    s->facts->tool_calls++;
    return scan_if_object(s, openai_tool_call_member, &o);
}

struct openai_delta {
    unsigned seen;
    struct scan_str reasoning_content, reasoning;
};

static bool openai_delta_member(struct scan *s, const char *k, size_t n,
                                void *ctx)
{
    struct openai_delta *d = ctx;
    if (KEY_IS(k, n, "content") && first_time(&d->seen, 1))
        return scan_piece(s, false, false);
    if (KEY_IS(k, n, "reasoning_content") && first_time(&d->seen, 2))
        return scan_str_member(s, &d->reasoning_content);
    if (KEY_IS(k, n, "reasoning") && first_time(&d->seen, 4))
        return scan_str_member(s, &d->reasoning);
    if (KEY_IS(k, n, "tool_calls") && first_time(&d->seen, 8))
        return scan_if_array(s, openai_tool_call, NULL);
    return scan_value(s);
}

/* delta: content, reasoning_content or else reasoning, tool call args. */
static bool openai_delta(struct scan *s)
{
    struct openai_delta d;
    const struct scan_str *r;
    memset(&d, 0, sizeof(d));
    if (!scan_object(s, openai_delta_member, &d))
        return false;
    r = d.reasoning_content.present && d.reasoning_content.bytes > 0
            ? &d.reasoning_content
            : &d.reasoning;
    if (r->present && r->bytes > 0)
        stream_piece_add(&s->facts->sum, r->bytes, str_chars(r), true, false);
    return true;
}

struct openai_choice {
    unsigned seen;
    struct scan_str finish;
};

static bool openai_choice_member(struct scan *s, const char *k, size_t n,
                                 void *ctx)
{
    struct openai_choice *c = ctx;
    if (s->api == API_OPENAI_COMPLETIONS) {
        if (KEY_IS(k, n, "text") && first_time(&c->seen, 1))
            return scan_piece(s, false, false);
    } else if (KEY_IS(k, n, "delta") && first_time(&c->seen, 2)) {
        return peek(s) == '{' ? openai_delta(s) : scan_value(s);
    }
    if (KEY_IS(k, n, "finish_reason") && first_time(&c->seen, 4))
        return scan_str_member(s, &c->finish);
    return scan_value(s);
}

static bool openai_choice(struct scan *s, void *ctx)
{
    struct openai_choice c;
    (void)ctx;
    s->facts->choices++;
    if (peek(s) != '{')
        return scan_value(s);
    memset(&c, 0, sizeof(c));
    return scan_object(s, openai_choice_member, &c) &&
           note_finish(s->facts, &c.finish);
}

static bool openai_details_member(struct scan *s, const char *k, size_t n,
                                  void *ctx)
{
    struct scan_seen *o = ctx;
    if (KEY_IS(k, n, "reasoning_tokens") && first_time(&o->seen, 1))
        return scan_count(s, &s->facts->usage_reasoning);
    return scan_value(s);
}

static bool openai_prompt_details_member(struct scan *s, const char *k,
                                         size_t n, void *ctx)
{
    struct scan_seen *o = ctx;
    if (KEY_IS(k, n, "cached_tokens") && first_time(&o->seen, 1))
        return scan_count(s, &s->facts->usage_cached);
    return scan_value(s);
}

static bool openai_usage_member(struct scan *s, const char *k, size_t n,
                                void *ctx)
{
    struct scan_seen *o = ctx, det = {0, NULL, NULL};
    if (KEY_IS(k, n, "completion_tokens") && first_time(&o->seen, 1))
        return scan_count(s, &s->facts->usage_output);
    if (KEY_IS(k, n, "prompt_tokens") && first_time(&o->seen, 2))
        return scan_count(s, &s->facts->usage_input);
    if (KEY_IS(k, n, "completion_tokens_details") && first_time(&o->seen, 4))
        return scan_if_object(s, openai_details_member, &det);
    if (KEY_IS(k, n, "prompt_tokens_details") && first_time(&o->seen, 8))
        return scan_if_object(s, openai_prompt_details_member, &det);
    if (KEY_IS(k, n, "prompt_cache_hit_tokens") && first_time(&o->seen, 16))
        return scan_count(s, &s->facts->usage_cached);
    return scan_value(s);
}

static bool openai_root_member(struct scan *s, const char *k, size_t n,
                               void *ctx)
{
    struct scan_seen *o = ctx, usage = {0, NULL, NULL};
    if (KEY_IS(k, n, "error"))
        return false; /* errors take cJSON's path */
    if (KEY_IS(k, n, "object"))
        return scan_object_kind(s);
    if (KEY_IS(k, n, "choices") && first_time(&o->seen, 1)) {
        s->facts->choices_array = peek(s) == '[';
        return scan_if_array(s, openai_choice, NULL);
    }
    if (KEY_IS(k, n, "usage") && first_time(&o->seen, 2)) {
        s->facts->usage = peek(s) == '{';
        return scan_if_object(s, openai_usage_member, &usage);
    }
    if (KEY_IS(k, n, "timings"))
        return false; /* llama.cpp's server timings take cJSON's path */
    return scan_value(s);
}

/* ---- Anthropic: the event's "type" decides what counts ------------------ */

struct anthropic_delta {
    unsigned seen;
    struct scan_str type, text, thinking, partial_json, stop_reason;
};

struct anthropic_root {
    unsigned seen;
    struct scan_str type;
    struct anthropic_delta delta;
    int64_t message_input;             /* message.usage.input_tokens */
    int64_t usage_output, usage_input; /* usage.* */
    /* cache_read_input_tokens, cache_creation_input_tokens of
     * message.usage and of usage */
    int64_t message_cread, message_cwrite, usage_cread, usage_cwrite;
    unsigned message_seen; /* members of message already read */
    bool usage_obj;        /* usage was an object */
};

static bool anthropic_delta_member(struct scan *s, const char *k, size_t n,
                                   void *ctx)
{
    struct anthropic_delta *d = ctx;
    if (KEY_IS(k, n, "type") && first_time(&d->seen, 1))
        return scan_str_member(s, &d->type);
    if (KEY_IS(k, n, "text") && first_time(&d->seen, 2))
        return scan_str_member(s, &d->text);
    if (KEY_IS(k, n, "thinking") && first_time(&d->seen, 4))
        return scan_str_member(s, &d->thinking);
    if (KEY_IS(k, n, "partial_json") && first_time(&d->seen, 8))
        return scan_str_member(s, &d->partial_json);
    if (KEY_IS(k, n, "stop_reason") && first_time(&d->seen, 16))
        return scan_str_member(s, &d->stop_reason);
    return scan_value(s);
}

/* Where an Anthropic usage object's counts go (NULL: not read). */
struct anthropic_usage {
    unsigned seen;
    int64_t *output, *input, *cread, *cwrite;
};

static bool anthropic_usage_member(struct scan *s, const char *k, size_t n,
                                   void *ctx)
{
    struct anthropic_usage *o = ctx;
    if (o->output && KEY_IS(k, n, "output_tokens") && first_time(&o->seen, 1))
        return scan_count(s, o->output);
    if (KEY_IS(k, n, "input_tokens") && first_time(&o->seen, 2))
        return scan_count(s, o->input);
    if (KEY_IS(k, n, "cache_read_input_tokens") && first_time(&o->seen, 4))
        return scan_count(s, o->cread);
    if (KEY_IS(k, n, "cache_creation_input_tokens") && first_time(&o->seen, 8))
        return scan_count(s, o->cwrite);
    return scan_value(s);
}

static bool anthropic_message_member(struct scan *s, const char *k, size_t n,
                                     void *ctx)
{
    struct anthropic_root *r = ctx;
    struct anthropic_usage usage = {0, NULL, &r->message_input,
                                    &r->message_cread, &r->message_cwrite};
    if (KEY_IS(k, n, "usage") && first_time(&r->message_seen, 1))
        return scan_if_object(s, anthropic_usage_member, &usage);
    return scan_value(s);
}

static bool anthropic_root_member(struct scan *s, const char *k, size_t n,
                                  void *ctx)
{
    struct anthropic_root *r = ctx;
    struct anthropic_usage usage = {0, &r->usage_output, &r->usage_input,
                                    &r->usage_cread, &r->usage_cwrite};
    if (KEY_IS(k, n, "error"))
        return false; /* errors take cJSON's path */
    if (KEY_IS(k, n, "object"))
        return scan_object_kind(s);
    if (KEY_IS(k, n, "type") && first_time(&r->seen, 1))
        return scan_str_member(s, &r->type);
    if (KEY_IS(k, n, "delta") && first_time(&r->seen, 2))
        return scan_if_object(s, anthropic_delta_member, &r->delta);
    if (KEY_IS(k, n, "message") && first_time(&r->seen, 4))
        return scan_if_object(s, anthropic_message_member, r);
    if (KEY_IS(k, n, "usage") && first_time(&r->seen, 8)) {
        r->usage_obj = peek(s) == '{';
        return scan_if_object(s, anthropic_usage_member, &usage);
    }
    return scan_value(s);
}

/* True when a scanned string is present, unescaped and equal to lit. */
static bool str_is(const struct scan_str *v, const char *lit)
{
    size_t n = strlen(lit);
    return v->present && v->raw_len == n && memcmp(v->raw, lit, n) == 0;
}

/* A delta's text piece when its type names it and the text is not empty. */
static void anthropic_piece(struct stream_scan_facts *f,
                            const struct anthropic_delta *d)
{
    const struct scan_str *t = NULL;
    bool reasoning = false, tool = false;
    if (str_is(&d->type, "text_delta")) {
        t = &d->text;
    } else if (str_is(&d->type, "thinking_delta")) {
        t = &d->thinking;
        reasoning = true;
    } else if (str_is(&d->type, "input_json_delta")) {
        t = &d->partial_json;
        tool = true;
    }
    if (t && t->present && t->bytes > 0)
        stream_piece_add(&f->sum, t->bytes, str_chars(t), reasoning, tool);
}

/* Turns the scanned members into facts by the event's type. */
static bool anthropic_facts(struct stream_scan_facts *f,
                            const struct anthropic_root *r)
{
    const struct scan_str *t = &r->type;
    if (t->escaped ||
        (str_is(t, "content_block_delta") && r->delta.type.escaped))
        return false; /* names compared after decoding: cJSON's */
    if (str_is(t, "content_block_delta")) {
        anthropic_piece(f, &r->delta);
    } else if (str_is(t, "message_start")) {
        f->usage_input = r->message_input;
        f->usage_cached = r->message_cread;
        f->usage_cache_write = r->message_cwrite;
    } else if (str_is(t, "message_delta")) {
        f->usage_output = r->usage_output;
        f->usage_input = r->usage_input;
        f->usage_cached = r->usage_cread;
        f->usage_cache_write = r->usage_cwrite;
        f->usage = r->usage_obj;
        return note_finish(f, &r->delta.stop_reason);
    } else if (str_is(t, "message_stop")) {
        f->done = true;
    } else if (str_is(t, "ping")) {
        f->ping = true;
    }
    return true;
}

/* ---- Responses API: "type" and "delta" at the top --------------------- */

struct responses_root {
    unsigned seen;
    struct scan_str type, delta;
};

static bool responses_root_member(struct scan *s, const char *k, size_t n,
                                  void *ctx)
{
    struct responses_root *r = ctx;
    if (KEY_IS(k, n, "error"))
        return false; /* errors take cJSON's path */
    if (KEY_IS(k, n, "object"))
        return scan_object_kind(s);
    if (KEY_IS(k, n, "type") && first_time(&r->seen, 1))
        return scan_str_member(s, &r->type);
    if (KEY_IS(k, n, "delta") && first_time(&r->seen, 2))
        return scan_str_member(s, &r->delta);
    return scan_value(s);
}

/* Decides the text-carrying and quiet events; the error, failed and
 * terminal events (usage inside "response") take cJSON's path. */
static bool responses_facts(struct stream_scan_facts *f,
                            const struct responses_root *r)
{
    static const struct {
        const char *type;
        bool reasoning, tool;
    } pieces[] = {
        {"response.output_text.delta", false, false},
        {"response.refusal.delta", false, false},
        {"response.reasoning_text.delta", true, false},
        {"response.reasoning_summary_text.delta", true, false},
        {"response.function_call_arguments.delta", false, true},
    };
    const struct scan_str *t = &r->type, *d = &r->delta;
    if (t->escaped || str_is(t, "error") || str_is(t, "response.failed") ||
        str_is(t, "response.completed") || str_is(t, "response.incomplete"))
        return false;
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++)
        if (str_is(t, pieces[i].type)) {
            if (d->present && d->bytes > 0)
                stream_piece_add(&f->sum, d->bytes, str_chars(d),
                                 pieces[i].reasoning, pieces[i].tool);
            break;
        }
    return true;
}

bool stream_scan_event(enum api_kind api, const char *data, size_t len,
                       struct stream_scan_facts *out)
{
    struct scan s;
    bool ok;
    memset(out, 0, sizeof(*out));
    out->usage_output = out->usage_input = out->usage_reasoning = -1;
    out->usage_cached = out->usage_cache_write = -1;
    s.p = (const unsigned char *)data;
    s.end = s.p + len;
    s.depth = 0;
    s.api = api;
    s.facts = out;
    skip_ws(&s);
    if (peek(&s) != '{')
        return false;
    if (api == API_ANTHROPIC) {
        struct anthropic_root r;
        memset(&r, 0, sizeof(r));
        r.message_input = r.usage_output = r.usage_input = -1;
        r.message_cread = r.message_cwrite = r.usage_cread = r.usage_cwrite =
            -1;
        ok = scan_object(&s, anthropic_root_member, &r) &&
             anthropic_facts(out, &r);
    } else if (api == API_OPENAI_RESPONSES) {
        struct responses_root r;
        memset(&r, 0, sizeof(r));
        ok = scan_object(&s, responses_root_member, &r) &&
             responses_facts(out, &r);
    } else {
        struct scan_seen root = {0, NULL, NULL};
        ok = scan_object(&s, openai_root_member, &root);
    }
    skip_ws(&s);
    return ok && s.p == s.end;
}
