/* fuzz_trace_reader: common/trace_reader.c on arbitrary files, every record
 * walked as the analyzer would (typed fields, the raw tree, JSON output).
 *
 * Invariants checked beyond "no crash": records tile the file from byte 0
 * (each starts where the previous ended, inside the file); a clean end means
 * every byte was a record; an error names the file and "byte N" with N inside
 * the file; and reading a prefix of the file (a cut at a point chosen by the
 * input) gives the same records up to the cut, then a clean end exactly at a
 * record boundary, else an error at the first damaged record. An input
 * holding a zstd frame (common/trace_input.c) is read the same way, but its
 * offsets count decompressed bytes: only "no crash", contiguous records and
 * a sticky error are checked for it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fuzz_common.h"
#include "json_writer.h"
#include "mp.h"
#include "trace.h"

#define FUZZ_MAX_RECORDS 4096 /* records remembered for the prefix check */

/* Container map keys are named, not rendered (analyze/output/json_writer.c), so
 * output no longer doubles per nesting level: render records at any depth
 * (regression input: crashes/fuzz_trace_reader/json-keys-nested-24.trace). */
#define FUZZ_JSON_KEY_NESTING MP_MAX_DEPTH

struct fuzz_pass {
    uint64_t offsets[FUZZ_MAX_RECORDS];
    size_t sizes[FUZZ_MAX_RECORDS];
    size_t n;        /* records read (remembered up to the cap) */
    int status;      /* 0 clean end, or -trace_err */
    uint64_t err_at; /* error offset when status < 0 */
    bool compressed; /* the input held a zstd frame */
};

/* Reads every byte of a NUL-terminated string (ASan checks the bounds). */
static size_t touch(const char *s)
{
    return s ? strlen(s) : 0;
}

/* Walks the raw tree with the mp.h helpers the readers use. */
static size_t walk(const struct mp_value *v, int depth)
{
    size_t n = 1;
    int64_t x;
    FUZZ_CHECK(depth <= MP_MAX_DEPTH + 1);
    (void)mp_get_int(v, &x);
    if (v->type == MP_ARRAY)
        for (uint32_t i = 0; i < v->n; i++)
            n += walk(&v->v.items[i], depth + 1);
    if (v->type == MP_MAP) {
        (void)mp_map_get(v, "id");
        (void)mp_str_eq(mp_map_get(v, "format"), "tokentrace");
        for (uint32_t i = 0; i < 2 * v->n; i++)
            n += walk(&v->v.items[i], depth + 1);
    }
    return n;
}

/* How deep container map keys nest inside v (0: none). */
static int key_nesting(const struct mp_value *v)
{
    int deepest = 0;
    if (v->type == MP_ARRAY)
        for (uint32_t i = 0; i < v->n; i++) {
            int d = key_nesting(&v->v.items[i]);
            deepest = d > deepest ? d : deepest;
        }
    if (v->type == MP_MAP)
        for (uint32_t i = 0; i < 2 * v->n; i++) {
            const struct mp_value *x = &v->v.items[i];
            int d = key_nesting(x);
            if (i % 2 == 0 && (x->type == MP_MAP || x->type == MP_ARRAY))
                d++;
            deepest = d > deepest ? d : deepest;
        }
    return deepest;
}

/* Reads every typed field of a record the way the analyzer does. */
static size_t touch_record(const struct trace_record *rec)
{
    size_t n = 0;
    switch (rec->kind) {
    case TRACE_HEADER: {
        const struct trace_header *h = &rec->u.header;
        FUZZ_CHECK(h->format_version <= TRACE_FORMAT_VERSION);
        n += touch(h->tool_version) + touch(h->trace_id) + touch(h->host) +
             touch(h->command_line) + touch(h->endpoint) + touch(h->url) +
             touch(h->api) + touch(h->workload);
        for (size_t i = 0; i < h->n_models; i++)
            n += touch(h->models[i]);
        for (size_t i = 0; i < h->n_labels; i++)
            n += touch(h->labels[i].key) + touch(h->labels[i].value);
        for (size_t i = 0; i < h->n_options; i++)
            n += touch(h->options[i].key) + touch(h->options[i].value);
        break;
    }
    case TRACE_REQUEST: {
        const struct trace_request *q = &rec->u.request;
        n += touch(q->model) + touch(q->class_name) + touch(q->request_id);
        if (q->body) {
            FUZZ_CHECK(q->body[q->body_len] == '\0');
            n += q->body_len;
        }
        break;
    }
    case TRACE_RESULT: {
        const struct trace_result *s = &rec->u.result;
        n += touch(s->error_kind) + touch(s->error_message);
        for (size_t i = 0; i < s->n_headers; i++)
            n += touch(s->headers[i].key) + touch(s->headers[i].value);
        n += touch(trace_result_header(s, "content-type"));
        FUZZ_CHECK(s->http_status >= 0 && s->http_status <= 999);
        break;
    }
    case TRACE_FOOTER:
        n += touch(rec->u.footer.reason);
        break;
    case TRACE_CHUNK: {
        const struct trace_chunk *c = &rec->u.chunk;
        for (size_t i = 0; i < c->len; i++)
            n += c->data[i];
        break;
    }
    default:
        break;
    }
    return n;
}

/* Reads the file at path to the end or the first error, recording where
 * each record lies; does the full walk when deep. */
static void read_all(const char *path, size_t size, bool deep,
                     struct fuzz_pass *p)
{
    struct trace_reader *r;
    struct trace_record rec;
    struct buf json;
    uint64_t next = 0;
    int st;
    memset(p, 0, sizeof(*p));
    FUZZ_CHECK(trace_reader_open(path, &r) == TRACE_OK);
    buf_init(&json, (size_t)256 << 20);
    while ((st = trace_reader_next(r, &rec)) == 1) {
        FUZZ_CHECK(rec.offset == next && rec.size >= 1);
        FUZZ_CHECK(trace_reader_compressed(r) ||
                   (rec.size <= size && rec.offset <= size - rec.size));
        next = rec.offset + rec.size;
        if (p->n < FUZZ_MAX_RECORDS) {
            p->offsets[p->n] = rec.offset;
            p->sizes[p->n] = rec.size;
        }
        p->n++;
        if (!deep)
            continue;
        (void)touch_record(&rec);
        if (rec.raw) {
            (void)walk(rec.raw, 0);
            if (key_nesting(rec.raw) <= FUZZ_JSON_KEY_NESTING) {
                json_put_mp(&json, rec.raw);
                buf_reset(&json);
            }
        }
    }
    p->status = st;
    p->compressed = trace_reader_compressed(r);
    if (p->compressed) {
        FUZZ_CHECK(st <= 0);
        if (st < 0)
            FUZZ_CHECK(trace_reader_next(r, &rec) < 0);
    } else if (st == 0) {
        FUZZ_CHECK(next == size);
    } else {
        char want[64];
        const char *msg = trace_reader_error(r);
        FUZZ_CHECK(st < 0);
        p->err_at = trace_reader_error_offset(r);
        FUZZ_CHECK(p->err_at == next && p->err_at < size);
        snprintf(want, sizeof(want), ": byte %" PRIu64 ": ", p->err_at);
        FUZZ_CHECK(strncmp(msg, path, strlen(path)) == 0);
        FUZZ_CHECK(strstr(msg, want) != NULL);
        /* The error sticks. */
        FUZZ_CHECK(trace_reader_next(r, &rec) < 0);
    }
    buf_free(&json);
    trace_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct fuzz_pass whole, prefix;
    const char *path = fuzz_file_put(data, size);
    size_t cut, k = 0;
    read_all(path, size, true, &whole);
    if (size < 2 || whole.compressed)
        return 0;
    /* Cut the file at a point picked by the last byte, and read again. */
    cut = (size_t)((uint64_t)size * data[size - 1] / 256);
    path = fuzz_file_put(data, cut);
    read_all(path, cut, false, &prefix);
    while (k < whole.n && k < FUZZ_MAX_RECORDS &&
           whole.offsets[k] + whole.sizes[k] <= cut) {
        /* Records that end before the cut read the same. */
        FUZZ_CHECK(k < prefix.n && prefix.offsets[k] == whole.offsets[k] &&
                   prefix.sizes[k] == whole.sizes[k]);
        k++;
    }
    if (whole.n > FUZZ_MAX_RECORDS)
        return 0;
    FUZZ_CHECK(prefix.n == k);
    {
        uint64_t boundary = k ? whole.offsets[k - 1] + whole.sizes[k - 1] : 0;
        if (boundary == cut && (whole.status == 0 || whole.err_at >= cut))
            FUZZ_CHECK(prefix.status == 0);
        else
            FUZZ_CHECK(prefix.status < 0 && prefix.err_at == boundary);
    }
    return 0;
}
