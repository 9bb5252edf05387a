/* trace_reader: reads tokentrace records from a file or stdin, streaming
 * through a bounded window, treating every byte as hostile. */
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crc32c.h"
#include "fast_path.h"
#include "mp.h"
#include "trace_input.h"

#define READ_STEP ((size_t)256 << 10)
#define MAX_NODES ((size_t)1 << 20) /* decoded nodes in one record */
#define SCRATCH_BLOCK ((size_t)64 << 10)
/* The record before a damaged one is kept in the window while it is at most
 * this big, so a resynchronization can find a header it swallowed (a cut
 * chunk whose claimed length ran into the next trace of a concatenation). */
#define RESYNC_LOOKBACK ((size_t)1 << 20)
/* A header as every writer starts it: [1, {"format": "tokentrace", ...}]:
 * 0x92 0x01, a map prefix (fixmap, map16 or map32), then these bytes. */
static const char HEADER_KEY[] = "\xa6"
                                 "format"
                                 "\xaa"
                                 "tokentrace";

/* A bump allocator whose blocks never move, reset per record. */
struct scratch_block {
    struct scratch_block *next;
    size_t used, cap;
    char data[];
};

struct trace_reader {
    int fd;
    bool owns_fd;
    struct trace_input *in; /* plain or zstd-framed bytes of fd */
    char *name;
    uint8_t *buf;
    size_t cap, pos, fill;
    uint64_t base; /* file offset of buf[0] */
    bool eof;
    bool seen_header;
    bool fast_chunks; /* read_chunk_fast on (env TOKENTRACE_NO_FAST_PATH) */
    unsigned trace_index;
    unsigned headers;
    unsigned version;  /* format version of the current trace (from its
                          header): 2 and up end every record with a CRC */
    uint64_t records;  /* records delivered */
    uint64_t verified; /* of them, with a checksum that matched */
    struct mp_arena arena;
    struct scratch_block *scratch;
    char error[512];
    uint64_t error_offset;
    int error_code;    /* the trace_err of the error, 0 none */
    uint64_t prev_off; /* the last record delivered: where it starts */
    size_t prev_size;  /* and its size (0: none to keep) */
    char note[512];    /* what the last resynchronization skipped */
};

static void *scratch_alloc(struct trace_reader *r, size_t size)
{
    struct scratch_block *b = r->scratch;
    size = (size + 7) & ~(size_t)7;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > SCRATCH_BLOCK ? size : SCRATCH_BLOCK;
        struct scratch_block *nb = malloc(sizeof(*nb) + cap);
        if (!nb)
            return NULL;
        nb->next = b;
        nb->used = 0;
        nb->cap = cap;
        r->scratch = b = nb;
    }
    b->used += size;
    return b->data + b->used - size;
}

/* Keeps the newest block (usually the only one) and frees the rest. */
static void scratch_reset(struct trace_reader *r)
{
    struct scratch_block *b = r->scratch;
    if (!b)
        return;
    while (b->next) {
        struct scratch_block *n = b->next;
        b->next = n->next;
        free(n);
    }
    b->used = 0;
}

static void scratch_free(struct trace_reader *r)
{
    while (r->scratch) {
        struct scratch_block *n = r->scratch->next;
        free(r->scratch);
        r->scratch = n;
    }
}

int trace_reader_open(const char *path, struct trace_reader **out)
{
    struct trace_reader *r = calloc(1, sizeof(*r));
    if (!r)
        return TRACE_E_NOMEM;
    if (strcmp(path, "-") == 0) {
        r->fd = STDIN_FILENO;
        r->name = strdup("<stdin>");
    } else {
        r->fd = open(path, O_RDONLY | O_CLOEXEC);
        r->owns_fd = true;
        r->name = strdup(path);
    }
    if (r->fd < 0 || !r->name) {
        int e = errno;
        int err = r->fd < 0 ? TRACE_E_IO : TRACE_E_NOMEM;
        if (r->fd >= 0 && r->owns_fd)
            close(r->fd);
        free(r->name);
        free(r);
        errno = e;
        return err;
    }
    if (trace_input_open(r->fd, &r->in) != 0) {
        if (r->owns_fd)
            close(r->fd);
        free(r->name);
        free(r);
        return TRACE_E_NOMEM;
    }
    mp_arena_init(&r->arena, MAX_NODES);
    r->fast_chunks = !fast_path_disabled();
    *out = r;
    return TRACE_OK;
}

void trace_reader_close(struct trace_reader *r)
{
    if (!r)
        return;
    if (r->owns_fd)
        close(r->fd);
    trace_input_close(r->in);
    free(r->buf);
    free(r->name);
    mp_arena_free(&r->arena);
    scratch_free(r);
    free(r);
}

const char *trace_reader_error(const struct trace_reader *r)
{
    return r->error;
}

uint64_t trace_reader_error_offset(const struct trace_reader *r)
{
    return r->error_offset;
}

bool trace_reader_compressed(const struct trace_reader *r)
{
    return trace_input_compressed(r->in);
}

const char *trace_reader_name(const struct trace_reader *r)
{
    return r->name;
}

static int fail(struct trace_reader *r, int err, uint64_t offset,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Records the error message "<file>: byte N: <what>" and returns -err. */
static int fail(struct trace_reader *r, int err, uint64_t offset,
                const char *fmt, ...)
{
    char detail[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    r->error_offset = offset;
    r->error_code = err;
    /* a compressed trace's offsets count the decompressed bytes */
    snprintf(r->error, sizeof(r->error), "%s: byte %llu%s: %s", r->name,
             (unsigned long long)offset,
             trace_input_compressed(r->in) ? " (decompressed)" : "", detail);
    return -err;
}

/* Makes room for and reads at least some more bytes; sets eof at the end.
 * Returns TRACE_OK, TRACE_E_IO / TRACE_E_NOMEM, or TRACE_E_MALFORMED for
 * a damaged zstd frame (trace_input_error says which). */
static int fill_more(struct trace_reader *r)
{
    ssize_t n;
    size_t drop = r->pos;
    /* keep a small previous record for trace_reader_resync */
    if (r->prev_size && r->prev_size <= RESYNC_LOOKBACK &&
        r->prev_off >= r->base && r->prev_off - r->base < drop)
        drop = (size_t)(r->prev_off - r->base);
    if (drop > 0) {
        memmove(r->buf, r->buf + drop, r->fill - drop);
        r->base += drop;
        r->fill -= drop;
        r->pos -= drop;
    }
    if (r->cap - r->fill < READ_STEP) {
        size_t ncap = r->cap ? r->cap * 2 : READ_STEP * 2;
        uint8_t *p;
        while (ncap - r->fill < READ_STEP)
            ncap *= 2;
        p = realloc(r->buf, ncap);
        if (!p)
            return TRACE_E_NOMEM;
        r->buf = p;
        r->cap = ncap;
    }
    n = trace_input_read(r->in, r->buf + r->fill, r->cap - r->fill);
    if (n == -2)
        return TRACE_E_MALFORMED;
    if (n < 0)
        return errno == ENOMEM ? TRACE_E_NOMEM : TRACE_E_IO;
    if (n == 0)
        r->eof = true;
    r->fill += (size_t)n;
    return TRACE_OK;
}

/* Copies a msgpack str/bin into a NUL-terminated scratch string; NULL for
 * nil, absent or other types. Without len (a name, label or message, used
 * as a C string) a NUL byte inside becomes U+FFFD, so "a\0b" and "a\0c"
 * stay two names instead of both reading as "a". With len (a body) the
 * bytes are kept exactly. */
static const char *get_str(struct trace_reader *r, const struct mp_value *v,
                           size_t *len)
{
    char *s;
    if (!v || (v->type != MP_STR && v->type != MP_BIN))
        return NULL;
    if (!len && v->n && memchr(v->v.bytes, 0, v->n)) {
        size_t o = 0;
        s = scratch_alloc(r, (size_t)v->n * 3 + 1);
        if (!s)
            return NULL;
        for (size_t i = 0; i < v->n; i++) {
            if (v->v.bytes[i])
                s[o++] = (char)v->v.bytes[i];
            else {
                memcpy(s + o, "\xef\xbf\xbd", 3);
                o += 3;
            }
        }
        s[o] = '\0';
        return s;
    }
    s = scratch_alloc(r, (size_t)v->n + 1);
    if (!s)
        return NULL;
    memcpy(s, v->v.bytes, v->n);
    s[v->n] = '\0';
    if (len)
        *len = v->n;
    return s;
}

static const char *map_str(struct trace_reader *r, const struct mp_value *m,
                           const char *key)
{
    return get_str(r, mp_map_get(m, key), NULL);
}

static int64_t map_int(const struct mp_value *m, const char *key, int64_t dflt)
{
    int64_t x;
    return mp_get_int(mp_map_get(m, key), &x) ? x : dflt;
}

static bool map_bool(const struct mp_value *m, const char *key)
{
    const struct mp_value *v = mp_map_get(m, key);
    return v && v->type == MP_BOOL && v->v.b;
}

/* Reads a map of strings into a scratch array of trace_kv. */
static const struct trace_kv *map_kv(struct trace_reader *r,
                                     const struct mp_value *m, const char *key,
                                     size_t *n)
{
    const struct mp_value *v = mp_map_get(m, key);
    struct trace_kv *kv;
    size_t k = 0;
    *n = 0;
    if (!v || v->type != MP_MAP || v->n == 0)
        return NULL;
    kv = scratch_alloc(r, sizeof(*kv) * v->n);
    if (!kv)
        return NULL;
    for (uint32_t i = 0; i < v->n; i++) {
        const char *key_s = get_str(r, &v->v.items[2 * i], NULL);
        const char *val_s = get_str(r, &v->v.items[2 * i + 1], NULL);
        if (!key_s)
            continue;
        kv[k].key = key_s;
        kv[k].value = val_s ? val_s : "";
        k++;
    }
    *n = k;
    return kv;
}

static int64_t clamp_u32(int64_t x)
{
    return x < 0 || x > UINT32_MAX ? 0 : x;
}

static void read_header(struct trace_reader *r, const struct mp_value *m,
                        struct trace_header *h)
{
    const struct mp_value *models = mp_map_get(m, "models");
    memset(h, 0, sizeof(*h));
    h->format_version = (uint32_t)clamp_u32(map_int(m, "version", 0));
    h->tool_version = map_str(r, m, "tool_version");
    h->trace_id = map_str(r, m, "trace_id");
    h->host = map_str(r, m, "host");
    h->command_line = map_str(r, m, "command_line");
    h->endpoint = map_str(r, m, "endpoint");
    h->url = map_str(r, m, "url");
    h->api = map_str(r, m, "api");
    if (models && models->type == MP_ARRAY && models->n > 0) {
        const char **list = scratch_alloc(r, sizeof(*list) * models->n);
        if (list) {
            for (uint32_t i = 0; i < models->n; i++) {
                const char *s = get_str(r, &models->v.items[i], NULL);
                if (s)
                    list[h->n_models++] = s;
            }
            h->models = list;
        }
    }
    h->labels = map_kv(r, m, "labels", &h->n_labels);
    h->workload = map_str(r, m, "workload");
    h->options = map_kv(r, m, "options", &h->n_options);
    h->mono_zero_ns = map_int(m, "mono_zero_ns", -1);
    h->real_zero_ns = map_int(m, "real_zero_ns", -1);
    h->shared = map_kv(r, m, "shared", &h->n_shared);
}

static void read_request(struct trace_reader *r, const struct mp_value *m,
                         struct trace_request *q)
{
    memset(q, 0, sizeof(*q));
    q->id = (uint32_t)clamp_u32(map_int(m, "id", 0));
    q->model = map_str(r, m, "model");
    q->class_name = map_str(r, m, "class");
    q->prompt_index = map_int(m, "prompt_index", -1);
    q->input_tokens_est = map_int(m, "input_tokens_est", -1);
    q->max_tokens = map_int(m, "max_tokens", -1);
    q->warmup = map_bool(m, "warmup");
    q->scheduled_ns = map_int(m, "scheduled_ns", -1);
    q->start_ns = map_int(m, "start_ns", -1);
    q->request_id = map_str(r, m, "request_id");
    q->body = get_str(r, mp_map_get(m, "body"), &q->body_len);
    q->attempt = (uint32_t)clamp_u32(map_int(m, "attempt", 1));
    q->retry_of = (uint32_t)clamp_u32(map_int(m, "retry_of", 0));
    q->stage = (uint32_t)clamp_u32(map_int(m, "stage", 0));
    q->cap_released_ns = map_int(m, "cap_released_ns", -1);
    q->session = (uint32_t)clamp_u32(map_int(m, "session", 0));
    q->turn = (uint32_t)clamp_u32(map_int(m, "turn", 0));
    q->think_ns = map_int(m, "think_ns", -1);
    q->api = map_str(r, m, "api");
    q->asked_input_tokens = map_int(m, "asked_input_tokens", -1);
    q->asked_output_tokens = map_int(m, "asked_output_tokens", -1);
}

static void read_result(struct trace_reader *r, const struct mp_value *m,
                        struct trace_result *s)
{
    const struct mp_value *ph = mp_map_get(m, "phases");
    int64_t status = map_int(m, "http_status", 0);
    memset(s, 0, sizeof(*s));
    s->id = (uint32_t)clamp_u32(map_int(m, "id", 0));
    s->end_ns = map_int(m, "end_ns", -1);
    s->http_status = status < 0 || status > 999 ? 0 : (int)status;
    s->error_kind = map_str(r, m, "error_kind");
    s->error_message = map_str(r, m, "error_message");
    s->headers = map_kv(r, m, "headers", &s->n_headers);
    s->phases.namelookup_ns = map_int(ph, "namelookup_ns", -1);
    s->phases.connect_ns = map_int(ph, "connect_ns", -1);
    s->phases.tls_ns = map_int(ph, "tls_ns", -1);
    s->phases.pretransfer_ns = map_int(ph, "pretransfer_ns", -1);
    s->phases.posttransfer_ns = map_int(ph, "posttransfer_ns", -1);
    s->phases.starttransfer_ns = map_int(ph, "starttransfer_ns", -1);
    s->phases.total_ns = map_int(ph, "total_ns", -1);
    s->bytes = (uint64_t)map_int(m, "bytes", 0);
    s->chunks = (uint64_t)map_int(m, "chunks", 0);
    s->first_byte_ns = map_int(m, "first_byte_ns", -1);
    s->attempt = (uint32_t)clamp_u32(map_int(m, "attempt", 1));
    s->retry_of = (uint32_t)clamp_u32(map_int(m, "retry_of", 0));
    s->retry_wait_ms = map_int(m, "retry_wait_ms", -1);
    s->will_retry = s->retry_wait_ms >= 0;
}

static void read_footer(struct trace_reader *r, const struct mp_value *m,
                        struct trace_footer *f)
{
    memset(f, 0, sizeof(*f));
    f->end_ns = map_int(m, "end_ns", -1);
    f->requests = (uint64_t)map_int(m, "requests", 0);
    f->ok = (uint64_t)map_int(m, "ok", 0);
    f->failed = (uint64_t)map_int(m, "failed", 0);
    f->chunks = (uint64_t)map_int(m, "chunks", 0);
    f->bytes = (uint64_t)map_int(m, "bytes", 0);
    f->interrupted = map_bool(m, "interrupted");
    f->reason = map_str(r, m, "reason");
    f->loop_lag_samples = (uint64_t)map_int(m, "loop_lag_samples", 0);
    f->loop_lag_p50_ns = map_int(m, "loop_lag_p50_ns", -1);
    f->loop_lag_p99_ns = map_int(m, "loop_lag_p99_ns", -1);
    f->loop_lag_max_ns = map_int(m, "loop_lag_max_ns", -1);
    f->wake_probe_samples = (uint64_t)map_int(m, "wake_probe_samples", 0);
    f->wake_probe_p50_ns = map_int(m, "wake_probe_p50_ns", -1);
    f->wake_probe_p99_ns = map_int(m, "wake_probe_p99_ns", -1);
    f->wake_probe_max_ns = map_int(m, "wake_probe_max_ns", -1);
    f->receive_lag_samples = (uint64_t)map_int(m, "receive_lag_samples", 0);
    f->receive_lag_p50_ns = map_int(m, "receive_lag_p50_ns", -1);
    f->receive_lag_p99_ns = map_int(m, "receive_lag_p99_ns", -1);
    f->receive_lag_max_ns = map_int(m, "receive_lag_max_ns", -1);
}

static void read_stage(struct trace_reader *r, const struct mp_value *m,
                       struct trace_stage *s)
{
    const struct mp_value *load = mp_map_get(m, "load");
    memset(s, 0, sizeof(*s));
    s->id = (uint32_t)clamp_u32(map_int(m, "id", 0));
    s->mode = map_str(r, m, "mode");
    s->load = NAN;
    if (load && load->type == MP_FLOAT)
        s->load = load->v.f;
    else if (load) {
        int64_t i;
        if (mp_get_int(load, &i))
            s->load = (double)i;
    }
    s->start_ns = map_int(m, "start_ns", -1);
    s->end_ns = map_int(m, "end_ns", -1);
    s->sent = (uint64_t)map_int(m, "sent", 0);
    s->cpu_ns = map_int(m, "cpu_ns", -1);
    s->ramp_ns = map_int(m, "ramp_ns", 0);
    s->search = map_str(r, m, "search");
    s->search_met = (uint64_t)map_int(m, "search_met", 0);
    s->search_judged = (uint64_t)map_int(m, "search_judged", 0);
    s->loop_lag_samples = (uint64_t)map_int(m, "loop_lag_samples", 0);
    s->loop_lag_p50_ns = map_int(m, "loop_lag_p50_ns", -1);
    s->loop_lag_p99_ns = map_int(m, "loop_lag_p99_ns", -1);
    s->loop_lag_max_ns = map_int(m, "loop_lag_max_ns", -1);
}

static void read_server_metrics(struct trace_reader *r,
                                const struct mp_value *m,
                                struct trace_server_metrics *s)
{
    memset(s, 0, sizeof(*s));
    s->url = map_str(r, m, "url");
    s->when = map_str(r, m, "when");
    s->start_ns = map_int(m, "start_ns", -1);
    s->end_ns = map_int(m, "end_ns", -1);
    s->http_status = (int)map_int(m, "http_status", 0);
    s->error_kind = map_str(r, m, "error_kind");
    s->error_message = map_str(r, m, "error_message");
    s->bytes = (uint64_t)map_int(m, "bytes", 0);
    s->text = get_str(r, mp_map_get(m, "text"), &s->text_len);
    s->lines_dropped = (uint64_t)map_int(m, "lines_dropped", 0);
    s->truncated = map_bool(m, "truncated");
}

/* Fills rec from a decoded record tree. Returns 1 or -error. */
static int interpret(struct trace_reader *r, const struct mp_value *v,
                     struct trace_record *rec)
{
    const struct mp_value *body;
    int64_t kind;
    if (v->type != MP_ARRAY || v->n < 1 || !mp_get_int(&v->v.items[0], &kind))
        return fail(r, TRACE_E_MALFORMED, rec->offset,
                    "record is not an array starting with its kind");
    rec->raw_kind = kind < 0 || kind > 255 ? -1 : (int)kind;
    body = v->n >= 2 ? &v->v.items[1] : NULL;
    switch (kind) {
    case TRACE_CHUNK: {
        const struct mp_value *data;
        int64_t id, t;
        if (v->n < 4 || !mp_get_int(&v->v.items[1], &id) ||
            !mp_get_int(&v->v.items[2], &t) || id < 0 || id > UINT32_MAX)
            return fail(r, TRACE_E_MALFORMED, rec->offset, "bad chunk record");
        data = &v->v.items[3];
        if (data->type != MP_BIN && data->type != MP_STR)
            return fail(r, TRACE_E_MALFORMED, rec->offset,
                        "chunk record without bytes");
        rec->kind = TRACE_CHUNK;
        rec->u.chunk.request_id = (uint32_t)id;
        rec->u.chunk.t_ns = t;
        rec->u.chunk.data = data->v.bytes;
        rec->u.chunk.len = data->n;
        return 1;
    }
    case TRACE_HANDED: {
        int64_t id, k, t0, t1;
        if (v->n < 5 || !mp_get_int(&v->v.items[1], &id) ||
            !mp_get_int(&v->v.items[2], &k) ||
            !mp_get_int(&v->v.items[3], &t0) ||
            !mp_get_int(&v->v.items[4], &t1) || id < 0 || id > UINT32_MAX ||
            k < 0)
            return fail(r, TRACE_E_MALFORMED, rec->offset, "bad handed record");
        rec->kind = TRACE_HANDED;
        rec->u.handed.request_id = (uint32_t)id;
        rec->u.handed.chunk = (uint64_t)k;
        rec->u.handed.recv_ns = t0;
        rec->u.handed.handed_ns = t1;
        return 1;
    }
    case TRACE_HEADER:
    case TRACE_REQUEST:
    case TRACE_RESULT:
    case TRACE_FOOTER:
    case TRACE_STAGE:
    case TRACE_SERVER_METRICS:
        if (!body || body->type != MP_MAP)
            return fail(r, TRACE_E_MALFORMED, rec->offset,
                        "record of kind %d has no field map", (int)kind);
        break;
    default:
        rec->kind = TRACE_UNKNOWN; /* from a newer writer: skip */
        return 1;
    }
    rec->kind = (enum trace_kind)kind;
    if (kind == TRACE_HEADER) {
        const struct mp_value *fmt = mp_map_get(body, "format");
        if (!mp_str_eq(fmt, TRACE_FORMAT_NAME))
            return fail(r, TRACE_E_NOT_TRACE, rec->offset,
                        "header without format \"tokentrace\"");
        read_header(r, body, &rec->u.header);
        if (rec->u.header.format_version > TRACE_FORMAT_VERSION)
            return fail(r, TRACE_E_VERSION, rec->offset,
                        "trace format version %u is newer than this reader "
                        "(%d): upgrade tokentrace",
                        rec->u.header.format_version, TRACE_FORMAT_VERSION);
        if (r->headers++ > 0)
            r->trace_index++;
        rec->trace_index = r->trace_index;
    } else if (kind == TRACE_REQUEST) {
        read_request(r, body, &rec->u.request);
    } else if (kind == TRACE_RESULT) {
        read_result(r, body, &rec->u.result);
    } else if (kind == TRACE_STAGE) {
        read_stage(r, body, &rec->u.stage);
    } else if (kind == TRACE_SERVER_METRICS) {
        read_server_metrics(r, body, &rec->u.server_metrics);
    } else {
        read_footer(r, body, &rec->u.footer);
    }
    return 1;
}

/* Where a header record would start if HEADER_KEY sits at buf[m], or -1:
 * 0x92 (or 0x93) 0x01 and a map prefix must come right before it. */
static int64_t header_start(const struct trace_reader *r, size_t m)
{
    static const size_t prefix[] = {3, 5, 7}; /* fixmap, map16, map32 */
    static const uint8_t marker[] = {0, 0xde, 0xdf};
    for (size_t i = 0; i < 3; i++) {
        const uint8_t *p;
        size_t k = prefix[i];
        if (m < k)
            continue;
        p = r->buf + m - k;
        /* [1, map] (version 1) or [1, map, crc] (version 2) */
        if ((p[0] != 0x92 && p[0] != 0x93) || p[1] != TRACE_HEADER)
            continue;
        if (i == 0 ? (p[2] & 0xf0) == 0x80 : p[2] == marker[i])
            return (int64_t)(m - k);
    }
    return -1;
}

/* The file offset of a header record starting inside buf[from, to) (a
 * record that a cut left unfinished swallowed the next trace of a
 * concatenation), or 0 when there is none. Clean traces never have one:
 * HEADER_KEY's bytes are not UTF-8, and records hold text. */
static uint64_t embedded_header(const struct trace_reader *r, size_t from,
                                size_t to)
{
    const size_t klen = sizeof(HEADER_KEY) - 1;
    while (from + klen <= to) {
        const uint8_t *hit = memchr(r->buf + from, 0xa6, to - from);
        size_t m;
        int64_t start;
        if (!hit)
            break;
        m = (size_t)(hit - r->buf);
        if (m + klen > to)
            break;
        if (memcmp(hit, HEADER_KEY, klen) == 0 &&
            (start = header_start(r, m)) >= 0 && (size_t)start >= from)
            return r->base + (uint64_t)start;
        from = m + 1;
    }
    return 0;
}

/* The common chunk record, [2, id, t_ns, bytes] (a 4-element array whose
 * id fits in uint32 and whose time is an integer), decoded straight from
 * the buffer: no measuring pass, no tree. Returns the record's size when
 * it is wholly in the buffer and has exactly that shape, with rec filled as
 * interpret() would fill it (raw stays NULL); 0 otherwise, having written
 * nothing, and the general path then reads it with its checks and its
 * error messages. */
static size_t read_chunk_fast(const struct trace_reader *r,
                              struct trace_record *rec)
{
    const uint8_t *p = r->buf + r->pos, *data;
    size_t avail = r->fill - r->pos, off = 2, k, n;
    int64_t id, t;
    bool crc = r->version >= 2;
    if (avail < 5 || p[0] != (crc ? 0x95 : 0x94) || p[1] != TRACE_CHUNK)
        return 0;
    k = mp_read_int(p + off, avail - off, &id);
    if (k == 0 || id < 0 || id > UINT32_MAX)
        return 0;
    off += k;
    k = mp_read_int(p + off, avail - off, &t);
    if (k == 0)
        return 0;
    off += k;
    k = mp_read_bytes(p + off, avail - off, &data, &n);
    if (k == 0)
        return 0;
    off += k;
    if (crc) { /* 0xce and the CRC-32C of the bytes before it */
        uint32_t stored;
        if (avail - off < 5 || p[off] != 0xce)
            return 0;
        stored = (uint32_t)p[off + 1] << 24 | (uint32_t)p[off + 2] << 16 |
                 (uint32_t)p[off + 3] << 8 | (uint32_t)p[off + 4];
        if (crc32c(0, p, off) != stored)
            return 0; /* the general path names the damage */
        off += 5;
    }
    rec->kind = TRACE_CHUNK;
    rec->raw_kind = TRACE_CHUNK;
    rec->u.chunk.request_id = (uint32_t)id;
    rec->u.chunk.t_ns = t;
    rec->u.chunk.data = data;
    rec->u.chunk.len = n;
    return off;
}

/* "a chunk of request 7", "a result", "a record of kind 9": what the
 * damaged record v is, for messages. */
static void describe(const struct mp_value *v, char *out, size_t size)
{
    static const char *const names[] = {NULL,      "header", "chunk",
                                        "request", "result", "footer"};
    int64_t kind = -1, id;
    if (v->type == MP_ARRAY && v->n >= 1)
        (void)mp_get_int(&v->v.items[0], &kind);
    if (kind == TRACE_CHUNK && v->n >= 2 && mp_get_int(&v->v.items[1], &id))
        snprintf(out, size, "a chunk of request %lld", (long long)id);
    else if (kind >= 1 && kind <= 5)
        snprintf(out, size, "a %s", names[kind]);
    else
        snprintf(out, size, "a record of kind %lld", (long long)kind);
}

/* True when the record v must end with a checksum: any record of a
 * version 2 trace, and a header of the shape every version 2 writer gives
 * it, [1, map, crc] (a version 1 header is [1, map]), whatever its map
 * says: so a changed "version" is found too. */
static bool wants_checksum(const struct trace_reader *r,
                           const struct mp_value *v)
{
    int64_t kind, version;
    if (v->type == MP_ARRAY && v->n >= 2 && mp_get_int(&v->v.items[0], &kind) &&
        kind == TRACE_HEADER && v->v.items[1].type == MP_MAP) {
        if (v->n >= 3)
            return true;
        /* [1, map] claiming version 2 lacks its checksum: damage (a
         * version from the future is refused as such by interpret) */
        return mp_get_int(mp_map_get(&v->v.items[1], "version"), &version) &&
               version >= 2 && version <= TRACE_FORMAT_VERSION;
    }
    return r->version >= 2;
}

/* Checks a version 2 record's checksum (its last element: 0xce and 4
 * bytes) against its bytes at p, size bytes, and drops that element from
 * the tree. Returns 0 or -TRACE_E_CHECKSUM (fail called). */
static int verify_checksum(struct trace_reader *r, struct trace_record *rec,
                           struct mp_value *v, const uint8_t *p, size_t size)
{
    char what[64];
    uint32_t stored, computed;
    describe(v, what, sizeof(what));
    if (v->type != MP_ARRAY || v->n < 2 || size < 6 || p[size - 5] != 0xce ||
        v->v.items[v->n - 1].type != MP_UINT)
        return fail(r, TRACE_E_CHECKSUM, rec->offset,
                    "record %llu (%s) has no checksum, which every record of "
                    "a version 2 trace ends with: damage",
                    (unsigned long long)r->records + 1, what);
    stored = (uint32_t)p[size - 4] << 24 | (uint32_t)p[size - 3] << 16 |
             (uint32_t)p[size - 2] << 8 | (uint32_t)p[size - 1];
    computed = crc32c(0, p, size - 5);
    if (stored != computed)
        return fail(r, TRACE_E_CHECKSUM, rec->offset,
                    "record %llu (%s): checksum mismatch: its bytes changed "
                    "after it was written (stored %08x, computed %08x)",
                    (unsigned long long)r->records + 1, what, stored, computed);
    v->n--;
    r->verified++;
    return 0;
}

/* Fails with the error of fill_more's err. */
static int fail_fill(struct trace_reader *r, int err)
{
    if (err == TRACE_E_MALFORMED)
        return fail(r, err, r->base + r->fill, "%s", trace_input_error(r->in));
    return fail(r, err, r->base + r->fill, "%s: %s", trace_strerror(err),
                strerror(errno));
}

/* A zstd frame where a record should start (a plain trace, then a
 * compressed one): its bytes go back to the input to be decompressed.
 * Returns 1 when they did, 0 when no frame starts here, or -err. */
static int frame_here(struct trace_reader *r)
{
    for (;;) {
        size_t avail = r->fill - r->pos;
        int err;
        if (avail == 0 && !r->eof) {
            /* the last read ended exactly at a record's end (a pipe from
             * `cat plain zst` delivers each file apart): look at the next
             * bytes before they are parsed as a record */
            if ((err = fill_more(r)) != TRACE_OK)
                return fail_fill(r, err);
            continue;
        }
        if (avail == 0 || r->buf[r->pos] != TRACE_ZSTD_MAGIC[0])
            return 0;
        if (avail >= 4)
            break;
        if (r->eof) {
            if (memcmp(r->buf + r->pos, TRACE_ZSTD_MAGIC, avail) != 0)
                return 0;
            return fail(r, TRACE_E_TRUNCATED, r->base + r->pos,
                        "the file ends inside the magic of a zstd frame "
                        "(the tail was cut)");
        }
        if ((err = fill_more(r)) != TRACE_OK)
            return fail_fill(r, err);
    }
    if (memcmp(r->buf + r->pos, TRACE_ZSTD_MAGIC, 4) != 0 ||
        !trace_input_unread(r->in, r->buf + r->pos, r->fill - r->pos))
        return 0;
    r->fill = r->pos;
    r->eof = false;
    return 1;
}

/* " inside the zstd frame at file byte N" when the input ended in one. */
static const char *cut_frame(const struct trace_reader *r, char *out,
                             size_t size)
{
    out[0] = '\0';
    if (trace_input_cut(r->in))
        snprintf(out, size, " inside the zstd frame at file byte %llu",
                 (unsigned long long)trace_input_frame_offset(r->in));
    return out;
}

int trace_reader_next(struct trace_reader *r, struct trace_record *rec)
{
    char where[80];
    struct mp_value *v;
    size_t used = 0, want = 1;
    uint64_t inner;
    int st, err;

    if (r->error[0])
        return -TRACE_E_MALFORMED;
    memset(rec, 0, sizeof(*rec));
    mp_arena_reset(&r->arena);
    scratch_reset(r);
    if ((st = frame_here(r)) < 0)
        return st;
    if (r->fast_chunks && r->seen_header &&
        (used = read_chunk_fast(r, rec)) > 0 &&
        !embedded_header(r, r->pos + 1, r->pos + used)) {
        rec->offset = r->base + r->pos;
        rec->size = used;
        rec->trace_index = r->trace_index;
        r->pos += used;
        r->prev_off = rec->offset;
        r->prev_size = used;
        r->records++;
        r->verified += r->version >= 2;
        return 1;
    }
    for (;;) {
        uint64_t here = r->base + r->pos;
        size_t avail = r->fill - r->pos;
        bool measure;
        if (avail == 0 && r->eof) {
            if (trace_input_cut(r->in))
                return fail(r, TRACE_E_TRUNCATED, here,
                            "the file ends%s (the tail was cut)",
                            cut_frame(r, where, sizeof(where)));
            return 0;
        }
        /* Measuring is linear in the bytes so far, so a record arriving in
         * small reads (a pipe gives 64 KiB) is measured again only once
         * twice as many bytes, or as many as it claims, are in: reading it
         * stays linear instead of quadratic. */
        measure = avail > 0 && (avail >= want || r->eof);
        st = measure ? mp_skip(r->buf + r->pos, avail, &used) : MP_MORE;
        if (st == MP_OK)
            break;
        if (st == MP_BAD)
            return fail(r, TRACE_E_MALFORMED, here, "not a msgpack record");
        if (measure && used > TRACE_MAX_RECORD)
            return fail(r, TRACE_E_TOO_LARGE, here,
                        "record claims at least %zu bytes (limit %zu)", used,
                        TRACE_MAX_RECORD);
        if (measure) {
            want = used > 2 * avail ? used : 2 * avail;
            if (want > TRACE_MAX_RECORD + 1)
                want = TRACE_MAX_RECORD + 1;
        }
        if (r->eof)
            return fail(r, TRACE_E_TRUNCATED, here,
                        "record truncated: the file ends%s %zu bytes into it "
                        "(the tail was cut)",
                        cut_frame(r, where, sizeof(where)), r->fill - r->pos);
        if (r->fill - r->pos > TRACE_MAX_RECORD)
            return fail(r, TRACE_E_TOO_LARGE, here,
                        "record larger than %zu bytes", TRACE_MAX_RECORD);
        err = fill_more(r);
        if (err)
            return fail_fill(r, err);
    }
    rec->offset = r->base + r->pos;
    rec->size = used;
    if ((inner = embedded_header(r, r->pos + 1, r->pos + used)) != 0)
        return fail(r, TRACE_E_MALFORMED, rec->offset,
                    "record cut short: the next trace's header starts "
                    "inside it, at byte %llu",
                    (unsigned long long)inner);
    st = mp_decode(r->buf + r->pos, r->fill - r->pos, &r->arena, &v, &used);
    if (st != MP_OK)
        return fail(r, st == MP_NOMEM ? TRACE_E_TOO_LARGE : TRACE_E_MALFORMED,
                    rec->offset, "record has too many elements");
    if (wants_checksum(r, v) &&
        (st = verify_checksum(r, rec, v, r->buf + r->pos, used)) < 0)
        return st;
    r->pos += used;
    rec->raw = v;
    rec->trace_index = r->trace_index;
    st = interpret(r, v, rec);
    if (st < 0)
        return st;
    if (!r->seen_header && rec->kind != TRACE_HEADER)
        return fail(r, TRACE_E_NOT_TRACE, rec->offset,
                    "the first record is not a tokentrace header");
    if (rec->kind == TRACE_HEADER)
        r->version = rec->u.header.format_version;
    r->seen_header = true;
    r->prev_off = rec->offset;
    r->prev_size = rec->size;
    r->records++;
    return 1;
}

uint64_t trace_reader_verified(const struct trace_reader *r)
{
    return r->verified;
}

void trace_reader_want_sha256(struct trace_reader *r)
{
    trace_input_want_sha256(r->in);
}

int trace_reader_sha256(struct trace_reader *r, char hex[65])
{
    return trace_input_sha256(r->in, hex) == 0 ? TRACE_OK : TRACE_E_IO;
}

int trace_reader_resync(struct trace_reader *r)
{
    const size_t klen = sizeof(HEADER_KEY) - 1, keep = klen + 7;
    uint64_t at, damage = r->error_offset;
    r->note[0] = '\0';
    if (!r->error[0] || r->error_code == TRACE_E_IO ||
        r->error_code == TRACE_E_NOMEM)
        return 0;
    /* From just after the record before the damage when it is still in the
     * window (a cut record may have swallowed the next header), else from
     * just after the damaged record's start. */
    at = damage + 1;
    if (r->prev_size && r->prev_off >= r->base && r->prev_off < damage)
        at = r->prev_off + 1;
    if (at < r->base)
        at = r->base;
    r->prev_size = 0; /* nothing to keep from here on */
    for (;;) {
        size_t i = (size_t)(at - r->base);
        while (i + klen <= r->fill) {
            const uint8_t *hit = memchr(r->buf + i, 0xa6, r->fill - i);
            int64_t start;
            if (!hit || (size_t)(hit - r->buf) + klen > r->fill)
                break;
            if (memcmp(hit, HEADER_KEY, klen) != 0) {
                i = (size_t)(hit - r->buf) + 1;
                continue;
            }
            start = header_start(r, (size_t)(hit - r->buf));
            if (start >= 0 && r->base + (uint64_t)start >= at) {
                uint64_t found = r->base + (uint64_t)start;
                r->pos = (size_t)start;
                if (found > damage)
                    snprintf(r->note, sizeof(r->note),
                             "%s: bytes %llu to %llu (%llu bytes) skipped: "
                             "reading on from the next trace header, at "
                             "byte %llu",
                             r->name, (unsigned long long)damage,
                             (unsigned long long)found,
                             (unsigned long long)(found - damage),
                             (unsigned long long)found);
                else
                    snprintf(r->note, sizeof(r->note),
                             "%s: the next trace header starts at byte %llu, "
                             "inside the record before the damage (byte "
                             "%llu): that record was cut short; reading on "
                             "from the header",
                             r->name, (unsigned long long)found,
                             (unsigned long long)damage);
                r->error[0] = '\0';
                r->error_code = 0;
                return 1;
            }
            i = (size_t)(hit - r->buf) + 1;
        }
        if (r->eof) {
            r->pos = r->fill;
            return 0;
        }
        /* Drop what was searched, keeping a tail a match may start in. */
        r->pos = r->fill > keep ? r->fill - keep : 0;
        if (r->base + r->pos < at)
            r->pos = (size_t)(at - r->base);
        if (r->pos > r->fill) /* at is past what is held (a frame's bytes
                                 went back to the input) */
            r->pos = r->fill;
        at = r->base + r->pos;
        if (fill_more(r) != TRACE_OK) {
            r->pos = r->fill;
            return 0;
        }
    }
}

const char *trace_reader_resync_note(const struct trace_reader *r)
{
    return r->note;
}
