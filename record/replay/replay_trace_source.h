/* replay_trace_source: the recorded streams of a trace, loaded into memory
 * for --trace, and the round-robin choice of which one answers a request. */
#ifndef TT_REPLAY_TRACE_SOURCE_H
#define TT_REPLAY_TRACE_SOURCE_H

#include <stddef.h>
#include <stdint.h>

/* One body receive of a recorded request. */
struct replay_rec_chunk {
    int64_t delay_ns; /* since the request's start */
    size_t off, len;  /* in the recording's bytes */
};

/* One recorded request's response. */
struct replay_recording {
    char *model;
    int status;
    char *content_type; /* recorded Content-Type, or NULL */
    char *retry_after;  /* recorded Retry-After, or NULL */
    int64_t header_ns;  /* delay of the status line, since start */
    int64_t end_ns;     /* delay of the end, since start */
    struct replay_rec_chunk *chunks;
    size_t n_chunks, cap_chunks;
    char *bytes;
    size_t n_bytes, cap_bytes;
};

struct replay_trace_source;

/* Reads every record of path. Requests that got no HTTP response are left
 * out. Returns 0, or -1 with a one-line reason in err. */
int replay_trace_source_load(const char *path, struct replay_trace_source **out,
                             char *err, size_t errlen);

/* The next recording for model: round robin over that model's recordings
 * in recorded order, or over all of them when the model was never
 * recorded. Never NULL. */
const struct replay_recording *
replay_trace_source_pick(struct replay_trace_source *src, const char *model);

/* Distinct models, in first-recorded order: name i of *n. */
const char *replay_trace_source_model(const struct replay_trace_source *src,
                                      size_t i, size_t *n);

/* Frees everything. NULL-safe. */
void replay_trace_source_free(struct replay_trace_source *src);

#endif
