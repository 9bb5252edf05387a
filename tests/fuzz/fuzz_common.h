/* fuzz_common: what every fuzz target shares: the libFuzzer entry point's
 * prototype, a way to hand bytes to code that reads from a path, and a
 * check that aborts (so both libFuzzer and the regression runner see it). */
#ifndef TT_FUZZ_COMMON_H
#define TT_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* The libFuzzer entry point each tests/fuzz/fuzz_*.c defines. Returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Returns a path whose file holds exactly data[0..size) (an in-memory file
 * reached through /proc/self/fd). The path stays valid until the next call;
 * opening it twice gives two independent read positions. Aborts when the
 * file cannot be made: a fuzz run without input is worthless. */
const char *fuzz_file_put(const uint8_t *data, size_t size);

/* Aborts with "file:line: invariant broken: what" when cond is false. */
#define FUZZ_CHECK(cond)                                                       \
    ((cond) ? (void)0 : fuzz_fail(__FILE__, __LINE__, #cond))

/* Prints the broken invariant and aborts. Never returns. */
void fuzz_fail(const char *file, int line, const char *what)
    __attribute__((noreturn));

#endif
