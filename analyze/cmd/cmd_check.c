/* cmd_check: `tokentrace-analyze check TRACE...` verifies that a trace reads
 * back whole: every record decodes, requests and results pair up, and the
 * recording ended with a footer. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "log.h"
#include "trace.h"

struct check_counts {
    uint64_t records, headers, requests, results, chunks, footers, unknown;
    uint64_t bytes, orphan_chunks, orphan_results;
};

/* A set of request ids seen, as a growable bitmap (ids are small and dense). */
struct id_set {
    uint8_t *bits;
    size_t nbytes;
};

#define ID_SET_MAX_BYTES ((size_t)64 << 20)

static void id_set_add(struct id_set *s, uint32_t id)
{
    size_t need = (size_t)id / 8 + 1;
    if (need > ID_SET_MAX_BYTES)
        return;
    if (need > s->nbytes) {
        size_t n = s->nbytes ? s->nbytes : 64;
        uint8_t *p;
        while (n < need)
            n *= 2;
        p = realloc(s->bits, n);
        if (!p)
            return;
        memset(p + s->nbytes, 0, n - s->nbytes);
        s->bits = p;
        s->nbytes = n;
    }
    s->bits[id / 8] |= (uint8_t)(1u << (id % 8));
}

static int id_set_has(const struct id_set *s, uint32_t id)
{
    return (size_t)id / 8 < s->nbytes && (s->bits[id / 8] >> (id % 8)) & 1;
}

/* Checks one file; prints a verdict line and returns 0 when intact. */
static int check_file(const char *path)
{
    struct trace_reader *r;
    struct trace_record rec;
    struct check_counts c = {0};
    struct id_set requests = {0}, results = {0};
    int st, rc = 0;
    if (trace_reader_open(path, &r) != TRACE_OK) {
        log_error("%s: cannot open: %m", path);
        return 1;
    }
    while ((st = trace_reader_next(r, &rec)) > 0) {
        c.records++;
        switch (rec.kind) {
        case TRACE_HEADER:
            c.headers++;
            /* Ids restart with each concatenated trace. */
            free(requests.bits);
            free(results.bits);
            memset(&requests, 0, sizeof(requests));
            memset(&results, 0, sizeof(results));
            break;
        case TRACE_REQUEST:
            c.requests++;
            id_set_add(&requests, rec.u.request.id);
            break;
        case TRACE_RESULT:
            c.results++;
            if (!id_set_has(&requests, rec.u.result.id))
                c.orphan_results++;
            id_set_add(&results, rec.u.result.id);
            break;
        case TRACE_CHUNK:
            c.chunks++;
            c.bytes += rec.u.chunk.len;
            if (!id_set_has(&requests, rec.u.chunk.request_id))
                c.orphan_chunks++;
            break;
        case TRACE_FOOTER:
            c.footers++;
            break;
        default:
            c.unknown++;
            break;
        }
    }
    printf("%s: %" PRIu64 " records: %" PRIu64 " traces, %" PRIu64
           " requests, %" PRIu64 " results, %" PRIu64 " chunks (%" PRIu64
           " body bytes), %" PRIu64 " footers",
           trace_reader_name(r), c.records, c.headers, c.requests, c.results,
           c.chunks, c.bytes, c.footers);
    if (c.unknown)
        printf(", %" PRIu64 " unknown (skipped)", c.unknown);
    printf("\n");
    if (st < 0) {
        printf("%s: DAMAGED: %s; the %" PRIu64
               " complete records before it read back\n",
               trace_reader_name(r), trace_reader_error(r), c.records);
        rc = 1;
    } else if (c.headers == 0) {
        printf("%s: DAMAGED: empty file, no header\n", trace_reader_name(r));
        rc = 1;
    } else if (c.footers < c.headers) {
        printf("%s: INCOMPLETE: no footer (the recording did not end "
               "cleanly); %" PRIu64 " of %" PRIu64 " requests have no result\n",
               trace_reader_name(r),
               c.requests > c.results ? c.requests - c.results : 0, c.requests);
        rc = 1;
    } else if (c.orphan_chunks || c.orphan_results) {
        printf("%s: DAMAGED: %" PRIu64 " chunks and %" PRIu64
               " results refer to unknown requests\n",
               trace_reader_name(r), c.orphan_chunks, c.orphan_results);
        rc = 1;
    } else {
        printf("%s: OK\n", trace_reader_name(r));
    }
    free(requests.bits);
    free(results.bits);
    trace_reader_close(r);
    return rc;
}

int cmd_check(int argc, char **argv)
{
    int rc = 0;
    if (argc < 1 || strcmp(argv[0], "--help") == 0) {
        fprintf(argc < 1 ? stderr : stdout,
                "usage: tokentrace-analyze check TRACE...\n"
                "Reads every record. Prints counts and OK, or DAMAGED with "
                "the byte offset of the first damage, or INCOMPLETE when the "
                "recording ended without a footer. Exit 0 when every file is "
                "OK, 1 otherwise.\n");
        return argc < 1 ? 2 : 0;
    }
    for (int i = 0; i < argc; i++)
        rc |= check_file(argv[i]);
    return rc;
}
