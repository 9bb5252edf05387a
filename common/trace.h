/* trace: the tokentrace file format (docs/trace-format.md). This module and
 * its reader are the only code that knows the msgpack encoding.
 *
 * A trace is a stream of self-delimiting msgpack records, each an array whose
 * first element is the record kind. The same structs describe a record when
 * writing (fields borrowed from the caller) and when reading (fields point
 * into the reader's per-record arena, valid until the next trace_reader_next).
 * Times are CLOCK_MONOTONIC nanoseconds; -1 means "unknown / not applicable".
 */
#ifndef TT_TRACE_H
#define TT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRACE_FORMAT_NAME "tokentrace"
#define TRACE_FORMAT_VERSION 2 /* written by default; 1 still read */

enum trace_kind {
    TRACE_UNKNOWN = 0, /* a kind this reader does not know: skip it */
    TRACE_HEADER = 1,
    TRACE_CHUNK = 2,
    TRACE_REQUEST = 3, /* written when a request is handed to libcurl */
    TRACE_RESULT = 4,  /* written when that request ends, however it ends */
    TRACE_FOOTER = 5,
    TRACE_STAGE = 6, /* a stage of a sweep ended (--sweep, optional) */
    /* a scrape of the server's Prometheus /metrics (--server-metrics,
     * optional; docs/server-metrics.md) */
    TRACE_SERVER_METRICS = 7,
    TRACE_HANDED = 8, /* tokentrace-proxy: a chunk reached the client */
};

/* Error codes of every trace_* function (0 is success). */
enum trace_err {
    TRACE_OK = 0,
    TRACE_E_IO = 1,     /* read/write/open failed: see errno text */
    TRACE_E_EXISTS = 2, /* output exists and force was not given */
    TRACE_E_NOMEM = 3,
    TRACE_E_TRUNCATED = 4, /* file ends inside a record: the tail was cut */
    TRACE_E_MALFORMED = 5, /* bytes are not a valid record */
    TRACE_E_TOO_LARGE = 6, /* a record claims more bytes than allowed */
    TRACE_E_VERSION = 7,   /* a header with a format version from the future */
    TRACE_E_NOT_TRACE = 8, /* first record is not a tokentrace header */
    TRACE_E_CHECKSUM = 9,  /* version 2: a record's bytes changed */
};

/* Returns a static description of a trace_err. */
const char *trace_strerror(int err);

/* The text of trace_err rc; for TRACE_E_IO with errno err (not 0) err's
 * own text instead ("No space left on device"), never "input/output
 * error" with what the errno says lost. */
const char *trace_io_strerror(int rc, int err);

/* Writes into buf (len bytes) and returns the sentence for a trace that
 * cannot be written: trace_writer_open (or a setting right after it)
 * returned rc, leaving errno err. TRACE_E_EXISTS and TRACE_E_IO say why
 * as out_error does (common/out_error.h: "cannot write PATH: its directory
 * DIR does not exist"...); any other rc "cannot write PATH: " and its
 * trace_strerror. */
const char *trace_open_error(char *buf, size_t len, const char *path, int rc,
                             int err);

struct trace_kv {
    const char *key;
    const char *value;
};

/* A named count (the footer's proxy_limits). */
struct trace_count {
    const char *key;
    uint64_t n;
};

struct trace_header {
    uint32_t format_version; /* the writer fills in its version */
    const char *tool_version;
    const char *trace_id;     /* short random hex; prefixes X-Request-Id */
    const char *host;         /* recorder's hostname */
    const char *command_line; /* sanitized: nothing that looks like a key */
    const char *endpoint;     /* normalized base URL, no credentials */
    const char *url;          /* full request URL */
    const char *api;          /* openai-chat | openai-completions | anthropic */
    const char **models;
    size_t n_models;
    const struct trace_kv *labels; /* --label KEY=VALUE */
    size_t n_labels;
    const char *workload;           /* "builtin" or the workload file name */
    const struct trace_kv *options; /* run settings, as strings */
    size_t n_options;
    int64_t mono_zero_ns; /* CLOCK_MONOTONIC at the start of the run */
    int64_t real_zero_ns; /* CLOCK_REALTIME read at the same moment */
    /* `tokentrace-analyze share` wrote this trace: what it did (by,
     * prompts, replies, models, headers); n_shared 0 for a recording. */
    const struct trace_kv *shared;
    size_t n_shared;
};

struct trace_request {
    uint32_t id; /* unique within the trace, from 1 */
    const char *model;
    const char *class_name;   /* short-short, short-long, long-short, ... */
    int64_t prompt_index;     /* line of the workload it came from (from 0) */
    int64_t input_tokens_est; /* declared/estimated input tokens, -1 unknown */
    int64_t max_tokens;       /* -1 when not sent */
    bool warmup;
    int64_t scheduled_ns; /* open loop: intended send time; -1 closed loop */
    int64_t start_ns;     /* handed to libcurl */
    /* tokentrace-proxy: the client's request had been read whole (0 or
     * -1: unknown, not written); start_ns - received_ns is the time inside
     * the proxy before it went upstream. */
    int64_t received_ns;
    const char *request_id; /* X-Request-Id sent, NULL when off */
    const char *body;       /* request JSON, NULL with --no-content */
    size_t body_len;
    /* --retry: attempt number (0 or 1: a first attempt) and, on attempts
     * from 2, the id of the request's first attempt (0: none). Written
     * only on retries. */
    uint32_t attempt;
    uint32_t retry_of;
    /* --sweep: the stage the request belongs to (from 1; 0: none, not
     * written), and with -r -c the moment the in-flight cap let it go
     * after it had to wait for a free place (0 or -1: it never waited, not
     * written): start_ns - cap_released_ns is the recorder's own lag,
     * cap_released_ns - scheduled_ns the queueing at the cap. */
    uint32_t stage;
    int64_t cap_released_ns;
    /* Sessions (multi-turn workloads): the session the request belongs to
     * (from 1; 0: none, not written) and its turn in it (from 1). */
    uint32_t session;
    uint32_t turn;
    /* From turn 2: the think time drawn before it, counted from the end
     * of the turn before (that result's end_ns); -1 or 0: none. */
    int64_t think_ns;
    /* tokentrace-proxy: the API this request spoke ("anthropic"...), when
     * the proxy saw it on the request's path; NULL: the header's. */
    const char *api;
    /* tokentrace-proxy: "summary" (the request asks for a summary of its
     * session's task: a client's context compaction) or "resumed" (the
     * task's next request, from that summary); NULL: neither, not
     * written. */
    const char *compaction;
    /* --input-tokens / --output-tokens: the lengths asked of this request
     * (the server's usage says what it got); 0 or -1: none, not written. */
    int64_t asked_input_tokens;
    int64_t asked_output_tokens;
    /* The request body's size in bytes, written when body is not
     * (--no-content); 0 or -1: not written (then body_len is the size, or
     * with no body it is unknown). */
    int64_t body_bytes;
};

/* libcurl's phase times, as durations from start_ns (-1 unknown). */
struct trace_phases {
    int64_t namelookup_ns;
    int64_t connect_ns;
    int64_t tls_ns;
    int64_t pretransfer_ns;  /* request written (multi: stamped after it) */
    int64_t posttransfer_ns; /* request fully sent (libcurl >= 8.10), else -1 */
    int64_t starttransfer_ns; /* first response byte */
    int64_t total_ns;
};

/* How a request's connection came (trace_result.conn). */
enum trace_conn {
    TRACE_CONN_UNKNOWN = 0, /* not recorded (older traces) */
    TRACE_CONN_NEW,         /* opened for it: its connect phases are its own */
    TRACE_CONN_REUSED,      /* taken from the pool: no DNS, connect or TLS */
};

struct trace_result {
    uint32_t id;
    int64_t end_ns;
    int http_status;        /* 0 when no response */
    const char *error_kind; /* NULL or "" when the transfer succeeded */
    const char *error_message;
    const struct trace_kv *headers; /* selected response headers, redacted */
    size_t n_headers;
    struct trace_phases phases;
    uint64_t bytes;        /* body bytes received */
    uint64_t chunks;       /* chunk records written */
    int64_t first_byte_ns; /* time of the first body receive, -1 none */
    uint32_t attempt;      /* 1 unless retried */
    uint32_t retry_of;     /* id of the first attempt on a retry, else 0 */
    /* The recorder scheduled another attempt of this request, to be sent
     * retry_wait_ms after end_ns (this attempt is then superseded, unless
     * the run stopped during the wait and the retry never came). */
    bool will_retry;
    int64_t retry_wait_ms;
    /* Optional (0: unknown, not written; older traces lack them): when libcurl
     * handed the response's status line over (its own clock, which its
     * phase times read: never the kernel's receive time); the
     * kernel's smoothed RTT of the connection and its mean deviation
     * (TCP_INFO, read at the response's end, else at its headers); and
     * whether the request went out on a new or a reused connection
     * (CURLINFO_NUM_CONNECTS). */
    int64_t headers_ns;
    int64_t headers_rx_ns; /* with kernel chunk times: the kernel's receive
                              time of the read that carried it */
    int64_t tcp_rtt_ns, tcp_rttvar_ns;
    enum trace_conn conn;
};

struct trace_footer {
    int64_t end_ns;
    uint64_t requests;
    uint64_t ok;
    uint64_t failed;
    uint64_t retried; /* attempts superseded by a retry (not in ok/failed) */
    uint64_t chunks;
    uint64_t bytes;
    bool interrupted;   /* stopped early by a signal or --duration */
    const char *reason; /* why the run ended: "complete", "signal", ... */
    /* The recorder's own error: how late its event loop woke for a timer
     * compared with when it asked to (ns; -1 / 0 samples when not kept). */
    int64_t loop_lag_p50_ns, loop_lag_p99_ns, loop_lag_max_ns;
    uint64_t loop_lag_samples;
    /* The cross-CPU wake-up probe (record/run/wake_probe.h): how long a
     * write from another CPU waited before the loop read it (ns; -1 / 0
     * samples when not kept). */
    int64_t wake_probe_p50_ns, wake_probe_p99_ns, wake_probe_max_ns;
    uint64_t wake_probe_samples;
    /* Chunks whose t_ns is the kernel's receive time (header option
     * chunk_time=kernel, record/net/rx_stamp.h): how long after it libcurl
     * handed their bytes over, the lateness a user-space stamp would have
     * carried (ns; -1 / 0 samples when no chunk had a kernel time). */
    int64_t receive_lag_p50_ns, receive_lag_p99_ns, receive_lag_max_ns;
    uint64_t receive_lag_samples;
    /* --keep-awake auto (common/keep_awake.h): the mode at the end, its
     * changes during the run (all counted) and the first ones as a JSON
     * array [{"t_ms","to","why"}] (NULL: not auto, none written) */
    const char *keep_awake_end;
    uint64_t keep_awake_changes;
    const char *keep_awake_log;
    /* tokentrace-proxy: the cap that stopped the recording while requests
     * were still forwarded ("--max-requests 100", "--max-bytes 1048576";
     * NULL: none, not written) and how many were forwarded unrecorded. */
    const char *recording_stopped;
    uint64_t unrecorded;
    /* tokentrace-proxy: how often it refused a client or hit a limit of
     * its own, by kind (docs/proxy.md, "Its own limits"); only non-zero
     * counts, none: NULL/0 and no key. Written only, not read back. */
    const struct trace_count *proxy_limits;
    size_t n_proxy_limits;
};

/* One stage of a sweep, written when its last request ended: the load it
 * named and the recorder's own state during it, so a stage the client
 * limited can be told from one the server did (docs/capacity.md). */
struct trace_stage {
    uint32_t id;      /* from 1, as on the requests */
    const char *mode; /* "concurrency" or "rate" */
    double load;      /* the stage's concurrency or requests/s */
    int64_t start_ns; /* its first send may be due */
    int64_t end_ns;   /* its last request ended */
    int64_t ramp_ns;  /* --ramp: requests sent before start + ramp are
                         ramp-up; 0 none */
    /* --search: the live verdict ("pass", "fail"; NULL: not a search) of
     * search_met requests within its TTFT limit of search_judged */
    const char *search;
    uint64_t search_met, search_judged;
    uint64_t sent; /* first attempts sent */
    /* the event loop's lateness during the stage (self_lag.h); -1 / 0
     * samples when not measured */
    int64_t loop_lag_p50_ns, loop_lag_p99_ns, loop_lag_max_ns;
    uint64_t loop_lag_samples;
    /* the recorder's CPU time during the stage (user + system, ns), -1
     * unknown: cpu_ns / (end_ns - start_ns) is its use of one core */
    int64_t cpu_ns;
};

/* One scrape of a server's Prometheus text endpoint (--server-metrics):
 * the lines of the families that matter, as served (docs/server-metrics.md
 * says which and why). A failed scrape has error_kind set and no text. */
struct trace_server_metrics {
    const char *url;  /* the metrics URL, no credentials, the key hidden */
    const char *when; /* "before" the first request, "during", "after" */
    int64_t start_ns; /* handed to libcurl */
    int64_t end_ns;   /* its body was complete, or it failed */
    int http_status;  /* 0 when no response */
    const char *error_kind;    /* NULL or "" when it succeeded */
    const char *error_message; /* NULL when none */
    uint64_t bytes;            /* body bytes received */
    const char *text;          /* the kept lines, '\n'-separated, raw */
    size_t text_len;
    uint64_t lines_dropped; /* sample lines of other families left out */
    bool truncated;         /* the kept lines passed the cap: cut at a line */
};

struct trace_chunk {
    uint32_t request_id;
    int64_t t_ns;
    const uint8_t *data; /* raw body bytes exactly as received */
    size_t len;
};

/* tokentrace-proxy: the chunk-th chunk record (from 0) of request_id,
 * received at recv_ns (its chunk's t_ns), was on the client's socket at
 * handed_ns; handed_ns - recv_ns is the time it spent inside the proxy. */
struct trace_handed {
    uint32_t request_id;
    uint64_t chunk;
    int64_t recv_ns;
    int64_t handed_ns;
};

/* ---- writing ---------------------------------------------------------- */

struct trace_writer;
struct mp_value; /* common/mp.h: the decoded msgpack tree */

/* Opens path for writing ("-" is stdout). Refuses an existing file with
 * TRACE_E_EXISTS unless force. On success *out owns the file. */
int trace_writer_open(const char *path, bool force, struct trace_writer **out);

/* Writes format version `version` (1 or 2; 2 by default: every record
 * ends with its CRC-32C, docs/trace-format.md). Call before the first
 * record; TRACE_E_VERSION for a version this writer does not write. */
int trace_writer_set_version(struct trace_writer *w, unsigned version);

/* The format version being written. */
unsigned trace_writer_version(const struct trace_writer *w);

/* Compresses the trace: from now on each flush writes the buffered records
 * as one independent zstd frame (with its content checksum) at the given
 * level (1..19; 0 turns it off), so a file cut after any frame reads back
 * whole up to it and compressed files concatenate. Call before the first
 * record; TRACE_E_NOMEM when zstd has no memory. */
int trace_writer_set_compression(struct trace_writer *w, int level);

/* The level the recorder and share compress with (docs/performance.md). */
#define TRACE_ZSTD_LEVEL 3

/* True when path names a compressed trace (ends in ".zst"). */
bool trace_path_compressed(const char *path);

/* Each appends one record to the write buffer. A failure of the underlying
 * write (disk full...) is returned by this or a later call and sticks:
 * every later call returns the same error. */
int trace_write_header(struct trace_writer *w, const struct trace_header *h);
int trace_write_request(struct trace_writer *w, const struct trace_request *r);
int trace_write_chunk(struct trace_writer *w, uint32_t request_id, int64_t t_ns,
                      const void *data, size_t len);
int trace_write_result(struct trace_writer *w, const struct trace_result *r);
int trace_write_footer(struct trace_writer *w, const struct trace_footer *f);
int trace_write_stage(struct trace_writer *w, const struct trace_stage *s);
int trace_write_server_metrics(struct trace_writer *w,
                               const struct trace_server_metrics *m);
int trace_write_handed(struct trace_writer *w, const struct trace_handed *h);

/* Appends one record given as a decoded msgpack tree (common/mp.h), as
 * it is: for tools that copy records they do not all know (share). The
 * tree must be an array whose first element is the record kind. */
int trace_write_tree(struct trace_writer *w, const struct mp_value *v);

/* Writes buffered records to the file; whole records only. */
int trace_writer_flush(struct trace_writer *w);

/* Bytes buffered and not yet written. */
size_t trace_writer_pending(const struct trace_writer *w);

/* errno of the last failed write, 0 if none (or w is NULL). */
int trace_writer_errno(const struct trace_writer *w);

/* Flushes and closes. Returns the first error seen over the writer's life,
 * and for TRACE_E_IO leaves the failed write's (or close's) errno in errno.
 * NULL-safe. */
int trace_writer_close(struct trace_writer *w);

/* Hashes every byte written from now on, for trace_writer_close_digest
 * (call before the first record; recordings skip the cost). */
void trace_writer_want_digest(struct trace_writer *w);

/* trace_writer_close, and when sha256_hex_out is not NULL (65 bytes) the
 * SHA-256 of every byte written since trace_writer_want_digest, as hex:
 * what `sha256sum` says of the file when nothing failed ("" without it). */
int trace_writer_close_digest(struct trace_writer *w, char *sha256_hex_out);

/* ---- reading ---------------------------------------------------------- */

struct trace_record {
    enum trace_kind kind;
    int raw_kind;         /* the kind number as stored (for unknown kinds) */
    uint64_t offset;      /* byte offset of the record in the input */
    size_t size;          /* bytes of the record */
    unsigned trace_index; /* 0 for the first header's trace, 1 after the
                             next header (concatenated traces), ... */
    union {
        struct trace_header header;
        struct trace_request request;
        struct trace_result result;
        struct trace_footer footer;
        struct trace_chunk chunk;
        struct trace_stage stage;
        struct trace_server_metrics server_metrics;
        struct trace_handed handed;
    } u;
    /* The whole record as a generic tree (NULL for chunks read by the fast
     * path). Valid until the next trace_reader_next. */
    const struct mp_value *raw;
};

struct trace_reader;

/* Largest record accepted, in bytes (refused beyond, before allocating). */
#define TRACE_MAX_RECORD ((size_t)64 << 20)

/* Opens path for reading ("-" is stdin). */
int trace_reader_open(const char *path, struct trace_reader **out);

/* Reads the next record into *rec. Returns 1 when a record was read, 0 at a
 * clean end of input, or a negative -trace_err when the input is damaged
 * (trace_reader_error says what and at which byte offset; reading stops). */
int trace_reader_next(struct trace_reader *r, struct trace_record *rec);

/* Human-readable description of the last error, naming the file and the
 * byte offset ("week48.ttrace: byte 1234: record truncated (tail cut)"). */
const char *trace_reader_error(const struct trace_reader *r);

/* Byte offset where the damage starts (valid after an error). */
uint64_t trace_reader_error_offset(const struct trace_reader *r);

/* After trace_reader_next reported damage (not an I/O error or out of
 * memory), scans forward for the next trace header of a concatenation
 * (`cat a b c` with a damaged): from just after the record before the
 * damage, so a header that a cut record swallowed is found too. Returns 1
 * when one was found: reading goes on there (the next trace_reader_next
 * returns that header) and trace_reader_resync_note says in one line which
 * bytes were skipped (from the damage to the header, or that the header
 * was inside the record before the damage).
 * Returns 0 when the input holds no further header (reading stays
 * stopped). Clean input never needs it: what it reads is unchanged. */
int trace_reader_resync(struct trace_reader *r);

/* "FILE: bytes N to M (K bytes) skipped: ..." after a resynchronization
 * that returned 1, else "". */
const char *trace_reader_resync_note(const struct trace_reader *r);

/* Records read so far whose checksum matched (version 2 traces; version
 * 1 records have none). */
uint64_t trace_reader_verified(const struct trace_reader *r);

/* Asks for the SHA-256 of the input (trace_reader_sha256): call right
 * after open. Hashing costs CPU, so readers that do not print it skip it. */
void trace_reader_want_sha256(struct trace_reader *r);

/* Reads the rest of the input without decoding it and writes the SHA-256
 * of all its bytes as they came (what `sha256sum FILE` prints; compressed
 * bytes for a compressed file) into hex, 64 digits and a NUL. Nothing more
 * can be read after it. Returns 0, or TRACE_E_IO (the digest then covers
 * what was read). */
int trace_reader_sha256(struct trace_reader *r, char hex[65]);

/* True once the input held a zstd frame: offsets then count decompressed
 * bytes, not the file's. */
bool trace_reader_compressed(const struct trace_reader *r);

/* Name given to open ("-" shown as "<stdin>"). */
const char *trace_reader_name(const struct trace_reader *r);

/* Closes. NULL-safe. */
void trace_reader_close(struct trace_reader *r);

/* Looks up a response header in a result (case-insensitive); NULL if absent. */
const char *trace_result_header(const struct trace_result *r, const char *name);

#endif
