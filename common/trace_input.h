/* trace_input: the bytes of a trace file or stdin as one stream of record
 * bytes, plain or zstd-compressed (docs/trace-format.md, "Compression"). A
 * zstd frame is recognized by its magic where a frame may start: at the
 * start, after a frame, and where the reader expects a record and finds
 * the magic instead (trace_input_unread), so `cat a.ttrace.zst b.ttrace`
 * and `cat a.ttrace b.ttrace.zst` read as one input. Used by the trace
 * reader only. */
#ifndef TT_TRACE_INPUT_H
#define TT_TRACE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The four bytes every zstd frame starts with (28 b5 2f fd). */
#define TRACE_ZSTD_MAGIC "\x28\xb5\x2f\xfd"

struct trace_input;

/* Reads from fd (borrowed). Returns 0, or -1 when out of memory. */
int trace_input_open(int fd, struct trace_input **out);

/* Reads up to cap record bytes into dst: the count, 0 at the end of the
 * input, -1 on a read error (errno set) or -2 on a damaged zstd frame
 * (trace_input_error says which and why). */
ssize_t trace_input_read(struct trace_input *in, uint8_t *dst, size_t cap);

/* Gives back the last n bytes read (p, starting with the zstd magic), to be
 * read again as a compressed frame. Returns false, taking nothing, unless
 * they all came from plain (uncompressed) input. */
bool trace_input_unread(struct trace_input *in, const uint8_t *p, size_t n);

/* True once any zstd frame was read. */
bool trace_input_compressed(const struct trace_input *in);

/* True when the input ended inside a zstd frame (the tail was cut). */
bool trace_input_cut(const struct trace_input *in);

/* File offset where the current (or last) zstd frame starts. */
uint64_t trace_input_frame_offset(const struct trace_input *in);

/* Hashes every byte from now on (SHA-256 costs about 7 ns a byte, so
 * only when asked). Call before the first read. */
void trace_input_want_sha256(struct trace_input *in);

/* Reads the rest of the input (nothing more is read as records) and
 * writes the SHA-256 of all of its bytes as it came (compressed or not) as
 * 64 hex digits into hex. Returns 0, or -1 on a read error (errno set; the
 * digest then covers the bytes read; -1 also without
 * trace_input_want_sha256). */
int trace_input_sha256(struct trace_input *in, char hex[65]);

/* What went wrong with a frame (after -2), else "". */
const char *trace_input_error(const struct trace_input *in);

/* After a damaged frame, what the input skipped to go on (the file bytes
 * up to the next frame, or that none follows), once: "" when nothing.
 * The text is valid until the next call in this thread. */
const char *trace_input_take_note(struct trace_input *in);

/* Frees. NULL-safe. */
void trace_input_close(struct trace_input *in);

#endif
