/* cmd_dump: `tokentrace-analyze dump TRACE...` prints every record as one
 * JSON object per line, with its kind, trace index and byte offset. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base64.h"
#include "buf.h"
#include "commands.h"
#include "json_writer.h"
#include "log.h"
#include "mp.h"
#include "trace.h"

static const char *kind_name(enum trace_kind k)
{
    switch (k) {
    case TRACE_HEADER:
        return "header";
    case TRACE_CHUNK:
        return "chunk";
    case TRACE_REQUEST:
        return "request";
    case TRACE_RESULT:
        return "result";
    case TRACE_FOOTER:
        return "footer";
    case TRACE_STAGE:
        return "stage";
    case TRACE_SERVER_METRICS:
        return "server_metrics";
    case TRACE_HANDED:
        return "handed";
    default:
        return "unknown";
    }
}

/* Appends the JSON line of one record to out; base: the traces of the
 * inputs before this one (the "trace" number counts across inputs, as
 * requests and summary number them). */
static void dump_record(struct buf *out, const struct trace_record *rec,
                        unsigned base)
{
    const struct mp_value *raw = rec->raw;
    buf_printf(out, "{\"kind\":\"%s\",\"trace\":%u,\"offset\":%" PRIu64,
               kind_name(rec->kind), base + rec->trace_index, rec->offset);
    if (rec->kind == TRACE_CHUNK) {
        const struct trace_chunk *c = &rec->u.chunk;
        buf_printf(out,
                   ",\"request_id\":%" PRIu32 ",\"t_ns\":%" PRId64
                   ",\"len\":%zu,",
                   c->request_id, c->t_ns, c->len);
        if (json_utf8_valid(c->data, c->len)) {
            buf_puts(out, "\"data\":");
            json_put_string(out, (const char *)c->data, c->len);
        } else {
            buf_puts(out, "\"data_b64\":\"");
            base64_put(out, c->data, c->len);
            buf_puts(out, "\"");
        }
    } else if (rec->kind == TRACE_HANDED) {
        const struct trace_handed *h = &rec->u.handed;
        buf_printf(out,
                   ",\"request_id\":%" PRIu32 ",\"chunk\":%" PRIu64
                   ",\"recv_ns\":%" PRId64 ",\"handed_ns\":%" PRId64,
                   h->request_id, h->chunk, h->recv_ns, h->handed_ns);
    } else if (rec->kind == TRACE_UNKNOWN) {
        buf_printf(out, ",\"raw_kind\":%d,\"record\":", rec->raw_kind);
        json_put_mp(out, raw);
    } else if (raw && raw->n >= 2 && raw->v.items[1].type == MP_MAP) {
        /* The record's own fields, unknown ones included. */
        struct buf fields;
        buf_init(&fields, 0);
        json_put_mp(&fields, &raw->v.items[1]);
        if (fields.len > 2) {
            buf_puts(out, ",");
            buf_append(out, fields.data + 1, fields.len - 2);
        }
        buf_free(&fields);
    }
    buf_puts(out, "}\n");
}

/* Dumps one file, its traces numbered from *base (then moved past them);
 * returns 0, or 1 when it is unreadable or damaged. */
static int dump_file(const char *path, unsigned *base)
{
    struct trace_reader *r;
    struct trace_record rec;
    struct buf out;
    unsigned seen = 0;
    int st, rc = 0;
    if (trace_reader_open(path, &r) != TRACE_OK) {
        log_error("%s: cannot open: %m", path);
        return 1;
    }
    buf_init(&out, 0);
    for (;;) {
        st = trace_reader_next(r, &rec);
        if (st > 0) {
            dump_record(&out, &rec, *base);
            if (rec.trace_index + 1 > seen)
                seen = rec.trace_index + 1;
            if (out.len > 65536) {
                fwrite(out.data, 1, out.len, stdout);
                buf_reset(&out);
            }
            continue;
        }
        if (st == 0)
            break;
        if (out.len) /* out.data is NULL while nothing was written */
            fwrite(out.data, 1, out.len, stdout);
        buf_reset(&out);
        fflush(stdout);
        log_error("%s", trace_reader_error(r));
        rc = 1;
        /* a damaged trace in a concatenation: the next ones still read */
        if (trace_reader_resync(r) != 1)
            break;
        log_warn("%s", trace_reader_resync_note(r));
    }
    if (out.len)
        fwrite(out.data, 1, out.len, stdout);
    buf_free(&out);
    trace_reader_close(r);
    *base += seen;
    return rc;
}

int cmd_dump(int argc, char **argv)
{
    unsigned base = 0;
    int rc = 0;
    if (argc < 1 || strcmp(argv[0], "--help") == 0) {
        fprintf(argc < 1 ? stderr : stdout,
                "usage: tokentrace-analyze dump TRACE...\n"
                "\n"
                "Prints every record as one JSON object per line: \"kind\"\n"
                "(header, request, chunk, result, footer, unknown), \"trace\"\n"
                "(the trace's number from 0, counted across every input, as\n"
                "requests counts it), \"offset\" (byte offset in its file),\n"
                "then the record's fields. Chunk bytes are in \"data\" (or\n"
                "\"data_b64\" when not valid UTF-8).\n");
        return argc < 1 ? 2 : 0;
    }
    for (int i = 0; i < argc; i++)
        rc |= dump_file(argv[i], &base);
    if (fflush(stdout) != 0)
        rc = 1;
    return rc;
}
