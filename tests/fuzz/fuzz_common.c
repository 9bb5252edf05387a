/* fuzz_common: the in-memory input file and the invariant check. */
#define _GNU_SOURCE /* memfd_create */
#include "fuzz_common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int fuzz_fd = -1;
static char fuzz_path[64];

/* Creates the in-memory file once per process. */
static void fuzz_file_init(void)
{
    fuzz_fd = memfd_create("tt-fuzz-input", MFD_CLOEXEC);
    if (fuzz_fd < 0) {
        perror("fuzz: memfd_create");
        abort();
    }
    snprintf(fuzz_path, sizeof(fuzz_path), "/proc/self/fd/%d", fuzz_fd);
}

const char *fuzz_file_put(const uint8_t *data, size_t size)
{
    size_t done = 0;
    if (fuzz_fd < 0)
        fuzz_file_init();
    if (ftruncate(fuzz_fd, 0) != 0) {
        perror("fuzz: ftruncate");
        abort();
    }
    while (done < size) {
        ssize_t n = pwrite(fuzz_fd, data + done, size - done, (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            perror("fuzz: pwrite");
            abort();
        }
        done += (size_t)n;
    }
    return fuzz_path;
}

void fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
    abort();
}
