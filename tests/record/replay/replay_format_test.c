/* replay_format_test: the replay server's events are byte-identical to the
 * printf-based formatter they replaced
 * (tests/record/replay/replay_format_ref.c), for every API, line end, "data:"
 * spacing, vocabulary, model spelling, token range and buffer state; and a full
 * buffer refuses the whole event. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "replay_format.h"
#include "replay_format_ref.h"

/* Models: plain, one needing escapes, the longest a request may carry. */
static char long_model[REPLAY_MODEL_MAX];
static const char *models[] = {"m", "gpt-4o-mini", "a\"b\\c\nd\x01\x1f", "",
                               long_model};

/* Appends the same event with the new (fresh) and the reference (ref)
 * functions to two buffers that start with `pre` bytes of filler. */
struct pair {
    struct buf fresh, ref;
};

static void pair_init(struct pair *p, size_t pre)
{
    size_t i;

    buf_init(&p->fresh, 0);
    buf_init(&p->ref, 0);
    for (i = 0; i < pre; i++) {
        buf_append(&p->fresh, "x", 1);
        buf_append(&p->ref, "x", 1);
    }
}

/* Compares and frees; what names the case for the failure message. */
static void pair_check(struct pair *p, int rc_fresh, int rc_ref,
                       const char *what, const struct replay_fmt *f)
{
    CHECK_MSG(rc_fresh == BUF_OK && rc_ref == BUF_OK, "%s: rc %d / %d", what,
              rc_fresh, rc_ref);
    CHECK_MSG(p->fresh.len == p->ref.len &&
                  memcmp(p->fresh.data, p->ref.data, p->ref.len) == 0 &&
                  p->fresh.data[p->fresh.len] == '\0',
              "%s (api %d crlf %d nospace %d utf8 %d model %.20s):\n"
              "new: %s\nref: %s",
              what, (int)f->api, f->crlf, f->nospace, f->utf8, f->model_json,
              p->fresh.data, p->ref.data);
    buf_free(&p->fresh);
    buf_free(&p->ref);
}

#define SAME(what, pre, f, call_new, call_ref)                                 \
    do {                                                                       \
        struct pair p_;                                                        \
        int a_, b_;                                                            \
        pair_init(&p_, pre);                                                   \
        a_ = call_new;                                                         \
        b_ = call_ref;                                                         \
        pair_check(&p_, a_, b_, what, f);                                      \
    } while (0)
#define NEW (&p_.fresh)
#define REF (&p_.ref)

/* Token events over ranges and flags; pre varies the buffer's spare room. */
static void check_tokens(const struct replay_fmt *f, size_t pre)
{
    static const size_t ranges[][2] = {{0, 1},   {0, 3}, {5, 5},
                                       {34, 40}, {7, 8}, {100, 164}};
    static const int blocks[] = {0, 1, 9, 10, 123, 2147483647, -1};
    size_t r, k;
    int flags;

    for (r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
        for (flags = 0; flags < 8; flags++) {
            bool first = flags & 1, role = flags & 2, reason = flags & 4;
            for (k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
                SAME("tokens", pre, f,
                     replay_fmt_tokens(NEW, f, first, role, reason, blocks[k],
                                       ranges[r][0], ranges[r][1]),
                     ref_fmt_tokens(REF, f, first, role, reason, blocks[k],
                                    ranges[r][0], ranges[r][1]));
            }
        }
    }
}

/* The events a stream sends once. */
static void check_once(const struct replay_fmt *f)
{
    static const int64_t counts[] = {0, 1, 99, 4096, (int64_t)1 << 40};
    size_t i;

    SAME("keepalive", 0, f, replay_fmt_keepalive(NEW, f),
         ref_fmt_keepalive(REF, f));
    SAME("role", 0, f, replay_fmt_role(NEW, f), ref_fmt_role(REF, f));
    SAME("finish", 0, f, replay_fmt_finish(NEW, f, "stop"),
         ref_fmt_finish(REF, f, "stop"));
    SAME("finish", 0, f, replay_fmt_finish(NEW, f, "length"),
         ref_fmt_finish(REF, f, "length"));
    SAME("done", 0, f, replay_fmt_done(NEW, f), ref_fmt_done(REF, f));
    SAME("error", 0, f, replay_fmt_error_event(NEW, f),
         ref_fmt_error_event(REF, f));
    SAME("ping", 0, f, replay_fmt_ping(NEW, f), ref_fmt_ping(REF, f));
    SAME("msg_stop", 0, f, replay_fmt_msg_stop(NEW, f),
         ref_fmt_msg_stop(REF, f));
    for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        int64_t c = counts[i];
        bool u = i % 2 == 0;
        SAME("usage", 0, f, replay_fmt_usage(NEW, f, c, c + 3),
             ref_fmt_usage(REF, f, c, c + 3));
        SAME("msg_start", 0, f, replay_fmt_msg_start(NEW, f, c, u),
             ref_fmt_msg_start(REF, f, c, u));
        SAME("block_start", 0, f,
             replay_fmt_block_start(NEW, f, (int)(i * 7), u),
             ref_fmt_block_start(REF, f, (int)(i * 7), u));
        SAME("block_stop", 0, f, replay_fmt_block_stop(NEW, f, (int)i),
             ref_fmt_block_stop(REF, f, (int)i));
        SAME("msg_delta", 0, f,
             replay_fmt_msg_delta(NEW, f, u ? "end_turn" : "max_tokens", c, u),
             ref_fmt_msg_delta(REF, f, u ? "end_turn" : "max_tokens", c, u));
    }
}

/* A buffer whose cap is below the event: the event is refused whole. */
static void check_limit(const struct replay_fmt *f)
{
    struct buf b;
    size_t cap;
    int rc;

    for (cap = 1; cap < 400; cap += 13) {
        buf_init(&b, cap);
        rc = replay_fmt_tokens(&b, f, true, false, false, 0, 0, 50);
        CHECK_MSG(rc == BUF_E_LIMIT && b.len == 0, "cap %zu: rc %d len %zu",
                  cap, rc, b.len);
        buf_free(&b);
    }
}

int main(void)
{
    enum api_kind apis[] = {API_OPENAI_CHAT, API_OPENAI_COMPLETIONS,
                            API_ANTHROPIC};
    size_t a, m, pre;
    int flags;

    memset(long_model, 'L', sizeof(long_model) - 1);
    long_model[7] = '"'; /* escaped: the JSON form is longer */
    for (a = 0; a < 3; a++) {
        for (m = 0; m < sizeof(models) / sizeof(models[0]); m++) {
            for (flags = 0; flags < 8; flags++) {
                struct replay_fmt f;
                replay_fmt_init(&f, apis[a], flags & 1, flags & 2,
                                (uint64_t)m * 1000003u, models[m]);
                f.nospace = flags & 4;
                for (pre = 0; pre < 300; pre += 37)
                    check_tokens(&f, pre);
                check_once(&f);
                check_limit(&f);
                if (check_failures > 10)
                    return CHECK_DONE();
            }
        }
    }
    return CHECK_DONE();
}
