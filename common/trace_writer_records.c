/* trace_writer_records: encodes each kind of tokentrace record
 * (docs/trace-format.md) into the writer's buffer through msgpack-c's
 * packer (the chunk record by hand: it runs once per received chunk),
 * whole records only, each with its checksum in version 2. */
#include "trace.h"

#include <msgpack.h>
#include <string.h>

#include "crc32c.h"
#include "mp.h"
#include "trace_writer_internal.h"

static void pack_str(msgpack_packer *pk, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s ? s : "", n);
}

static void pack_key(msgpack_packer *pk, const char *k)
{
    pack_str(pk, k);
}

static void pack_kv_str(msgpack_packer *pk, const char *k, const char *v)
{
    pack_key(pk, k);
    if (v)
        pack_str(pk, v);
    else
        msgpack_pack_nil(pk);
}

static void pack_kv_int(msgpack_packer *pk, const char *k, int64_t v)
{
    pack_key(pk, k);
    msgpack_pack_int64(pk, v);
}

static void pack_kv_uint(msgpack_packer *pk, const char *k, uint64_t v)
{
    pack_key(pk, k);
    msgpack_pack_uint64(pk, v);
}

static void pack_kv_bool(msgpack_packer *pk, const char *k, bool v)
{
    pack_key(pk, k);
    if (v)
        msgpack_pack_true(pk);
    else
        msgpack_pack_false(pk);
}

static void pack_kv_map(msgpack_packer *pk, const char *k,
                        const struct trace_kv *kv, size_t n)
{
    pack_key(pk, k);
    msgpack_pack_map(pk, n);
    for (size_t i = 0; i < n; i++) {
        pack_str(pk, kv[i].key);
        pack_str(pk, kv[i].value);
    }
}

/* Starts a record: [kind, ...] with `fields` elements after the kind (and,
 * in version 2, room for the checksum end_record appends). */
static void begin_record(struct trace_writer *w, enum trace_kind kind,
                         size_t fields)
{
    msgpack_pack_array(&w->pk, 1 + fields + (w->version >= 2));
    msgpack_pack_uint8(&w->pk, (uint8_t)kind);
}

/* Version 2: the record's last element, a uint32 always written as 0xce
 * and 4 bytes big-endian: the CRC-32C of the record's bytes before it. */
static void append_checksum(struct trace_writer *w, size_t start_len)
{
    uint32_t crc = crc32c(0, w->out.data + start_len, w->out.len - start_len);
    uint8_t b[5] = {0xce, (uint8_t)(crc >> 24), (uint8_t)(crc >> 16),
                    (uint8_t)(crc >> 8), (uint8_t)crc};
    if (buf_append(&w->out, b, sizeof(b)) != BUF_OK && !w->error)
        w->error = TRACE_E_NOMEM;
}

static int end_record(struct trace_writer *w, size_t start_len)
{
    if (!w->error && w->version >= 2)
        append_checksum(w, start_len);
    if (w->error) {
        /* Keep the buffer to whole records: drop the partial one. */
        if (w->out.len > start_len)
            w->out.len = start_len;
        return w->error;
    }
    if (w->out.len >= WRITER_AUTO_FLUSH)
        return trace_writer_flush(w);
    return TRACE_OK;
}

int trace_write_header(struct trace_writer *w, const struct trace_header *h)
{
    size_t start = w->out.len;
    msgpack_packer *pk = &w->pk;
    if (w->error)
        return w->error;
    begin_record(w, TRACE_HEADER, 1);
    msgpack_pack_map(pk, 16);
    pack_kv_str(pk, "format", TRACE_FORMAT_NAME);
    pack_kv_uint(pk, "version", w->version);
    pack_kv_str(pk, "tool_version", h->tool_version);
    pack_kv_str(pk, "trace_id", h->trace_id);
    pack_kv_str(pk, "host", h->host);
    pack_kv_str(pk, "command_line", h->command_line);
    pack_kv_str(pk, "endpoint", h->endpoint);
    pack_kv_str(pk, "url", h->url);
    pack_kv_str(pk, "api", h->api);
    pack_key(pk, "models");
    msgpack_pack_array(pk, h->n_models);
    for (size_t i = 0; i < h->n_models; i++)
        pack_str(pk, h->models[i]);
    pack_kv_map(pk, "labels", h->labels, h->n_labels);
    pack_kv_str(pk, "workload", h->workload);
    pack_kv_map(pk, "options", h->options, h->n_options);
    pack_kv_int(pk, "mono_zero_ns", h->mono_zero_ns);
    pack_kv_int(pk, "real_zero_ns", h->real_zero_ns);
    pack_kv_str(pk, "clock", "CLOCK_MONOTONIC");
    return end_record(w, start);
}

int trace_write_request(struct trace_writer *w, const struct trace_request *r)
{
    size_t start = w->out.len;
    msgpack_packer *pk = &w->pk;
    if (w->error)
        return w->error;
    bool retry = r->attempt > 1;
    bool released = r->cap_released_ns > 0;
    begin_record(w, TRACE_REQUEST, 1);
    msgpack_pack_map(pk, (retry ? 13 : 11) + (r->stage ? 1 : 0) +
                             (released ? 1 : 0) + (r->session ? 2 : 0) +
                             (r->session && r->think_ns > 0 ? 1 : 0) +
                             (r->api ? 1 : 0) + (r->compaction ? 1 : 0) +
                             (r->asked_input_tokens > 0 ? 1 : 0) +
                             (r->asked_output_tokens > 0 ? 1 : 0) +
                             (r->received_ns > 0 ? 1 : 0) +
                             (!r->body && r->body_bytes > 0 ? 1 : 0));
    pack_kv_uint(pk, "id", r->id);
    pack_kv_str(pk, "model", r->model);
    pack_kv_str(pk, "class", r->class_name);
    pack_kv_int(pk, "prompt_index", r->prompt_index);
    pack_kv_int(pk, "input_tokens_est", r->input_tokens_est);
    pack_kv_int(pk, "max_tokens", r->max_tokens);
    pack_kv_bool(pk, "warmup", r->warmup);
    pack_kv_int(pk, "scheduled_ns", r->scheduled_ns);
    pack_kv_int(pk, "start_ns", r->start_ns);
    pack_kv_str(pk, "request_id", r->request_id);
    pack_key(pk, "body");
    if (r->body) {
        msgpack_pack_str(pk, r->body_len);
        msgpack_pack_str_body(pk, r->body, r->body_len);
    } else {
        msgpack_pack_nil(pk);
    }
    if (retry) {
        pack_kv_uint(pk, "attempt", r->attempt);
        pack_kv_uint(pk, "retry_of", r->retry_of);
    }
    if (r->stage)
        pack_kv_uint(pk, "stage", r->stage);
    if (released)
        pack_kv_int(pk, "cap_released_ns", r->cap_released_ns);
    if (r->session) {
        pack_kv_uint(pk, "session", r->session);
        pack_kv_uint(pk, "turn", r->turn);
        if (r->think_ns > 0)
            pack_kv_int(pk, "think_ns", r->think_ns);
    }
    if (r->api)
        pack_kv_str(pk, "api", r->api);
    if (r->compaction)
        pack_kv_str(pk, "compaction", r->compaction);
    if (r->asked_input_tokens > 0)
        pack_kv_int(pk, "asked_input_tokens", r->asked_input_tokens);
    if (r->asked_output_tokens > 0)
        pack_kv_int(pk, "asked_output_tokens", r->asked_output_tokens);
    if (r->received_ns > 0)
        pack_kv_int(pk, "received_ns", r->received_ns);
    if (!r->body && r->body_bytes > 0)
        pack_kv_int(pk, "body_bytes", r->body_bytes);
    return end_record(w, start);
}

/* Writes msgpack's shortest encoding of the unsigned v at p (the bytes
 * msgpack_pack_uint64 would write); returns their count. */
static size_t put_uint(uint8_t *p, uint64_t v)
{
    size_t n, i;

    if (v < 128) {
        p[0] = (uint8_t)v;
        return 1;
    }
    if (v < 256) {
        p[0] = 0xcc;
        n = 1;
    } else if (v < 65536) {
        p[0] = 0xcd;
        n = 2;
    } else if (v < ((uint64_t)1 << 32)) {
        p[0] = 0xce;
        n = 4;
    } else {
        p[0] = 0xcf;
        n = 8;
    }
    for (i = 0; i < n; i++) /* big-endian */
        p[n - i] = (uint8_t)(v >> (8 * i));
    return 1 + n;
}

/* Writes msgpack's shortest encoding of v at p (the bytes
 * msgpack_pack_int64 would write); returns their count. */
static size_t put_int(uint8_t *p, int64_t v)
{
    uint64_t u = (uint64_t)v;
    size_t n, i;

    if (v >= -32)
        return v >= 0 ? put_uint(p, u) : (p[0] = (uint8_t)u, 1);
    if (v >= -128) {
        p[0] = 0xd0;
        n = 1;
    } else if (v >= -32768) {
        p[0] = 0xd1;
        n = 2;
    } else if (v >= INT32_MIN) {
        p[0] = 0xd2;
        n = 4;
    } else {
        p[0] = 0xd3;
        n = 8;
    }
    for (i = 0; i < n; i++) /* two's complement, big-endian */
        p[n - i] = (uint8_t)(u >> (8 * i));
    return 1 + n;
}

/* Writes the bin header for len payload bytes at p; returns its size. */
static size_t put_bin_header(uint8_t *p, size_t len)
{
    size_t n, i;

    if (len < 256) {
        p[0] = 0xc4;
        n = 1;
    } else if (len < 65536) {
        p[0] = 0xc5;
        n = 2;
    } else {
        p[0] = 0xc6;
        n = 4;
    }
    for (i = 0; i < n; i++)
        p[n - i] = (uint8_t)(len >> (8 * i));
    return 1 + n;
}

int trace_write_chunk(struct trace_writer *w, uint32_t request_id, int64_t t_ns,
                      const void *data, size_t len)
{
    /* [2, id, t, bin]: 1 + 1 + <=5 + <=9 + <=5 bytes before the payload,
     * written directly (the same bytes as msgpack-c's packer, without its
     * generic calls: this runs once per received chunk) */
    uint8_t head[21];
    size_t start = w->out.len, n = 0;
    char *p;

    if (w->error)
        return w->error;
    head[n++] = w->version >= 2 ? 0x95 : 0x94; /* fixarray of 4 (+ crc) */
    head[n++] = (uint8_t)TRACE_CHUNK;
    n += put_uint(head + n, request_id);
    n += put_int(head + n, t_ns);
    n += put_bin_header(head + n, len);
    /* the buffer's 512 MiB cap keeps len within bin 32 */
    if (buf_extend(&w->out, n + len, &p) != BUF_OK) {
        w->error = TRACE_E_NOMEM;
        return w->error;
    }
    memcpy(p, head, n);
    if (len)
        memcpy(p + n, data, len);
    return end_record(w, start);
}

int trace_write_result(struct trace_writer *w, const struct trace_result *r)
{
    size_t start = w->out.len;
    msgpack_packer *pk = &w->pk;
    const struct trace_phases *ph = &r->phases;
    if (w->error)
        return w->error;
    begin_record(w, TRACE_RESULT, 1);
    msgpack_pack_map(pk, 12 + (r->retry_of ? 1 : 0) + (r->will_retry ? 1 : 0) +
                             (r->headers_ns > 0) + (r->headers_rx_ns > 0) +
                             2 * (r->tcp_rtt_ns > 0) +
                             (r->conn != TRACE_CONN_UNKNOWN));
    pack_kv_uint(pk, "id", r->id);
    pack_kv_int(pk, "end_ns", r->end_ns);
    pack_kv_int(pk, "http_status", r->http_status);
    pack_kv_str(pk, "error_kind",
                r->error_kind && r->error_kind[0] ? r->error_kind : NULL);
    pack_kv_str(pk, "error_message", r->error_message);
    pack_kv_map(pk, "headers", r->headers, r->n_headers);
    pack_key(pk, "phases");
    msgpack_pack_map(pk, 7);
    pack_kv_int(pk, "namelookup_ns", ph->namelookup_ns);
    pack_kv_int(pk, "connect_ns", ph->connect_ns);
    pack_kv_int(pk, "tls_ns", ph->tls_ns);
    pack_kv_int(pk, "pretransfer_ns", ph->pretransfer_ns);
    pack_kv_int(pk, "posttransfer_ns", ph->posttransfer_ns);
    pack_kv_int(pk, "starttransfer_ns", ph->starttransfer_ns);
    pack_kv_int(pk, "total_ns", ph->total_ns);
    pack_kv_uint(pk, "bytes", r->bytes);
    pack_kv_uint(pk, "chunks", r->chunks);
    pack_kv_int(pk, "first_byte_ns", r->first_byte_ns);
    pack_kv_uint(pk, "attempt", r->attempt ? r->attempt : 1);
    pack_kv_str(pk, "content_type", trace_result_header(r, "content-type"));
    if (r->retry_of)
        pack_kv_uint(pk, "retry_of", r->retry_of);
    if (r->will_retry)
        pack_kv_int(pk, "retry_wait_ms",
                    r->retry_wait_ms > 0 ? r->retry_wait_ms : 0);
    if (r->headers_ns > 0)
        pack_kv_int(pk, "headers_ns", r->headers_ns);
    if (r->headers_rx_ns > 0)
        pack_kv_int(pk, "headers_rx_ns", r->headers_rx_ns);
    if (r->tcp_rtt_ns > 0) {
        pack_kv_int(pk, "tcp_rtt_ns", r->tcp_rtt_ns);
        pack_kv_int(pk, "tcp_rttvar_ns", r->tcp_rttvar_ns);
    }
    if (r->conn != TRACE_CONN_UNKNOWN)
        pack_kv_bool(pk, "conn_reused", r->conn == TRACE_CONN_REUSED);
    return end_record(w, start);
}

int trace_write_footer(struct trace_writer *w, const struct trace_footer *f)
{
    size_t start = w->out.len;
    msgpack_packer *pk = &w->pk;
    if (w->error)
        return w->error;
    begin_record(w, TRACE_FOOTER, 1);
    msgpack_pack_map(
        pk, (f->loop_lag_samples ? 12 : 8) + (f->retried ? 1 : 0) +
                (f->wake_probe_samples ? 4 : 0) +
                (f->receive_lag_samples ? 4 : 0) + (f->keep_awake_log ? 3 : 0) +
                (f->recording_stopped ? 2 : 0) + (f->n_proxy_limits ? 1 : 0));
    pack_kv_int(pk, "end_ns", f->end_ns);
    pack_kv_uint(pk, "requests", f->requests);
    pack_kv_uint(pk, "ok", f->ok);
    pack_kv_uint(pk, "failed", f->failed);
    pack_kv_uint(pk, "chunks", f->chunks);
    pack_kv_uint(pk, "bytes", f->bytes);
    pack_kv_bool(pk, "interrupted", f->interrupted);
    pack_kv_str(pk, "reason", f->reason);
    if (f->retried)
        pack_kv_uint(pk, "retried", f->retried);
    if (f->loop_lag_samples) {
        pack_kv_uint(pk, "loop_lag_samples", f->loop_lag_samples);
        pack_kv_int(pk, "loop_lag_p50_ns", f->loop_lag_p50_ns);
        pack_kv_int(pk, "loop_lag_p99_ns", f->loop_lag_p99_ns);
        pack_kv_int(pk, "loop_lag_max_ns", f->loop_lag_max_ns);
    }
    if (f->wake_probe_samples) {
        pack_kv_uint(pk, "wake_probe_samples", f->wake_probe_samples);
        pack_kv_int(pk, "wake_probe_p50_ns", f->wake_probe_p50_ns);
        pack_kv_int(pk, "wake_probe_p99_ns", f->wake_probe_p99_ns);
        pack_kv_int(pk, "wake_probe_max_ns", f->wake_probe_max_ns);
    }
    if (f->receive_lag_samples) {
        pack_kv_uint(pk, "receive_lag_samples", f->receive_lag_samples);
        pack_kv_int(pk, "receive_lag_p50_ns", f->receive_lag_p50_ns);
        pack_kv_int(pk, "receive_lag_p99_ns", f->receive_lag_p99_ns);
        pack_kv_int(pk, "receive_lag_max_ns", f->receive_lag_max_ns);
    }
    if (f->keep_awake_log) {
        pack_kv_str(pk, "keep_awake_end",
                    f->keep_awake_end ? f->keep_awake_end : "?");
        pack_kv_uint(pk, "keep_awake_changes", f->keep_awake_changes);
        pack_kv_str(pk, "keep_awake_log", f->keep_awake_log);
    }
    if (f->recording_stopped) {
        pack_kv_str(pk, "recording_stopped", f->recording_stopped);
        pack_kv_uint(pk, "unrecorded", f->unrecorded);
    }
    if (f->n_proxy_limits) {
        pack_str(pk, "proxy_limits");
        msgpack_pack_map(pk, f->n_proxy_limits);
        for (size_t i = 0; i < f->n_proxy_limits; i++)
            pack_kv_uint(pk, f->proxy_limits[i].key, f->proxy_limits[i].n);
    }
    return end_record(w, start);
}

/* Packs one decoded value and everything below it (depth is bounded by
 * the decoder's MP_MAX_DEPTH). */
static void pack_tree(msgpack_packer *pk, const struct mp_value *v)
{
    switch (v->type) {
    case MP_NIL:
        msgpack_pack_nil(pk);
        break;
    case MP_BOOL:
        if (v->v.b)
            msgpack_pack_true(pk);
        else
            msgpack_pack_false(pk);
        break;
    case MP_UINT:
        msgpack_pack_uint64(pk, v->v.u);
        break;
    case MP_INT:
        msgpack_pack_int64(pk, v->v.i);
        break;
    case MP_FLOAT:
        msgpack_pack_double(pk, v->v.f);
        break;
    case MP_STR:
        msgpack_pack_str(pk, v->n);
        msgpack_pack_str_body(pk, v->v.bytes, v->n);
        break;
    case MP_BIN:
        msgpack_pack_bin(pk, v->n);
        msgpack_pack_bin_body(pk, v->v.bytes, v->n);
        break;
    case MP_ARRAY:
        msgpack_pack_array(pk, v->n);
        for (uint32_t i = 0; i < v->n; i++)
            pack_tree(pk, &v->v.items[i]);
        break;
    case MP_MAP:
        msgpack_pack_map(pk, v->n);
        for (uint32_t i = 0; i < 2 * v->n; i++)
            pack_tree(pk, &v->v.items[i]);
        break;
    case MP_EXT:
        msgpack_pack_ext(pk, v->n, v->ext_type);
        msgpack_pack_ext_body(pk, v->v.bytes, v->n);
        break;
    }
}

int trace_write_tree(struct trace_writer *w, const struct mp_value *v)
{
    size_t start = w->out.len;
    if (w->error)
        return w->error;
    if (v->type != MP_ARRAY || v->n < 1)
        return TRACE_E_MALFORMED;
    msgpack_pack_array(&w->pk, v->n + (w->version >= 2));
    for (uint32_t i = 0; i < v->n; i++)
        pack_tree(&w->pk, &v->v.items[i]);
    return end_record(w, start);
}

int trace_write_stage(struct trace_writer *w, const struct trace_stage *s)
{
    size_t start = w->out.len;
    msgpack_packer *pk = &w->pk;
    if (w->error)
        return w->error;
    begin_record(w, TRACE_STAGE, 1);
    msgpack_pack_map(pk, 7 + (s->loop_lag_samples ? 4 : 0) + (s->ramp_ns > 0) +
                             (s->search ? 3 : 0));
    pack_kv_uint(pk, "id", s->id);
    pack_kv_str(pk, "mode", s->mode);
    pack_key(pk, "load");
    msgpack_pack_double(pk, s->load);
    pack_kv_int(pk, "start_ns", s->start_ns);
    pack_kv_int(pk, "end_ns", s->end_ns);
    pack_kv_uint(pk, "sent", s->sent);
    pack_kv_int(pk, "cpu_ns", s->cpu_ns);
    if (s->ramp_ns > 0)
        pack_kv_int(pk, "ramp_ns", s->ramp_ns);
    if (s->search) {
        pack_kv_str(pk, "search", s->search);
        pack_kv_uint(pk, "search_met", s->search_met);
        pack_kv_uint(pk, "search_judged", s->search_judged);
    }
    if (s->loop_lag_samples) {
        pack_kv_uint(pk, "loop_lag_samples", s->loop_lag_samples);
        pack_kv_int(pk, "loop_lag_p50_ns", s->loop_lag_p50_ns);
        pack_kv_int(pk, "loop_lag_p99_ns", s->loop_lag_p99_ns);
        pack_kv_int(pk, "loop_lag_max_ns", s->loop_lag_max_ns);
    }
    return end_record(w, start);
}

int trace_write_server_metrics(struct trace_writer *w,
                               const struct trace_server_metrics *m)
{
    size_t start = w->out.len;
    msgpack_packer *pk = &w->pk;
    bool failed = m->error_kind && m->error_kind[0];
    if (w->error)
        return w->error;
    begin_record(w, TRACE_SERVER_METRICS, 1);
    msgpack_pack_map(pk, 7 + (failed ? 2 : 0) + (m->lines_dropped > 0) +
                             (m->truncated ? 1 : 0));
    pack_kv_str(pk, "url", m->url);
    pack_kv_str(pk, "when", m->when);
    pack_kv_int(pk, "start_ns", m->start_ns);
    pack_kv_int(pk, "end_ns", m->end_ns);
    pack_kv_int(pk, "http_status", m->http_status);
    pack_kv_uint(pk, "bytes", m->bytes);
    /* bin: what a server sends need not be UTF-8 */
    pack_key(pk, "text");
    msgpack_pack_bin(pk, m->text_len);
    msgpack_pack_bin_body(pk, m->text ? m->text : "", m->text_len);
    if (failed) {
        pack_kv_str(pk, "error_kind", m->error_kind);
        pack_kv_str(pk, "error_message", m->error_message);
    }
    if (m->lines_dropped > 0)
        pack_kv_uint(pk, "lines_dropped", m->lines_dropped);
    if (m->truncated)
        pack_kv_bool(pk, "truncated", true);
    return end_record(w, start);
}

int trace_write_handed(struct trace_writer *w, const struct trace_handed *h)
{
    /* [8, id, chunk, recv_ns, handed_ns]: one per chunk a proxy forwards */
    size_t start = w->out.len;
    msgpack_packer *pk = &w->pk;
    if (w->error)
        return w->error;
    begin_record(w, TRACE_HANDED, 4);
    msgpack_pack_uint32(pk, h->request_id);
    msgpack_pack_uint64(pk, h->chunk);
    msgpack_pack_int64(pk, h->recv_ns);
    msgpack_pack_int64(pk, h->handed_ns);
    return end_record(w, start);
}
