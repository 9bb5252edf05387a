/* replay_decimal_test: replay_decimal_* against printf across the
 * digit-count and sign boundaries. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "replay_decimal.h"

/* Every power of ten and its neighbours, both signs, and the extremes. */
static void check_decimal(void)
{
    char got[REPLAY_DECIMAL_MAX + 1], want[32];
    uint64_t p = 1;
    int k, d;

    for (k = 0; k < 20; k++, p *= 10) {
        for (d = -1; d <= 1; d++) {
            uint64_t u = p + (uint64_t)(int64_t)d;
            int64_t i = (int64_t)u;
            size_t n = replay_decimal_u64(got, u);
            snprintf(want, sizeof(want), "%" PRIu64, u);
            CHECK_MSG(n == strlen(want) && memcmp(got, want, n) == 0, "u64 %s",
                      want);
            n = replay_decimal_i64(got, i);
            snprintf(want, sizeof(want), "%" PRId64, i);
            CHECK_MSG(n == strlen(want) && memcmp(got, want, n) == 0, "i64 %s",
                      want);
            n = replay_decimal_i64(got, -i);
            snprintf(want, sizeof(want), "%" PRId64, -i);
            CHECK_MSG(n == strlen(want) && memcmp(got, want, n) == 0, "i64 %s",
                      want);
        }
    }
    CHECK(replay_decimal_u64(got, UINT64_MAX) == 20 &&
          memcmp(got, "18446744073709551615", 20) == 0);
    CHECK(replay_decimal_i64(got, INT64_MIN) == 20 &&
          memcmp(got, "-9223372036854775808", 20) == 0);
    CHECK(replay_decimal_i64(got, INT64_MAX) == 19 &&
          memcmp(got, "9223372036854775807", 19) == 0);
    CHECK(replay_decimal_u64(got, 0) == 1 && got[0] == '0');
}

int main(void)
{
    check_decimal();
    return CHECK_DONE();
}
