/* replay_decimal: integers to decimal text without printf. */
#include "replay_decimal.h"

#include <string.h>

/* "00" .. "99": two digits per division. */
static const char pairs[201] =
    "00010203040506070809101112131415161718192021222324"
    "25262728293031323334353637383940414243444546474849"
    "50515253545556575859606162636465666768697071727374"
    "75767778798081828384858687888990919293949596979899";

size_t replay_decimal_u64(char *dst, uint64_t v)
{
    char tmp[REPLAY_DECIMAL_MAX];
    size_t n = 0;

    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        n += 2;
        tmp[sizeof(tmp) - n] = pairs[d];
        tmp[sizeof(tmp) - n + 1] = pairs[d + 1];
    }
    if (v >= 10) {
        n += 2;
        tmp[sizeof(tmp) - n] = pairs[v * 2];
        tmp[sizeof(tmp) - n + 1] = pairs[v * 2 + 1];
    } else {
        tmp[sizeof(tmp) - ++n] = (char)('0' + v);
    }
    memcpy(dst, tmp + sizeof(tmp) - n, n);
    return n;
}

size_t replay_decimal_i64(char *dst, int64_t v)
{
    if (v >= 0)
        return replay_decimal_u64(dst, (uint64_t)v);
    dst[0] = '-';
    /* 0 - (uint64_t)v is |v| even for INT64_MIN */
    return 1 + replay_decimal_u64(dst + 1, 0 - (uint64_t)v);
}
