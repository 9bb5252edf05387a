/* id_map_test: the request-id map agrees with a plain array under a long
 * random sequence of puts and deletes (backward-shift deletion included). */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "id_map.h"

#define IDS 4096

int main(void)
{
    static int vals[IDS];
    static void *ref[IDS];
    struct id_map m;
    uint64_t x = 88172645463325252ULL;
    id_map_init(&m);
    CHECK(id_map_get(&m, 7) == NULL);
    for (int step = 0; step < 200000; step++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        /* Ids spread over the whole 32-bit range to collide in every way. */
        uint32_t slot = (uint32_t)(x % IDS);
        uint32_t id = slot * 1048573u;
        if ((x >> 20) % 3 == 0) {
            id_map_del(&m, id);
            ref[slot] = NULL;
        } else {
            CHECK(id_map_put(&m, id, &vals[slot]) == 0);
            ref[slot] = &vals[slot];
        }
        if (step % 997 == 0) {
            size_t n = 0;
            for (uint32_t s = 0; s < IDS; s++) {
                CHECK(id_map_get(&m, s * 1048573u) == ref[s]);
                n += ref[s] != NULL;
            }
            CHECK(m.n == n);
        }
    }
    void **all = malloc(m.n * sizeof(*all) + 1);
    CHECK(id_map_values(&m, all) == m.n);
    free(all);
    id_map_free(&m);
    CHECK(m.n == 0 && id_map_get(&m, 0) == NULL);
    return CHECK_DONE();
}
