/* trace_reader_records: the decoders per record kind, from a decoded tree
 * to struct trace_record (missing keys get their documented defaults), and
 * the scratch their strings and arrays live in: a bump allocator whose
 * blocks never move and are reset per record. */
#include "trace_reader_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SCRATCH_BLOCK ((size_t)64 << 10)

/* Returns size bytes (8-aligned) that stay put until the next reset, or
 * NULL when out of memory. */
static void *trace_reader_scratch_alloc(struct trace_reader *r, size_t size)
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

/* Frees every block (trace_reader_internal.h). */
void trace_reader_scratch_free(struct trace_reader *r)
{
    while (r->scratch) {
        struct scratch_block *n = r->scratch->next;
        free(r->scratch);
        r->scratch = n;
    }
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
        s = trace_reader_scratch_alloc(r, (size_t)v->n * 3 + 1);
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
    s = trace_reader_scratch_alloc(r, (size_t)v->n + 1);
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
    kv = trace_reader_scratch_alloc(r, sizeof(*kv) * v->n);
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
        const char **list =
            trace_reader_scratch_alloc(r, sizeof(*list) * models->n);
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
    q->received_ns = map_int(m, "received_ns", -1);
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
    q->body_bytes = map_int(m, "body_bytes", -1);
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
    s->headers_ns = map_int(m, "headers_ns", 0);
    s->headers_rx_ns = map_int(m, "headers_rx_ns", 0);
    s->tcp_rtt_ns = map_int(m, "tcp_rtt_ns", 0);
    s->tcp_rttvar_ns = map_int(m, "tcp_rttvar_ns", 0);
    if (mp_map_get(m, "conn_reused"))
        s->conn =
            map_bool(m, "conn_reused") ? TRACE_CONN_REUSED : TRACE_CONN_NEW;
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
    f->recording_stopped = map_str(r, m, "recording_stopped");
    f->unrecorded = (uint64_t)map_int(m, "unrecorded", 0);
    f->receive_lag_p50_ns = map_int(m, "receive_lag_p50_ns", -1);
    f->receive_lag_p99_ns = map_int(m, "receive_lag_p99_ns", -1);
    f->receive_lag_max_ns = map_int(m, "receive_lag_max_ns", -1);
    f->keep_awake_end = map_str(r, m, "keep_awake_end");
    f->keep_awake_changes = (uint64_t)map_int(m, "keep_awake_changes", 0);
    f->keep_awake_log = map_str(r, m, "keep_awake_log");
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

int trace_reader_interpret(struct trace_reader *r, const struct mp_value *v,
                           struct trace_record *rec)
{
    const struct mp_value *body;
    int64_t kind;
    if (v->type != MP_ARRAY || v->n < 1 || !mp_get_int(&v->v.items[0], &kind))
        return trace_reader_fail(
            r, TRACE_E_MALFORMED, rec->offset,
            "record is not an array starting with its kind");
    rec->raw_kind = kind < 0 || kind > 255 ? -1 : (int)kind;
    body = v->n >= 2 ? &v->v.items[1] : NULL;
    switch (kind) {
    case TRACE_CHUNK: {
        const struct mp_value *data;
        int64_t id, t;
        if (v->n < 4 || !mp_get_int(&v->v.items[1], &id) ||
            !mp_get_int(&v->v.items[2], &t) || id < 0 || id > UINT32_MAX)
            return trace_reader_fail(r, TRACE_E_MALFORMED, rec->offset,
                                     "bad chunk record");
        data = &v->v.items[3];
        if (data->type != MP_BIN && data->type != MP_STR)
            return trace_reader_fail(r, TRACE_E_MALFORMED, rec->offset,
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
            return trace_reader_fail(r, TRACE_E_MALFORMED, rec->offset,
                                     "bad handed record");
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
            return trace_reader_fail(r, TRACE_E_MALFORMED, rec->offset,
                                     "record of kind %d has no field map",
                                     (int)kind);
        break;
    default:
        rec->kind = TRACE_UNKNOWN; /* from a newer writer: skip */
        return 1;
    }
    rec->kind = (enum trace_kind)kind;
    if (kind == TRACE_HEADER) {
        const struct mp_value *fmt = mp_map_get(body, "format");
        if (!mp_str_eq(fmt, TRACE_FORMAT_NAME))
            return trace_reader_fail(r, TRACE_E_NOT_TRACE, rec->offset,
                                     "header without format \"tokentrace\"");
        read_header(r, body, &rec->u.header);
        if (rec->u.header.format_version > TRACE_FORMAT_VERSION)
            return trace_reader_fail(
                r, TRACE_E_VERSION, rec->offset,
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
