/* load_request: a finished request's error kind, server message and
 * metric facts, derived from its records and its parsed stream (the loader
 * hands out the result). Pure. Not for use outside analyze/load. */
#ifndef TT_ANALYZE_LOAD_REQUEST_H
#define TT_ANALYZE_LOAD_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#include "load.h"
#include "metrics.h"
#include "stream_events.h"
#include "trace.h"

/* The error kind of a finished request, derived from what the recorder saw
 * and from the bytes themselves (res NULL: the trace never finished it);
 * NULL when it succeeded. tmp holds an http_<status> kind. */
const char *load_request_error_kind(const struct trace_request *q,
                                    const struct trace_result *res,
                                    const struct stream_state *s, char *tmp,
                                    size_t tmp_size);

/* The server's own words about a failed request (see request_metrics) into
 * msg: the error reply's message for an error status (head, head_len: the
 * start of a body that is not a stream; an HTML page has none), else the
 * first in-stream error's. Returns msg, or NULL when there are none. */
const char *load_request_server_message(const struct trace_result *res,
                                        const char *head, size_t head_len,
                                        const struct stream_state *s, char *msg,
                                        size_t msglen);

/* The facts of one request for metrics_compute: its request record, its
 * result (NULL when the trace never finished it) and its stream. */
void load_request_facts(const struct trace_request *q,
                        const struct trace_result *res,
                        const struct stream_state *s, bool ok,
                        enum token_mode tokens, struct metrics_facts *f);

#endif
