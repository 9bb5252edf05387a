/* replay_send_log: --log-sends, one TSV line per body write, the ground
 * truth for the recorder's timestamps:
 * <request id or "-">\t<seq from 0>\t<CLOCK_MONOTONIC ns>\t<bytes>\t<total>
 */
#ifndef TT_REPLAY_SEND_LOG_H
#define TT_REPLAY_SEND_LOG_H

#include <stddef.h>
#include <stdint.h>

struct event_base;
struct replay_send_log;

/* Opens (truncates) path and flushes it every second from base. Returns 0
 * or errno. */
int replay_send_log_open(const char *path, struct event_base *base,
                         struct replay_send_log **out);

/* Longest request id a line holds; a longer one is cut. */
#define REPLAY_SEND_LOG_ID_MAX 128

/* Buffers one line. NULL log: does nothing. */
void replay_send_log_write(struct replay_send_log *log, const char *req_id,
                           uint64_t seq, int64_t t_ns, size_t bytes,
                           uint64_t total);

/* Flushes and closes. Returns 0 or errno of the first failure. NULL-safe. */
int replay_send_log_close(struct replay_send_log *log);

#endif
