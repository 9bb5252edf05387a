/* replay_capacity_test: the batch model, as tables of arrivals and the
 * queueing and TPOT each must get. */
#include "check.h"
#include "replay_capacity.h"

#define MS 1000000LL

struct arrival_case {
    int64_t at_ms;    /* arrival */
    int64_t queue_ms; /* wait for a slot it must get */
    int64_t tpot_ms;  /* its TPOT */
    size_t decoding;  /* streams decoding when it starts, itself too */
};

/* 2 slots, prefill 100 ms, 11 tokens, tpot 10 ms + 5 ms per other stream:
 * a lone stream holds its slot 100 + 10 x 10 = 200 ms. */
static const struct arrival_case two_slots[] = {
    {0, 0, 10, 1},    /* alone: slot A until 200 */
    {0, 0, 15, 2},    /* joins A: slot B until 100 + 10 x 15 = 250 */
    {0, 200, 15, 2},  /* both busy: waits for A (200), B still decodes;
                         until 200 + 250 = 450 */
    {10, 240, 15, 2}, /* waits for B (250): until 500 */
    {1000, 0, 10, 1}, /* all free again */
};

int main(void)
{
    struct replay_capacity c;
    struct replay_admit a;
    size_t i;

    CHECK(replay_capacity_init(&c, 2) == 0);
    for (i = 0; i < sizeof two_slots / sizeof two_slots[0]; i++) {
        const struct arrival_case *k = &two_slots[i];
        replay_capacity_admit(&c, k->at_ms * MS, 100 * MS, 11, 10 * MS, 5 * MS,
                              &a);
        CHECK_MSG(a.queue_ns == k->queue_ms * MS, "case %zu: queue %lld ms", i,
                  (long long)(a.queue_ns / MS));
        CHECK_MSG(a.tpot_ns == k->tpot_ms * MS, "case %zu: tpot %lld ms", i,
                  (long long)(a.tpot_ns / MS));
        CHECK_MSG(a.decoding == k->decoding, "case %zu: decoding %zu", i,
                  a.decoding);
    }
    replay_capacity_free(&c);
    replay_capacity_free(&c); /* twice is harmless */

    /* unlimited: never waits, TPOT unchanged, nothing allocated */
    CHECK(replay_capacity_init(&c, 0) == 0 && c.free_ns == NULL);
    for (i = 0; i < 100; i++) {
        replay_capacity_admit(&c, 0, 100 * MS, 11, 10 * MS, 5 * MS, &a);
        CHECK(a.queue_ns == 0 && a.tpot_ns == 10 * MS && a.decoding == 1);
    }
    replay_capacity_free(&c);
    replay_capacity_free(NULL);

    /* a steady overload: 1 slot held 200 ms, arrivals every 100 ms, so
     * the k-th waits k x 100 ms (first come, first served) */
    CHECK(replay_capacity_init(&c, 1) == 0);
    for (i = 0; i < 20; i++) {
        replay_capacity_admit(&c, (int64_t)i * 100 * MS, 100 * MS, 11, 10 * MS,
                              5 * MS, &a);
        CHECK_MSG(a.queue_ns == (int64_t)i * 100 * MS, "overload %zu: %lld", i,
                  (long long)a.queue_ns);
    }
    replay_capacity_free(&c);
    return CHECK_DONE();
}
