/* stamp: timestamps what arrives on stdin (the `curl -N | stamp` client).
 * Reads the start time first, then reads stdin and, after every read() that
 * returns bytes, the CLOCK_MONOTONIC time; at EOF writes the ts_error.py
 * client TSV for request id RID: one start line, one chunk line per read.
 *
 * usage: curl -sN ... | stamp RID OUT.tsv [START_NS] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    static int64_t t[1 << 16];
    static uint64_t cum[1 << 16];
    size_t n = 0, i;
    uint64_t total = 0;
    char buf[65536];
    int64_t start = now_ns();
    FILE *out;
    if (argc < 3) {
        fprintf(stderr, "usage: stamp RID OUT.tsv [START_NS]\n");
        return 2;
    }
    if (argc > 3) {
        char *end;
        start = strtoll(argv[3], &end, 10);
        if (end == argv[3] || *end) {
            fprintf(stderr, "stamp: bad START_NS '%s'\n", argv[3]);
            return 2;
        }
    }
    for (;;) {
        ssize_t r = read(0, buf, sizeof buf);
        int64_t now = now_ns();
        if (r <= 0)
            break;
        total += (uint64_t)r;
        if (n < sizeof t / sizeof t[0]) {
            t[n] = now;
            cum[n++] = total;
        }
    }
    out = fopen(argv[2], "w");
    if (!out)
        return 1;
    fprintf(out, "%s\tstart\t%lld\n", argv[1], (long long)start);
    for (i = 0; i < n; i++)
        fprintf(out, "%s\tchunk\t%lld\t%llu\n", argv[1], (long long)t[i],
                (unsigned long long)cum[i]);
    return fclose(out) == 0 ? 0 : 1;
}
