/* cmd_check: `tokentrace-analyze check TRACE...` verifies that a trace reads
 * back whole and agrees with itself: every record decodes, requests and
 * results pair up once each, each result's chunk and byte counts match the
 * chunks stored, each footer's counts match its trace, and the recording
 * ended with a footer. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_shards.h"
#include "commands.h"
#include "id_map.h"
#include "log.h"
#include "trace.h"

/* Findings printed per file; the rest are counted. */
#define CHECK_MAX_LINES 10

struct check_counts {
    uint64_t records, headers, requests, results, chunks, footers, stages,
        scrapes, unknown;
    uint64_t bytes;
    uint64_t v1_headers; /* traces of format version 1: no checksums */
};

/* A set of request ids seen, as a growable bitmap (ids are small and dense). */
struct id_set {
    uint8_t *bits;
    size_t nbytes;
};

#define ID_SET_MAX_BYTES ((size_t)64 << 20)

/* Adds id; returns 1 when it was there already. */
static int id_set_add(struct id_set *s, uint32_t id)
{
    size_t need = (size_t)id / 8 + 1;
    int had;
    if (need > ID_SET_MAX_BYTES)
        return 0;
    if (need > s->nbytes) {
        size_t n = s->nbytes ? s->nbytes : 64;
        uint8_t *p;
        while (n < need)
            n *= 2;
        p = realloc(s->bits, n);
        if (!p)
            return 0;
        memset(p + s->nbytes, 0, n - s->nbytes);
        s->bits = p;
        s->nbytes = n;
    }
    had = (s->bits[id / 8] >> (id % 8)) & 1;
    s->bits[id / 8] |= (uint8_t)(1u << (id % 8));
    return had;
}

static int id_set_has(const struct id_set *s, uint32_t id)
{
    return (size_t)id / 8 < s->nbytes && (s->bits[id / 8] >> (id % 8)) & 1;
}

/* What the chunks of one request still waiting for its result add up to. */
struct flight {
    uint64_t chunks, bytes;
};

/* One trace of the file (ids restart with each concatenated trace). */
struct trace_state {
    struct id_set requests, results;
    struct id_map flights; /* request id -> struct flight */
    uint64_t results_n, chunks_n, bytes_n, footers;
};

struct check_state {
    const char *name;
    struct check_counts c;
    struct trace_state t;
    uint64_t findings, first_finding_offset;
    struct check_shards *shards; /* the runs' shards, over all files */
};

static void trace_state_clear(struct trace_state *t)
{
    size_t n = t->flights.n;
    void **all = n ? malloc(n * sizeof(*all)) : NULL;
    if (all) {
        n = id_map_values(&t->flights, all);
        for (size_t i = 0; i < n; i++)
            free(all[i]);
        free(all);
    }
    id_map_free(&t->flights);
    free(t->requests.bits);
    free(t->results.bits);
    memset(t, 0, sizeof(*t));
}

static void finding(struct check_state *s, uint64_t offset, const char *fmt,
                    ...) __attribute__((format(printf, 3, 4)));

/* A contradiction between records: printed as "FILE: byte N: what" (the
 * first CHECK_MAX_LINES of a file), counted for the verdict. */
static void finding(struct check_state *s, uint64_t offset, const char *fmt,
                    ...)
{
    va_list ap;
    if (s->findings++ == 0)
        s->first_finding_offset = offset;
    if (s->findings > CHECK_MAX_LINES)
        return;
    printf("%s: byte %" PRIu64 ": ", s->name, offset);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* Whether stated chunk/byte counts match the chunks stored. A stated 0
 * bytes over chunks is "not counted" (generators that count chunks only;
 * every recorder counts both) and compares only the chunks. */
static bool counts_agree(uint64_t chunks, uint64_t bytes, uint64_t have_chunks,
                         uint64_t have_bytes)
{
    if (chunks != have_chunks)
        return false;
    return bytes == have_bytes || (bytes == 0 && chunks > 0);
}

static void on_request(struct check_state *s, const struct trace_record *rec)
{
    uint32_t id = rec->u.request.id;
    struct flight *f;
    if (id_set_add(&s->t.requests, id)) {
        finding(s, rec->offset, "a second request record for id %" PRIu32, id);
        return;
    }
    f = calloc(1, sizeof(*f));
    if (f && id_map_put(&s->t.flights, id, f) != 0)
        free(f); /* out of memory: this request's counts are not compared */
}

static void on_result(struct check_state *s, const struct trace_record *rec)
{
    const struct trace_result *res = &rec->u.result;
    struct flight *f;
    s->t.results_n++;
    if (!id_set_has(&s->t.requests, res->id)) {
        finding(s, rec->offset,
                "a result for request %" PRIu32 ", which has no request record",
                res->id);
        return;
    }
    if (id_set_add(&s->t.results, res->id)) {
        finding(s, rec->offset, "a second result record for request %" PRIu32,
                res->id);
        return;
    }
    f = id_map_get(&s->t.flights, res->id);
    if (!f)
        return;
    if (!counts_agree(res->chunks, res->bytes, f->chunks, f->bytes))
        finding(s, rec->offset,
                "the result of request %" PRIu32 " says %" PRIu64
                " chunks (%" PRIu64 " bytes); the trace holds %" PRIu64
                " (%" PRIu64 " bytes)",
                res->id, res->chunks, res->bytes, f->chunks, f->bytes);
    id_map_del(&s->t.flights, res->id);
    free(f);
}

static void on_chunk(struct check_state *s, const struct trace_record *rec)
{
    uint32_t id = rec->u.chunk.request_id;
    struct flight *f;
    s->t.chunks_n++;
    s->t.bytes_n += rec->u.chunk.len;
    if (!id_set_has(&s->t.requests, id)) {
        finding(s, rec->offset,
                "a chunk of request %" PRIu32 ", which has no request record",
                id);
        return;
    }
    f = id_map_get(&s->t.flights, id);
    if (f) {
        f->chunks++;
        f->bytes += rec->u.chunk.len;
    }
}

static void on_footer(struct check_state *s, const struct trace_record *rec)
{
    const struct trace_footer *ft = &rec->u.footer;
    if (s->t.footers++ > 0) {
        finding(s, rec->offset, "a second footer in one trace");
        return;
    }
    if (ft->requests != s->t.results_n)
        finding(s, rec->offset,
                "the footer says %" PRIu64 " requests (result records); "
                "the trace holds %" PRIu64,
                ft->requests, s->t.results_n);
    if (!counts_agree(ft->chunks, ft->bytes, s->t.chunks_n, s->t.bytes_n))
        finding(s, rec->offset,
                "the footer says %" PRIu64 " chunks (%" PRIu64
                " bytes); the trace holds %" PRIu64 " (%" PRIu64 " bytes)",
                ft->chunks, ft->bytes, s->t.chunks_n, s->t.bytes_n);
    if (ft->ok > ft->requests || ft->failed > ft->requests - ft->ok)
        finding(s, rec->offset,
                "the footer says %" PRIu64 " ok and %" PRIu64
                " failed of %" PRIu64 " requests",
                ft->ok, ft->failed, ft->requests);
}

static void on_record(struct check_state *s, const struct trace_record *rec)
{
    struct check_counts *c = &s->c;
    c->records++;
    switch (rec->kind) {
    case TRACE_HEADER:
        c->headers++;
        c->v1_headers += rec->u.header.format_version < 2;
        trace_state_clear(&s->t); /* ids restart with each trace */
        check_shards_header(s->shards, &rec->u.header, s->name);
        break;
    case TRACE_REQUEST:
        c->requests++;
        on_request(s, rec);
        break;
    case TRACE_RESULT:
        c->results++;
        on_result(s, rec);
        break;
    case TRACE_CHUNK:
        c->chunks++;
        c->bytes += rec->u.chunk.len;
        on_chunk(s, rec);
        break;
    case TRACE_FOOTER:
        c->footers++;
        on_footer(s, rec);
        check_shards_footer(s->shards, &rec->u.footer);
        break;
    case TRACE_STAGE:
        c->stages++;
        break;
    case TRACE_SERVER_METRICS:
        c->scrapes++;
        break;
    case TRACE_HANDED:
        break; /* tokentrace-proxy's per-chunk facts: no count depends on them
                */
    default:
        c->unknown++;
        break;
    }
}

/* One line on the records' checksums: how many matched (version 2), that
 * version 1 records have none, or that one failed (the damage line says
 * which record). */
static void print_checksums(const struct check_state *s, uint64_t verified,
                            bool bad)
{
    if (bad)
        printf("%s: checksums: %" PRIu64 " matched, then a record's did not: "
               "its bytes changed after it was written (damage, not a "
               "misread)\n",
               s->name, verified);
    else if (s->c.headers > s->c.v1_headers)
        printf("%s: checksums: all %" PRIu64 " records of version 2 match%s\n",
               s->name, verified,
               s->c.v1_headers ? "; the version 1 traces have none" : "");
    else if (s->c.headers)
        printf("%s: checksums: none (format version 1: a changed byte inside "
               "text or a number reads as valid)\n",
               s->name);
}

/* Checks one file; prints a verdict line and returns 0 when intact. Its
 * shard traces are noted in shards. */
static int check_file(const char *path, struct check_shards *shards)
{
    struct trace_reader *r;
    struct trace_record rec;
    struct check_state s;
    char damage[512] = "", sha[65];
    uint64_t damage_records = 0;
    int st, rc = 0;
    bool bad_checksum = false;
    if (trace_reader_open(path, &r) != TRACE_OK) {
        log_error("%s: cannot open: %m", path);
        return 1;
    }
    trace_reader_want_sha256(r);
    memset(&s, 0, sizeof(s));
    s.name = trace_reader_name(r);
    s.shards = shards;
    for (;;) {
        st = trace_reader_next(r, &rec);
        if (st > 0) {
            on_record(&s, &rec);
            continue;
        }
        if (st == 0)
            break;
        bad_checksum |= st == -TRACE_E_CHECKSUM;
        if (!damage[0]) {
            snprintf(damage, sizeof(damage), "%s", trace_reader_error(r));
            damage_records = s.c.records;
        } else {
            printf("%s: also damaged: %s\n", s.name, trace_reader_error(r));
        }
        /* a damaged trace in a concatenation: the next ones still read */
        if (trace_reader_resync(r) != 1)
            break;
        printf("%s\n", trace_reader_resync_note(r));
    }
    printf("%s: %" PRIu64 " records: %" PRIu64 " traces, %" PRIu64
           " requests, %" PRIu64 " results, %" PRIu64 " chunks (%" PRIu64
           " body bytes), %" PRIu64 " footers",
           s.name, s.c.records, s.c.headers, s.c.requests, s.c.results,
           s.c.chunks, s.c.bytes, s.c.footers);
    if (s.c.stages)
        printf(", %" PRIu64 " stage records", s.c.stages);
    if (s.c.scrapes)
        printf(", %" PRIu64 " server metrics scrapes", s.c.scrapes);
    if (s.c.unknown)
        printf(", %" PRIu64 " unknown (skipped)", s.c.unknown);
    printf("\n");
    print_checksums(&s, trace_reader_verified(r), bad_checksum);
    if (trace_reader_sha256(r, sha) == TRACE_OK)
        printf("%s: sha256 %s (of the file's bytes, as sha256sum computes "
               "it)\n",
               s.name, sha);
    if (damage[0]) {
        printf("%s: DAMAGED: %s; the %" PRIu64
               " complete records before it read back\n",
               s.name, damage, damage_records);
        rc = 1;
    } else if (s.c.headers == 0) {
        printf("%s: DAMAGED: empty file, no header\n", s.name);
        rc = 1;
    } else if (s.findings) {
        printf("%s: DAMAGED: the records contradict each other: %" PRIu64
               " finding%s%s, the first at byte %" PRIu64 "\n",
               s.name, s.findings, s.findings == 1 ? "" : "s",
               s.findings > CHECK_MAX_LINES ? " (the first 10 above)"
                                            : " (above)",
               s.first_finding_offset);
        /* what a checksum can and cannot tell about them */
        if (s.c.v1_headers == 0)
            printf("%s: every record's checksum matches: the bytes are as "
                   "they were written, so these contradictions are not damage "
                   "to the file but came with the records (a bug of the "
                   "program that wrote them)\n",
                   s.name);
        else
            printf("%s: format version 1 has no checksums: a byte changed "
                   "after writing cannot be told from records written "
                   "wrong\n",
                   s.name);
        rc = 1;
    } else if (s.c.footers < s.c.headers) {
        printf("%s: INCOMPLETE: no footer (the recording did not end "
               "cleanly); %" PRIu64 " of %" PRIu64 " requests have no result\n",
               s.name,
               s.c.requests > s.c.results ? s.c.requests - s.c.results : 0,
               s.c.requests);
        rc = 1;
    } else {
        printf("%s: OK\n", s.name);
    }
    trace_state_clear(&s.t);
    trace_reader_close(r);
    return rc;
}

int cmd_check(int argc, char **argv)
{
    struct check_shards shards;
    int rc = 0;
    memset(&shards, 0, sizeof shards);
    if (argc < 1 || strcmp(argv[0], "--help") == 0) {
        fprintf(
            argc < 1 ? stderr : stdout,
            "usage: tokentrace-analyze check TRACE...\n"
            "\n"
            "Reads every record. Prints counts and OK; or DAMAGED with the\n"
            "byte offset of the first damage, or of each record that\n"
            "contradicts the others (a repeated request or result, a result\n"
            "or footer whose counts differ from the records); or INCOMPLETE\n"
            "when the recording ended without a footer. After damage,\n"
            "reading goes on at the next trace header of a concatenation,\n"
            "saying which bytes were skipped. In a version 2 trace every\n"
            "record's checksum is verified: a changed byte is named as\n"
            "damage with its record. Prints the SHA-256 of each file (quote\n"
            "it in a bug report). Then, for shard traces (tokentrace-record\n"
            "--shard, --procs), a line per run: OK, INCOMPLETE (a shard\n"
            "missing, twice or cut) or NOT ONE RUN (their settings differ,\n"
            "naming the field).\n"
            "\n"
            "exit codes: 0 every file and run is OK, 1 otherwise\n");
        return argc < 1 ? 2 : 0;
    }
    for (int i = 0; i < argc; i++)
        rc |= check_file(argv[i], &shards);
    /* then the runs: a shard missing, twice or cut, or not one run */
    rc |= check_shards_finish(&shards);
    return rc;
}
