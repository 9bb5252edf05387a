/* replay_trace_stream: the producer that plays one recording back: its
 * status and content type, then each recorded chunk's exact bytes at
 * arrival + recorded delay / speed. */
#ifndef TT_REPLAY_TRACE_STREAM_H
#define TT_REPLAY_TRACE_STREAM_H

#include <stdint.h>

#include "replay_stream.h"
#include "replay_trace_source.h"

extern const struct replay_producer replay_trace_producer;

/* Creates the state for playing rec (borrowed; must outlive the stream).
 * Returns 0 or ENOMEM. */
int replay_trace_stream_new(const struct replay_recording *rec, double speed,
                            int64_t arrival_ns, void **out);

#endif
