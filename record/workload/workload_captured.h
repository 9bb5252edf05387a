/* workload_captured: a trace as a workload (docs/proxy.md, "Replaying a
 * capture"): the requests tokentrace-proxy (or the recorder) caught, sent
 * again with their bodies as captured: a session's turns in their order
 * with their recorded think times, the other requests as single ones. */
#ifndef TT_RECORD_WORKLOAD_CAPTURED_H
#define TT_RECORD_WORKLOAD_CAPTURED_H

#include <stdbool.h>
#include <stddef.h>

#include "workload.h"

/* The workload's format name for a captured trace. */
#define WORKLOAD_FORMAT_CAPTURED "captured"

/* True when path starts like a tokentrace trace (its header record's
 * first bytes, or a zstd frame). "-" (stdin) is never one: its bytes
 * cannot be peeked. */
bool workload_is_trace_file(const char *path);

/* Loads the trace at path as a workload: the requests of API api (the
 * request's own api, else its trace header's; others are skipped and
 * counted in wl->skipped), each in its class (the proxy's: "proxy").
 * A request of a session becomes a turn of that session (per trace of a
 * concatenation; turns ordered by their turn index), with its think_ns;
 * requests without a session are single items. Retried attempts are left
 * out (their first attempt is sent). Failed or cancelled captured
 * requests are sent like the others. Returns a workload_err; on
 * WORKLOAD_E_INVALID err names the file and the byte offset ("FILE: byte
 * N: request 4 has no body (captured with --no-content)"). */
int workload_load_captured(const char *path, const char *api,
                           struct workload *wl, char *err, size_t errlen);

#endif
